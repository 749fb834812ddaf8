"""Rush Hour ("Unblock Me"): slide the cars and trucks until the red car reaches the exit.

Notation (:mod:`solver.rushhour.board`): the 6x6 board's 36 characters, rows top to
bottom, ``o`` or ``.`` empty, ``x`` a wall, ``A`` the red car (horizontal, third row),
``B``-``Z`` the other vehicles, 2 or 3 cells in a straight line. A move slides one
vehicle along its line any distance over free cells; solved when the red car's right
end is in the last column. Vehicles of the same length and direction are
interchangeable: the key is the vehicles' offsets in canonical order, never their
letters.

How it is fast: every question about a position is answered from its cluster's
distance table (:mod:`solver.rushhour.tables`): every position reachable, each with
its exact distance to solved, built once by breadth-first search (in Python for a
small cluster, compiled for a large one) and then read by lookup.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.results import Budget, Cancel, Monitor
from ..core.search import OnProgress
from ..core.tabled import TableDomain
from .board import RushState, format_board, parse_board
from .moves import (
    RushMove,
    blockers,
    describe,
    is_solved,
    labelled_moves,
    pack,
    state_key,
)
from .tables import DistanceTable, bfs_key_path, find_table, table_for

__all__ = ["RushHour", "RushMove", "RushState"]


class RushHour(TableDomain[RushState, RushMove]):
    """The Rush Hour domain (no options: one metric, one goal)."""

    name = "rushhour"
    heuristic_admissible = True
    reversible = True
    quick_test = "a wall or a horizontal vehicle stands between the red car and the exit"

    # -- notation ---------------------------------------------------------
    def parse(self, text: str) -> RushState:
        return parse_board(text)

    def format(self, state: RushState) -> str:
        return format_board(state)

    # -- rules ------------------------------------------------------------
    def moves(self, state: RushState) -> list[tuple[RushMove, RushState]]:
        return labelled_moves(state)

    def is_goal(self, state: RushState) -> bool:
        return is_solved(state)

    def key(self, state: RushState) -> int:
        return state_key(state)

    def heuristic(self, state: RushState) -> int:
        """The red car must move, and so must every vehicle across its way."""
        if is_solved(state):
            return 0
        return 1 + (blockers(state) or 0)

    def quick_solvable(self, state: RushState) -> bool | None:
        """False when a wall or a horizontal vehicle blocks the red car's row for good."""
        return False if blockers(state) is None else None

    def goal_states(self, start: RushState) -> Iterator[RushState]:
        """Every position of ``start``'s layout with the red car at the exit and every
        vehicle still in its order along its line (the positions a cluster of this
        layout can hold)."""
        layout = start.layout
        order = sorted(
            range(len(layout)),
            key=lambda i: (not layout.horizontal[i], layout.lines[i], start.offsets[i]),
        )
        walls = 0
        for cell in layout.walls:
            walls |= 1 << cell
        offsets = [0] * len(layout)

        def place(n: int, occ: int) -> Iterator[RushState]:
            if n == len(order):
                yield RushState(layout, tuple(offsets))
                return
            i = order[n]
            low = 0
            if n and (layout.horizontal[order[n - 1]], layout.lines[order[n - 1]]) == (
                layout.horizontal[i],
                layout.lines[i],
            ):
                before = order[n - 1]
                low = offsets[before] + layout.lengths[before]
            choices = [layout.goal_offset] if i == 0 else range(low, layout.max_offset(i) + 1)
            for offset in choices:
                if offset < low:
                    continue
                cells = 0
                for along in range(layout.lengths[i]):
                    cells |= 1 << layout.cell(i, offset, along)
                if not cells & occ:
                    offsets[i] = offset
                    yield from place(n + 1, occ | cells)

        yield from place(0, walls)

    def table_key(self, state: RushState) -> int:
        """A cluster's table keys its positions by the packed offsets alone."""
        return pack(state.offsets)

    def find_table(self, state: RushState, key: int) -> DistanceTable | None:
        return find_table(state.layout, key)

    def bfs_chain(self, state: RushState, key: int, mon: Monitor) -> tuple[list[int] | None, int]:
        return bfs_key_path(state.layout, key, mon)

    def warm(
        self,
        state: RushState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> DistanceTable:
        """Build (or find) the distance table of ``state``'s cluster; raises StopSearch."""
        mon = Monitor(budget, cancel, progress)
        return table_for(state.layout, self.table_key(state), mon)

    # -- presentation -----------------------------------------------------
    def describe(self, move: RushMove) -> str:
        return describe(move)

    def move_info(self, move: RushMove) -> dict[str, Any]:
        """``path`` is the vehicle's top-left after each one-cell step, for animation."""
        path = move.path
        return {
            "piece": move.piece,
            "from": list(path[0]),
            "to": list(path[-1]),
            "path": [list(cell) for cell in path[1:]],
            "steps": move.steps,
            "text": describe(move),
        }
