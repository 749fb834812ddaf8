"""Klotski (Huarong Dao): sliding rectangular pieces until the goal piece reaches its spot.

Notation: rows joined by ``/``, one letter or digit per piece
on every cell it covers, ``.`` empty, e.g. the classic ``BAAC/BAAC/DEEF/DGHF/I..J``.
Options: ``metric`` ``piece`` (a piece sliding any distance, round corners,
is one move; the classic layout takes 81), ``straight`` (a piece sliding any
distance in one straight line is one move; 90) or ``step`` (one cell is one
move; 116), and ``goal`` ``"A@3,0"`` (piece A's top-left at row 3, column 0,
0-based). The default goal is the one 2x2 piece at the bottom centre.

Goal semantics: pieces of the same shape are interchangeable, so the goal is
met when ANY piece of the goal piece's shape stands on the goal spot. For the
usual unique goal shape that is exactly the named piece.

How it is fast (pure Python): positions are searched as canonical integer keys
(per shape, a bitmask of taken top-left cells) with precomputed move masks
(:mod:`solver.klotski.moves`); each level's full distance table is built once
and then answers ``analyse`` by lookup (:mod:`solver.klotski.tables`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from solver.core.text import N_

from ..core.errors import BoardError
from ..core.results import Budget, Cancel, Monitor
from ..core.search import OnProgress
from ..core.tabled import TableDomain
from .board import GoalSpec, KlotskiState, format_board, parse_board
from .moves import METRICS, KlotskiMove, describe, labelled_moves, layout_geometry, state_key
from .placements import fill_keys, label_key
from .tables import DistanceTable, bfs_key_path, find_table, table_for

__all__ = ["Klotski", "KlotskiMove", "KlotskiState", "warm_table"]


class Klotski(TableDomain[KlotskiState, KlotskiMove]):
    """The Klotski domain; one object per (metric, goal) choice."""

    name = "klotski"
    heuristic_admissible = True
    reversible = True

    def __init__(self, metric: str = "piece", goal: str | None = None) -> None:
        if metric not in METRICS:
            raise BoardError(
                N_("unknown metric %(metric)s; choose %(metrics)s"),
                metric=repr(metric),
                metrics=", ".join(METRICS),
            )
        self.metric = metric
        self.goal = GoalSpec.parse(goal) if goal is not None else None

    # -- notation ---------------------------------------------------------
    def parse(self, text: str) -> KlotskiState:
        return parse_board(text, self.goal)

    def format(self, state: KlotskiState) -> str:
        return format_board(state)

    # -- rules ------------------------------------------------------------
    def moves(self, state: KlotskiState) -> list[tuple[KlotskiMove, KlotskiState]]:
        return labelled_moves(state, self.metric)

    def is_goal(self, state: KlotskiState) -> bool:
        layout = state.layout
        return any(
            k == layout.goal_class and top == layout.goal_top
            for k, top in zip(layout.piece_class, state.tops, strict=True)
        )

    def key(self, state: KlotskiState) -> int:
        return state_key(state)

    def heuristic(self, state: KlotskiState) -> int:
        """Step metric: the goal-shaped piece nearest the spot still needs that many steps."""
        if self.is_goal(state):
            return 0
        if self.metric != "step":
            return 1
        layout = state.layout
        gr, gc = divmod(layout.goal_top, layout.width)
        return min(
            abs(r - gr) + abs(c - gc)
            for k, top in zip(layout.piece_class, state.tops, strict=True)
            if k == layout.goal_class
            for r, c in [divmod(top, layout.width)]
        )

    def goal_states(self, start: KlotskiState) -> Iterator[KlotskiState]:
        """Every arrangement of ``start``'s pieces with the goal met (one per canonical key)."""
        layout = start.layout
        geo = layout_geometry(layout)
        n = layout.cells
        counts = [layout.piece_class.count(k) for k in range(len(layout.classes))]
        counts[layout.goal_class] -= 1
        goal_g = layout.goal_class * n + layout.goal_top
        blanks = n - sum(h * w for h, w in layout.shapes)
        for key in fill_keys(geo, 0, geo.cover[goal_g], counts, blanks, 1 << goal_g):
            yield label_key(layout, key)

    def find_table(self, state: KlotskiState, key: int) -> DistanceTable | None:
        return find_table(state.layout, key, self.metric)

    def bfs_chain(
        self, state: KlotskiState, key: int, mon: Monitor
    ) -> tuple[list[int] | None, int]:
        return bfs_key_path(state.layout, key, self.metric, mon)

    def warm_for_analysis(
        self,
        state: KlotskiState,
        budget: Budget,
        cancel: Cancel | None,
        progress: OnProgress | None,
    ) -> DistanceTable:
        """A table an analysis builds is read from disk if saved, never saved or pinned."""
        return self.warm(
            state, budget=budget, cancel=cancel, progress=progress, disk="read", pin=False
        )

    def warm(
        self,
        state: KlotskiState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
        disk: str = "save",
        pin: bool = True,
    ) -> DistanceTable:
        """Build (or load) the distance table of ``state``'s level; raises StopSearch.

        Respects ``budget`` and ``cancel``; levels over TABLE_MAX_STATES positions
        stop with a budget StopSearch. ``disk``/``pin``: see
        :func:`solver.klotski.tables.table_for` (warming on purpose saves and pins).
        """
        mon = Monitor(budget, cancel, progress)
        return table_for(state.layout, self.key(state), self.metric, mon, disk, pin)

    # -- presentation -----------------------------------------------------
    def describe(self, move: KlotskiMove) -> str:
        return describe(move)

    def move_info(self, move: KlotskiMove) -> dict[str, Any]:
        """``path`` is the piece's top-left after each one-cell step, for animation."""
        return {
            "piece": move.piece,
            "from": list(move.path[0]),
            "to": list(move.path[-1]),
            "path": [list(cell) for cell in move.path[1:]],
            "text": describe(move),
        }


def warm_table(
    board: str,
    metric: str = "piece",
    goal: str | None = None,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
) -> DistanceTable:
    """Build or load the distance table for ``board``'s level (the web app pre-builds levels).

    Raises BoardError for a bad board and StopSearch on budget or cancel.
    """
    domain = Klotski(metric=metric, goal=goal)
    state = domain.parse(board)
    return domain.warm(state, budget=budget, cancel=cancel, progress=progress)
