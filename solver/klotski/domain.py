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

from ..core.domain import Analysis, Domain
from ..core.errors import BoardError
from ..core.results import (
    CANCELLED,
    SOLVED,
    UNSOLVABLE,
    Budget,
    Cancel,
    Monitor,
    SearchResult,
    StopSearch,
)
from ..core.search import OnProgress, replay_keys
from .board import GoalSpec, KlotskiState, format_board, parse_board
from .moves import METRICS, KlotskiMove, describe, labelled_moves, layout_geometry, state_key
from .placements import fill_keys, label_key
from .tables import DistanceTable, bfs_key_path, find_table, table_for

__all__ = ["Klotski", "KlotskiMove", "KlotskiState", "warm_table"]


class Klotski(Domain[KlotskiState, KlotskiMove]):
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

    def distance_by_table(self, state: KlotskiState) -> int | None:
        """The level's distance table, when one holding this position is built."""
        key = self.key(state)
        table = find_table(state.layout, key, self.metric)
        return None if table is None else table.distance[key]

    # -- strategy -----------------------------------------------------------
    def solve(
        self,
        state: KlotskiState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[KlotskiState, KlotskiMove]:
        """Optimal solution: walk the level's distance table if built, else breadth-first."""
        mon = Monitor(budget, cancel, progress)
        layout, key = state.layout, self.key(state)
        table = find_table(layout, key, self.metric)
        if table is not None:
            if table.distance[key] < 0:
                return mon.result(
                    UNSOLVABLE,
                    optimal=True,
                    message=f"no solution: all {len(table)} reachable positions searched",
                )
            moves, states = self._descend(state, table)
            return mon.result(SOLVED, moves, states, optimal=True)
        try:
            chain, reached = bfs_key_path(layout, key, self.metric, mon)
        except StopSearch as stop:
            return mon.stopped(stop)
        if chain is None:
            return mon.result(
                UNSOLVABLE,
                optimal=True,
                message=f"no solution: all {reached} reachable positions searched",
            )
        moves, states = replay_keys(self, state, chain[1:])
        return mon.result(SOLVED, moves, states, optimal=True)

    def analyse(
        self,
        state: KlotskiState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> Analysis[KlotskiState, KlotskiMove]:
        """Distance and best move by table lookup; the first call on a level builds the table.

        The build gets half the budget. A level too big for a table (or whose
        build ran out of budget once) is answered by breadth-first search instead.
        """
        budget = budget or Budget()
        mon = Monitor(budget, cancel, progress)
        share = Budget(
            None if budget.max_nodes is None else budget.max_nodes // 2,
            None if budget.max_seconds is None else budget.max_seconds / 2,
        )
        try:
            table = self.warm(
                state, budget=share, cancel=cancel, progress=progress, disk="read", pin=False
            )
        except StopSearch as stop:
            if stop.status == CANCELLED:
                return Analysis(solvable=None, distance=None, optimal=False, message=stop.message)
            left = None
            if budget.max_seconds is not None:
                left = max(budget.max_seconds - mon.elapsed, 0.001)
            return super().analyse(
                state, budget=Budget(budget.max_nodes, left), cancel=cancel, progress=progress
            )
        return self.lookup(state, table)

    def lookup(self, state: KlotskiState, table: DistanceTable) -> Analysis:
        """Distance and a best move from a built table (well under a millisecond)."""
        distance = table.distance.get(self.key(state))
        if distance is None:
            raise ValueError("position is not in this table")
        if distance < 0:
            return Analysis(
                solvable=False,
                distance=None,
                optimal=True,
                message=f"unsolvable: none of the {len(table)} reachable positions is solved",
            )
        if distance == 0:
            return Analysis(solvable=True, distance=0, optimal=True)
        move, nxt = self._best(state, table, distance)
        return Analysis(
            solvable=True, distance=distance, optimal=True, best_move=move, next_state=nxt
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

    # -- helpers ----------------------------------------------------------
    def _best(
        self, state: KlotskiState, table: DistanceTable, distance: int
    ) -> tuple[KlotskiMove, KlotskiState]:
        dist = table.distance
        for move, nxt in self.moves(state):
            if dist.get(self.key(nxt)) == distance - 1:
                return move, nxt
        raise RuntimeError("distance table does not match the rules")

    def _descend(
        self, state: KlotskiState, table: DistanceTable
    ) -> tuple[list[KlotskiMove], list[KlotskiState]]:
        moves: list[KlotskiMove] = []
        states = [state]
        distance = table.distance[self.key(state)]
        while distance > 0:
            move, state = self._best(state, table, distance)
            moves.append(move)
            states.append(state)
            distance -= 1
        return moves, states


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
