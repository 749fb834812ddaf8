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

from ..core.domain import Analysis, Domain
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
from ..core.search import OnProgress
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


class RushHour(Domain[RushState, RushMove]):
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

    def distance_by_table(self, state: RushState) -> int | None:
        """The cluster's distance table, when one holding this position is built."""
        key = pack(state.offsets)
        table = find_table(state.layout, key)
        return None if table is None else table.distance[key]

    # -- strategy -----------------------------------------------------------
    def solve(
        self,
        state: RushState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[RushState, RushMove]:
        """Optimal solution: walk the cluster's distance table if built, else breadth-first."""
        mon = Monitor(budget, cancel, progress)
        layout, key = state.layout, pack(state.offsets)
        table = find_table(layout, key)
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
            chain, reached = bfs_key_path(layout, key, mon)
        except StopSearch as stop:
            return mon.stopped(stop)
        if chain is None:
            return mon.result(
                UNSOLVABLE,
                optimal=True,
                message=f"no solution: all {reached} reachable positions searched",
            )
        moves, states = self._replay(state, chain[1:])
        return mon.result(SOLVED, moves, states, optimal=True)

    def analyse(
        self,
        state: RushState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> Analysis[RushState, RushMove]:
        """Distance and best move by table lookup; the first call on a cluster builds its
        table with half the budget, and a cluster too big for one (or a build out of
        budget) is answered by breadth-first search instead."""
        budget = budget or Budget()
        mon = Monitor(budget, cancel, progress)
        share = Budget(
            None if budget.max_nodes is None else budget.max_nodes // 2,
            None if budget.max_seconds is None else budget.max_seconds / 2,
        )
        try:
            table = self.warm(state, budget=share, cancel=cancel, progress=progress)
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

    def lookup(self, state: RushState, table: DistanceTable) -> Analysis:
        """Distance and a best move from a built table (well under a millisecond)."""
        distance = table.distance.get(pack(state.offsets))
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
        state: RushState,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> DistanceTable:
        """Build (or find) the distance table of ``state``'s cluster; raises StopSearch."""
        mon = Monitor(budget, cancel, progress)
        return table_for(state.layout, pack(state.offsets), mon)

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

    # -- helpers ----------------------------------------------------------
    def _best(
        self, state: RushState, table: DistanceTable, distance: int
    ) -> tuple[RushMove, RushState]:
        dist = table.distance
        for move, nxt in self.moves(state):
            if dist.get(pack(nxt.offsets)) == distance - 1:
                return move, nxt
        raise RuntimeError("distance table does not match the rules")

    def _descend(
        self, state: RushState, table: DistanceTable
    ) -> tuple[list[RushMove], list[RushState]]:
        moves: list[RushMove] = []
        states = [state]
        distance = table.distance[pack(state.offsets)]
        while distance > 0:
            move, state = self._best(state, table, distance)
            moves.append(move)
            states.append(state)
            distance -= 1
        return moves, states

    def _replay(self, state: RushState, chain: list[int]) -> tuple[list[RushMove], list[RushState]]:
        """The labelled moves along a chain of packed keys from ``state``."""
        moves: list[RushMove] = []
        states = [state]
        for target in chain:
            step = next((m, n) for m, n in self.moves(state) if pack(n.offsets) == target)
            moves.append(step[0])
            states.append(step[1])
            state = step[1]
        return moves, states
