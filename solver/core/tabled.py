"""A domain answered from distance tables: the strategy Klotski and Rush Hour share.

Some puzzles have position sets small enough to measure whole: one breadth-first
pass from the solved positions gives every reachable position its exact distance,
and every later question is a lookup. :class:`TableDomain` holds that strategy once
(solve by walking the table down, analyse by lookup with half the budget to build
the table, breadth-first search when no table can be had); a game supplies only how
to find, build and search its tables.
"""

from __future__ import annotations

from typing import Any, Protocol

from .domain import Analysis, Domain, Move, State
from .results import (
    CANCELLED,
    SOLVED,
    UNSOLVABLE,
    Budget,
    Cancel,
    Monitor,
    SearchResult,
    StopSearch,
)
from .search import OnProgress, replay_keys


class Table(Protocol):
    """What the strategy reads of a game's distance table."""

    #: table key -> moves to the nearest solved position (-1: none reachable);
    #: a dict, or a packed table with the same ``get`` and ``[]``
    distance: Any

    def __len__(self) -> int: ...


class TableDomain(Domain[State, Move]):
    """A domain whose every position is answered from its component's distance table.

    Subclasses give :meth:`find_table`, :meth:`warm` and :meth:`bfs_chain`, and
    :meth:`table_key` when the table's key is not :meth:`~Domain.key`.
    """

    def table_key(self, state: State) -> int:
        """The integer key ``state`` has in its table (by default the domain's key)."""
        key = self.key(state)
        assert isinstance(key, int), "a table domain's keys are integers"
        return key

    def find_table(self, state: State, key: int) -> Table | None:
        """The built table holding ``key`` (``state``'s), or None; never builds."""
        raise NotImplementedError

    def warm(
        self,
        state: State,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> Table:
        """Build (or find) ``state``'s table; raises StopSearch on budget or cancel."""
        raise NotImplementedError

    def warm_for_analysis(
        self, state: State, budget: Budget, cancel: Cancel | None, progress: OnProgress | None
    ) -> Table:
        """The table an analysis builds on its way (a game may build it more lightly)."""
        return self.warm(state, budget=budget, cancel=cancel, progress=progress)

    def bfs_chain(self, state: State, key: int, mon: Monitor) -> tuple[list[int] | None, int]:
        """Breadth-first search without a table: (the table keys from ``key`` to solved,
        or None when none is reachable; how many positions were reached)."""
        raise NotImplementedError

    def distance_by_table(self, state: State) -> int | None:
        """The distance from a built table holding this position, else None."""
        key = self.table_key(state)
        table = self.find_table(state, key)
        return None if table is None else int(table.distance[key])

    # -- strategy -----------------------------------------------------------
    def solve(
        self,
        state: State,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[State, Move]:
        """Optimal solution: walk the table down if one is built, else breadth-first."""
        mon = Monitor(budget, cancel, progress)
        key = self.table_key(state)
        table = self.find_table(state, key)
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
            chain, reached = self.bfs_chain(state, key, mon)
        except StopSearch as stop:
            return mon.stopped(stop)
        if chain is None:
            return mon.result(
                UNSOLVABLE,
                optimal=True,
                message=f"no solution: all {reached} reachable positions searched",
            )
        moves, states = replay_keys(self, state, chain[1:], key=self.table_key)
        return mon.result(SOLVED, moves, states, optimal=True)

    def analyse(
        self,
        state: State,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> Analysis[State, Move]:
        """Distance and best move by table lookup; the first call on a component builds
        its table with half the budget, and a component too big for one (or a build out
        of budget) is answered by breadth-first search instead."""
        budget = budget or Budget()
        mon = Monitor(budget, cancel, progress)
        share = Budget(
            None if budget.max_nodes is None else budget.max_nodes // 2,
            None if budget.max_seconds is None else budget.max_seconds / 2,
        )
        try:
            table = self.warm_for_analysis(state, share, cancel, progress)
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

    def lookup(self, state: State, table: Table) -> Analysis[State, Move]:
        """Distance and a best move from a built table (well under a millisecond)."""
        distance = table.distance.get(self.table_key(state))
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

    # -- helpers ----------------------------------------------------------
    def _best(self, state: State, table: Table, distance: int) -> tuple[Move, State]:
        dist = table.distance
        for move, nxt in self.moves(state):
            if dist.get(self.table_key(nxt)) == distance - 1:
                return move, nxt
        raise RuntimeError("distance table does not match the rules")

    def _descend(self, state: State, table: Table) -> tuple[list[Move], list[State]]:
        moves: list[Move] = []
        states = [state]
        distance = table.distance[self.table_key(state)]
        while distance > 0:
            move, state = self._best(state, table, distance)
            moves.append(move)
            states.append(state)
            distance -= 1
        return moves, states
