"""Search algorithms written once over the :class:`~solver.core.domain.Domain` interface.

Every algorithm takes the same keyword arguments:

* ``budget``: a :class:`Budget` (node and second limits; ``None`` means unlimited);
* ``cancel``: a :data:`~solver.core.results.Cancel`: anything with ``is_set()`` (a
  ``threading.Event``) or a plain callable returning True when the caller wants the
  search to stop;
* ``progress``: a callable receiving :class:`Progress` about four times a second.

and returns a :class:`SearchResult`. ``optimal`` is True only when the algorithm
has proven the answer shortest (breadth-first, bidirectional, and A*/IDA* with an
admissible heuristic); ``status`` says whether the search solved, proved the
position unsolvable (reachable set exhausted), ran out of budget or was cancelled.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Protocol, TypeAlias, TypeVar, cast

from .results import (
    BUDGET,
    DICT_SLOT_BYTES,
    SOLVED,
    UNSOLVABLE,
    Budget,
    Cancel,
    Monitor,
    Progress,
    SearchResult,
    StopSearch,
    entry_size,
)

if TYPE_CHECKING:
    from .domain import Domain

S = TypeVar("S")
M = TypeVar("M")
K = TypeVar("K")

#: receives :class:`~solver.core.results.Progress` about four times a second
OnProgress: TypeAlias = Callable[[Progress], None]
#: key -> (parent key, move into it, state); the root's parent and move are None.
#: Generic in the move, then the state (the order they appear in).
Parents: TypeAlias = dict[Hashable, tuple[Hashable | None, M | None, S]]


class Search(Protocol):
    """What every algorithm here is: a function of a domain and a start, with limits."""

    def __call__(
        self,
        domain: Domain[S, M],
        start: S,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[S, M]: ...


def walk_back(key: K | None, parent_of: Callable[[K], K | None]) -> list[K]:
    """``[root, ..., key]``: follow ``parent_of`` back from ``key`` until it gives None.

    The one way a solution path is rebuilt from parent links, by every search
    here and by the games' own searches.
    """
    chain = []
    while key is not None:
        chain.append(key)
        key = parent_of(key)
    chain.reverse()
    return chain


def _path(parents: Parents[M, S], key: Hashable) -> tuple[list[M], list[S]]:
    """Moves and states from the root to ``key``."""
    keys = walk_back(key, lambda k: parents[k][0])
    # every link but the root's carries the move into it (a move that may itself be
    # None, as in the seed-style Puzzle), so these are moves, not "move or None"
    moves = cast("list[M]", [parents[k][1] for k in keys[1:]])
    return moves, [parents[k][2] for k in keys]


def replay_keys(
    domain: Domain[S, M],
    start: S,
    keys: Iterable[Hashable],
    key: Callable[[S], Hashable] | None = None,
) -> tuple[list[M], list[S]]:
    """Turn a chain of canonical keys into concrete moves from ``start``.

    Backward searches and distance tables store canonical keys; with
    interchangeable pieces those may be labelled differently from the player's
    board, so each step is re-derived by finding the move that lands on the key.
    ``key``: how a state's key is made (by default the domain's :meth:`~Domain.key`).
    """
    key_of = domain.key if key is None else key
    moves: list[M] = []
    states, state = [start], start
    for target in keys:
        step = next(((m, n) for m, n in domain.moves(state) if key_of(n) == target), None)
        if step is None:
            raise RuntimeError("key chain does not follow the rules")
        move, nxt = step
        moves.append(move)
        states.append(nxt)
        state = nxt
    return moves, states


# -- breadth-first ---------------------------------------------------------


def breadth_first(
    domain: Domain[S, M],
    start: S,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
) -> SearchResult[S, M]:
    """Layer-by-layer breadth-first search: shortest in move count, proven."""
    mon = Monitor(budget, cancel, progress)
    key, moves, is_goal = domain.key, domain.moves, domain.is_goal
    start_key = key(start)
    parents: Parents[M, S] = {start_key: (None, None, start)}
    # the frontier's lists only point into the parents table
    mon.holding(parents.__len__, entry_size(start_key, parents[start_key]))
    if is_goal(start):
        return mon.result(SOLVED, states=[start], optimal=True)
    layer = [(start_key, start)]
    depth = 0
    try:
        while layer:
            depth += 1
            nxt_layer: list[tuple[Hashable, S]] = []
            for pkey, state in layer:
                mon.count += 1
                if mon.count >= mon.next_check:
                    mon.check(depth, len(layer) + len(nxt_layer))
                for move, child in moves(state):
                    ckey = key(child)
                    if ckey in parents:
                        continue
                    parents[ckey] = (pkey, move, child)
                    if is_goal(child):
                        mv, st = _path(parents, ckey)
                        return mon.result(SOLVED, mv, st, optimal=True)
                    nxt_layer.append((ckey, child))
            layer = nxt_layer
    except StopSearch as stop:
        return mon.stopped(stop)
    return mon.result(
        UNSOLVABLE,
        optimal=True,
        message=f"no solution: all {len(parents)} reachable positions searched",
    )


# -- depth-first -----------------------------------------------------------


def depth_first(
    domain: Domain[S, M],
    start: S,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
    max_depth: int | None = None,
) -> SearchResult[S, M]:
    """Depth-first search with a visited set (the original's ``depthFirst=True``).

    Finds *a* solution, usually long; never claims optimality.
    """
    mon = Monitor(budget, cancel, progress)
    key, moves, is_goal = domain.key, domain.moves, domain.is_goal
    start_key = key(start)
    parents: Parents[M, S] = {start_key: (None, None, start)}
    mon.holding(parents.__len__, entry_size(start_key, parents[start_key]))
    stack = [(start_key, start, 0)]
    try:
        while stack:
            skey, state, depth = stack.pop()
            if is_goal(state):
                mv, st = _path(parents, skey)
                return mon.result(SOLVED, mv, st, optimal=len(mv) == 0)
            mon.count += 1
            if mon.count >= mon.next_check:
                mon.check(depth, len(stack))
            if max_depth is not None and depth >= max_depth:
                continue
            for move, child in moves(state):
                ckey = key(child)
                if ckey in parents:
                    continue
                parents[ckey] = (skey, move, child)
                stack.append((ckey, child, depth + 1))
    except StopSearch as stop:
        return mon.stopped(stop)
    if max_depth is not None:
        return mon.result(BUDGET, message=f"no solution within {max_depth} moves")
    return mon.result(
        UNSOLVABLE,
        optimal=True,
        message=f"no solution: all {len(parents)} reachable positions searched",
    )


# -- bidirectional breadth-first -----------------------------------------------


def bidirectional(
    domain: Domain[S, M],
    start: S,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
) -> SearchResult[S, M]:
    """Breadth-first from the start and backward from every goal state at once.

    Each round expands one whole layer of the smaller side; the first layer that
    touches the other side holds a shortest path (see ``_meet``), so the answer is
    proven optimal. Needs ``domain.goal_states`` and ``domain.predecessors``.
    """
    mon = Monitor(budget, cancel, progress)
    key = domain.key
    start_key = key(start)
    if domain.is_goal(start):
        return mon.result(SOLVED, states=[start], optimal=True)
    fwd: Parents[M, S] = {start_key: (None, None, start)}
    bwd: Parents[M, S] = {}  # key -> (next key toward goal, None, state)
    mon.holding(lambda: len(fwd) + len(bwd), entry_size(start_key, fwd[start_key]))
    for goal in domain.goal_states(start):
        bwd.setdefault(key(goal), (None, None, goal))
    if not bwd:
        return mon.result(UNSOLVABLE, optimal=True, message="no goal position exists")
    fwd_layer: list[tuple[Hashable, S]] = [(start_key, start)]
    bwd_layer = [(k, v[2]) for k, v in bwd.items()]
    fwd_depth = bwd_depth = 0
    try:
        while fwd_layer and bwd_layer:
            forward = len(fwd_layer) <= len(bwd_layer)
            if forward:
                fwd_depth += 1
                expand, seen, other, layer = domain.moves, fwd, bwd, fwd_layer
            else:
                bwd_depth += 1
                expand, seen, other, layer = domain.predecessors, bwd, fwd, bwd_layer
            nxt_layer: list[tuple[Hashable, S]] = []
            meet: Hashable | None = None
            for pkey, state in layer:
                mon.count += 1
                if mon.count >= mon.next_check:
                    mon.check(fwd_depth + bwd_depth, len(fwd_layer) + len(bwd_layer))
                for move, child in expand(state):
                    ckey = key(child)
                    if ckey in seen:
                        continue
                    seen[ckey] = (pkey, move, child)
                    if ckey in other:
                        meet = ckey
                        break
                    nxt_layer.append((ckey, child))
                if meet is not None:
                    break
            if meet is not None:
                return _meet(domain, start, fwd, bwd, meet, mon)
            if forward:
                fwd_layer = nxt_layer
            else:
                bwd_layer = nxt_layer
    except StopSearch as stop:
        return mon.stopped(stop)
    return mon.result(
        UNSOLVABLE,
        optimal=True,
        message=f"no solution: all {len(fwd)} reachable positions searched",
    )


def _meet(
    domain: Domain[S, M],
    start: S,
    fwd: Parents[M, S],
    bwd: Parents[M, S],
    meet: Hashable,
    mon: Monitor,
) -> SearchResult[S, M]:
    """Join the two half paths at ``meet``.

    With whole layers expanded alternately and no earlier contact, every path
    through this layer has the same length, the shortest possible: any meeting
    node with a shallower other side would have been found a round earlier.
    """
    to_meet = walk_back(meet, lambda k: fwd[k][0])
    to_goal = walk_back(bwd[meet][0], lambda k: bwd[k][0])[::-1]
    moves, states = replay_keys(domain, start, to_meet[1:] + to_goal)
    return mon.result(SOLVED, moves, states, optimal=True)


# -- A* ----------------------------------------------------------------------


def astar(
    domain: Domain[S, M],
    start: S,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
    weight: float = 1.0,
) -> SearchResult[S, M]:
    """A* on f = g + weight * h; optimal when h is admissible and weight is 1.

    Ties prefer the deeper node, which reaches goals sooner on puzzles with many
    equal-f positions. A node whose cost improves is reopened, so admissibility
    (not consistency) is all optimality needs.
    """
    mon = Monitor(budget, cancel, progress)
    key, moves, is_goal, h = domain.key, domain.moves, domain.is_goal, domain.heuristic
    start_key = key(start)
    parents: Parents[M, S] = {start_key: (None, None, start)}
    best_g = {start_key: 0}
    tie = itertools.count()
    open_heap = [(weight * h(start), 0, next(tie), start_key, start)]
    # per position: a parents entry, a best-g entry and (at least) one open-list entry
    mon.holding(
        parents.__len__,
        entry_size(start_key, parents[start_key], open_heap[0]) + DICT_SLOT_BYTES,
    )
    proven = domain.heuristic_admissible and weight <= 1.0
    try:
        while open_heap:
            _f, neg_g, _t, skey, state = heapq.heappop(open_heap)
            g = -neg_g
            if g > best_g[skey]:
                continue  # a stale entry: reached more cheaply since
            if is_goal(state):
                mv, st = _path(parents, skey)
                return mon.result(SOLVED, mv, st, optimal=proven)
            mon.count += 1
            if mon.count >= mon.next_check:
                mon.check(g, len(open_heap))
            g1 = g + 1
            for move, child in moves(state):
                ckey = key(child)
                old = best_g.get(ckey)
                if old is not None and old <= g1:
                    continue
                best_g[ckey] = g1
                parents[ckey] = (skey, move, child)
                heapq.heappush(open_heap, (g1 + weight * h(child), -g1, next(tie), ckey, child))
    except StopSearch as stop:
        return mon.stopped(stop)
    return mon.result(
        UNSOLVABLE,
        optimal=True,
        message=f"no solution: all {len(best_g)} reachable positions searched",
    )


# -- IDA* --------------------------------------------------------------------


def ida_star(
    domain: Domain[S, M],
    start: S,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
) -> SearchResult[S, M]:
    """Iterative-deepening A*: depth-first within a growing f bound, tiny memory.

    Positions already on the current path are skipped, so every iteration is
    finite; when an iteration finds nothing beyond its bound the reachable set is
    exhausted and the position is proven unsolvable.
    """
    mon = Monitor(budget, cancel, progress)
    bound = domain.heuristic(start)
    try:
        while True:
            found, next_bound = _bounded_dfs(domain, start, bound, mon)
            if found is not None:
                mv, st = found
                return mon.result(SOLVED, mv, st, optimal=domain.heuristic_admissible)
            if next_bound is None:
                return mon.result(
                    UNSOLVABLE, optimal=True, message="no solution: every path searched"
                )
            bound = next_bound
            mon.report(bound, 0)
    except StopSearch as stop:
        return mon.stopped(stop)


def _bounded_dfs(
    domain: Domain[S, M], start: S, bound: int, mon: Monitor
) -> tuple[tuple[list[M], list[S]] | None, int | None]:
    """One IDA* iteration; returns ((moves, states) or None, smallest f over bound)."""
    key, moves, is_goal, h = domain.key, domain.moves, domain.is_goal, domain.heuristic
    path_states: list[S] = [start]
    path_moves: list[M] = []
    on_path = {key(start)}
    stack = [iter(moves(start))]
    # only the path is kept: its states, keys and move iterators
    mon.holding(on_path.__len__, entry_size(key(start), start, stack[0]))
    next_bound: int | None = None
    if is_goal(start):
        return ([], [start]), None
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            on_path.discard(key(path_states.pop()))
            if path_moves:
                path_moves.pop()
            continue
        move, child = step
        ckey = key(child)
        if ckey in on_path:
            continue
        g = len(path_moves) + 1
        f = g + h(child)
        if f > bound:
            if next_bound is None or f < next_bound:
                next_bound = f
            continue
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(g, len(stack))
        if is_goal(child):
            return (path_moves + [move], path_states + [child]), None
        path_states.append(child)
        path_moves.append(move)
        on_path.add(ckey)
        stack.append(iter(moves(child)))
    return None, next_bound


# -- by name --------------------------------------------------------------------

#: every search above by the name the CLI, the Python API and the lab use
ALGORITHMS: dict[str, Search] = {
    "bfs": breadth_first,
    "dfs": depth_first,
    "bidirectional": bidirectional,
    "astar": astar,
    "idastar": ida_star,
}


def unfit_algorithm(domain: Domain[S, M], name: str) -> str | None:
    """Why ``name`` cannot search ``domain`` (None when it can): an unknown name, or
    a backward search over moves that cannot be undone."""
    if name not in ALGORITHMS:
        return f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}"
    if name == "bidirectional" and not domain.reversible:
        return f"bidirectional search needs moves that can be undone; {domain.name} moves cannot"
    return None
