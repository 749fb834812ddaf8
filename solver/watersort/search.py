"""Fewest pours for water sort: a specialised A* over canonical (sorted) positions.

Why not the generic :func:`solver.core.search.astar`? It works (the tests compare
against it) but pays for tuples, heaps and a heuristic recomputed from scratch.
Here a position is its canonical key (tubes sorted, joined by ``,``); the
lower bound of each child is the parent's plus a delta worked out from the one
pour (see :func:`solver.watersort.rules.lower_bound` for the bound and its proof);
the open list is a set of buckets by f, then by g, deepest first.

Two phases share one budget:

1. a quick weighted best-first search (f = g + 3h) finds *a* solution, the
   incumbent; if its length equals the start's lower bound it is optimal;
2. A* with f = g + h, never keeping a position whose f reaches the incumbent's
   length, either finds a shorter solution or exhausts and so proves the
   incumbent shortest. If the budget runs out first, the best solution found is
   returned flagged ``optimal=False``.

Search runs on canonical keys; the path is turned back into pours between the
player's own tubes by :func:`solver.core.search.replay_keys`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.results import (
    BUDGET,
    CANCELLED,
    SOLVED,
    UNSOLVABLE,
    Budget,
    Cancel,
    Monitor,
    SearchResult,
    StopSearch,
)
from ..core.search import OnProgress, replay_keys, walk_back
from .rules import Pour, State, lower_bound

if TYPE_CHECKING:
    from .domain import WaterSort

#: memory the kept positions may use before the search gives up (peak stays under 1 GiB)
MEMORY_BUDGET = 600 * 2**20
#: rough bytes per kept position beyond its key's characters (str header, three dict slots)
STATE_OVERHEAD = 220
#: share of the node budget (and absolute cap) the quick first phase may use
GREEDY_NODES = 2_000
GREEDY_WEIGHT = 3


def expand(tubes: list[str], cap: int, full_tubes: dict[str, int]) -> list[tuple[str, int]]:
    """Children of a canonical position as (key, change of the lower bound).

    ``tubes`` is sorted, so identical tubes are neighbours: pouring from (or
    into) either of two identical tubes gives the same canonical child, and only
    the first is tried. Only the first empty tube is a destination, and a tube
    holding one colour is never poured into an empty tube (a mere relabelling).
    ``full_tubes[c]`` is k_c, the tubes colour c fills when solved.
    """
    bottoms: dict[str, int] = {}
    room_by_top: dict[str, list[int]] = {}
    first_empty = -1
    for j, tube in enumerate(tubes):
        if not tube:
            if first_empty < 0:
                first_empty = j
            continue
        bottoms[tube[0]] = bottoms.get(tube[0], 0) + 1
        if len(tube) < cap:
            top = tube[-1]
            if top in room_by_top:
                room_by_top[top].append(j)
            else:
                room_by_top[top] = [j]
    out = []
    previous = None
    for i, src in enumerate(tubes):
        if not src or src == previous:
            continue
        previous = src
        colour = src[-1]
        n = len(src)
        run = 1
        while run < n and src[n - 1 - run] == colour:
            run += 1
        at_bottom = run == n
        targets = room_by_top.get(colour)
        if targets:
            last = None
            for j in targets:
                if j == i:
                    continue
                dst = tubes[j]
                if dst == last:
                    continue
                last = dst
                room = cap - len(dst)
                if run <= room:
                    amount = run
                    if not at_bottom:
                        delta = -1  # a raised block merged away
                    elif bottoms[colour] > full_tubes[colour]:
                        delta = -1  # a surplus bottom block merged away
                    else:
                        delta = 0
                else:
                    amount = room  # partial pour: no block vanishes
                    delta = 0
                child = tubes[:]
                child[i] = src[: n - amount]
                child[j] = dst + colour * amount
                child.sort()
                out.append((",".join(child), delta))
        if first_empty >= 0 and not at_bottom:
            # a raised block becomes a bottom block: t_c - 1, s_c + 1
            delta = 0 if bottoms.get(colour, 0) >= full_tubes[colour] else -1
            child = tubes[:]
            child[i] = src[: n - run]
            child[first_empty] = src[n - run :]
            child.sort()
            out.append((",".join(child), delta))
    return out


class _Open:
    """Open list: buckets by priority, each a stack per g; pops lowest priority, deepest g."""

    def __init__(self) -> None:
        self.buckets: dict[int, list[list[str]]] = {}
        self.low: int | None = None
        self.size = 0

    def push(self, priority: int, g: int, key: str) -> None:
        stacks = self.buckets.get(priority)
        if stacks is None:
            stacks = self.buckets[priority] = []
            if self.low is None or priority < self.low:
                self.low = priority
        while len(stacks) <= g:
            stacks.append([])
        stacks[g].append(key)
        self.size += 1

    def pop(self) -> tuple[int, int, str] | None:
        while self.size and self.low is not None:
            stacks = self.buckets.get(self.low)
            if stacks:
                while stacks and not stacks[-1]:
                    stacks.pop()
                if stacks:
                    self.size -= 1
                    return self.low, len(stacks) - 1, stacks[-1].pop()
                del self.buckets[self.low]
            self.low = min(self.buckets) if self.buckets else None
        return None


def _best_first(
    start: str,
    h0: int,
    cap: int,
    full_tubes: dict[str, int],
    mon: Monitor,
    weight: int,
    upper: int | None,
    max_nodes: int | None,
    max_states: int,
) -> tuple[str, list[str] | None]:
    """Best-first on g + weight*h from ``start``; returns (outcome, key chain or None).

    outcome is ``solved`` (chain is a solution), ``exhausted`` (no solution
    shorter than ``upper`` exists; with no ``upper``, none at all) or ``limit``
    (``max_nodes`` expanded). With weight > 1 the first solution found is
    returned. With weight 1 (A*) each solution found becomes the new ``upper``
    and the search goes on until no open position could beat it, so the chain
    returned is proven shortest: h is consistent, so popped f never decreases.
    """
    g_of = {start: 0}
    parent: dict[str, str | None] = {start: None}
    hs = {start: h0}
    open_ = _Open()
    open_.push(weight * h0, 0, start)
    best: list[str] | None = None
    expanded = 0
    while True:
        item = open_.pop()
        if item is None:
            return ("solved", best) if best else ("exhausted", None)
        f, g, key = item
        if g != g_of[key]:
            continue  # reached more cheaply since
        if weight == 1 and upper is not None and f >= upper:
            return ("solved", best) if best else ("exhausted", None)
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(g, open_.size)
            if len(g_of) > max_states:
                raise StopSearch(
                    BUDGET, f"gave up after {mon.count} positions ({len(g_of)} kept, memory limit)"
                )
        expanded += 1
        if max_nodes is not None and expanded > max_nodes:
            return ("limit", None)
        h = hs[key]
        g1 = g + 1
        for child, delta in expand(key.split(","), cap, full_tubes):
            old = g_of.get(child)
            if old is not None and old <= g1:
                continue
            hc = h + delta
            if upper is not None and g1 + hc >= upper:
                continue  # cannot beat the incumbent
            g_of[child] = g1
            parent[child] = key
            if hc == 0:  # h is 0 exactly on solved positions
                best = walk_back(child, parent.__getitem__)
                if weight != 1:
                    return ("solved", best)
                upper = g1
                if g1 <= f:  # nothing open can do better
                    return ("solved", best)
                continue
            hs[child] = hc
            open_.push(g1 + weight * hc, g1, child)


def solve_fewest_pours(
    domain: WaterSort,
    state: State,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
    max_states: int | None = None,
) -> SearchResult[State, Pour]:
    """Shortest solution (fewest pours) for ``state``, proven when ``optimal`` is True.

    ``max_states`` caps the positions kept; by default it follows from
    :data:`MEMORY_BUDGET` and the board's size.
    """
    mon = Monitor(budget, cancel, progress)
    cap = domain.capacity
    start = domain.key(state)
    if max_states is None:
        max_states = MEMORY_BUDGET // (len(start) + STATE_OVERHEAD)
    if domain.is_goal(state):
        return mon.result(SOLVED, states=[state], optimal=True)
    units: dict[str, int] = {}
    for tube in state:
        for ch in tube:
            units[ch] = units.get(ch, 0) + 1
    full_tubes = {c: n // cap for c, n in units.items()}
    h0 = lower_bound(state, cap)
    incumbent: list[str] | None = None
    try:
        quick = GREEDY_NODES
        if mon.budget.max_nodes is not None:
            quick = min(quick, max(1, mon.budget.max_nodes // 4))
        outcome, chain = _best_first(
            start, h0, cap, full_tubes, mon, GREEDY_WEIGHT, None, quick, max_states
        )
        if outcome == "exhausted":
            return mon.result(
                UNSOLVABLE, optimal=True, message="no solution: every reachable position searched"
            )
        if outcome == "solved" and chain is not None:
            incumbent = chain
            if len(chain) - 1 == h0:
                return _finish(domain, state, chain, mon, optimal=True)
        upper = len(incumbent) - 1 if incumbent else None
        outcome, chain = _best_first(start, h0, cap, full_tubes, mon, 1, upper, None, max_states)
        if chain is not None:
            return _finish(domain, state, chain, mon, optimal=True)
        if incumbent is not None:
            return _finish(domain, state, incumbent, mon, optimal=True)
        return mon.result(
            UNSOLVABLE, optimal=True, message="no solution: every reachable position searched"
        )
    except StopSearch as stop:
        if stop.status == CANCELLED or incumbent is None:
            return mon.stopped(stop)
        return _finish(
            domain,
            state,
            incumbent,
            mon,
            optimal=False,
            message=f"{stop.message}; best found so far, not proven shortest",
        )


def _finish(
    domain: WaterSort,
    state: State,
    chain: list[str],
    mon: Monitor,
    optimal: bool,
    message: str = "",
) -> SearchResult[State, Pour]:
    moves, states = replay_keys(domain, state, chain[1:])
    return mon.result(SOLVED, moves, states, optimal=optimal, message=message)
