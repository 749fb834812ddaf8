"""The plain baseline the bench compares against: the originals' approach.

A generic breadth-first search (a deque and a trail dict, exactly the loop in
the generic-puzzle-solver seed) over states that are plain strings, with move
generators (each game's ``baseline`` module) written the obvious way by
string manipulation. Nothing here is tuned; it is the yardstick, so keep it
honest and simple. It shares no code with the real domains on purpose: a bug
there must not hide here.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol, TypeAlias, cast

from .results import (
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


class GaveUp(Exception):
    """The baseline hit its node or time limit before finishing."""

    def __init__(self, message: str, nodes: int):
        super().__init__(message)
        self.nodes = nodes


def seed_bfs(
    start: str,
    successors: Callable[[str], Iterable[str]],
    is_goal: Callable[[str], bool],
    canonical: Callable[[str], str] = lambda s: s,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> tuple[list[str] | None, int]:
    """Breadth-first search as in the seed; returns (path of states or None, nodes)."""
    queue = deque([start])
    trail: dict[str, str | None] = {canonical(start): None}
    nodes = 0
    started = time.monotonic()
    while queue:
        pos = queue.popleft()
        if is_goal(pos):
            path: list[str] = []
            step: str | None = pos
            while step is not None:
                path.append(step)
                step = trail[canonical(step)]
            return path[::-1], nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise GaveUp(f"gave up after {nodes} positions", nodes)
        if (
            max_seconds is not None
            and nodes % 1000 == 0
            and time.monotonic() - started > max_seconds
        ):
            raise GaveUp(f"gave up after {nodes} positions ({max_seconds:g} s)", nodes)
        for nxt in successors(pos):
            c = canonical(nxt)
            if c in trail:
                continue
            trail[c] = pos
            queue.append(nxt)
    return None, nodes


# -- the originals' own searches, by name ---------------------------------------------
#
# The same plain loops, under a Monitor so the lab and the CLI can run them like any
# search: budget, cancel, progress and the memory figure. ``nodes`` counts what ours
# count: positions whose successors were generated.


class OriginalModel(Protocol):
    """A game over plain strings, as the seeds write them (each game's ``baseline``)."""

    start: str

    def successors(self, pos: str) -> Iterable[str]: ...

    def is_goal(self, pos: str) -> bool: ...

    def canonical(self, pos: str) -> str: ...

    def encode(self, board: str) -> str:
        """The string for a board in the game's notation."""
        ...


class BidirectionalModel(OriginalModel, Protocol):
    """What the original 8-puzzle program's bidirectional search needs: the one goal, and
    moves that can be undone (so the goal side expands with ``successors`` too)."""

    goal: str


class AStarModel(OriginalModel, Protocol):
    """What the original water-sort program's A* needs: moves with their (from, to)
    action, and its cost estimate."""

    def actions(self, pos: str) -> Iterable[tuple[tuple[int, int], str]]: ...

    def cost(self, pos: str) -> int: ...


def original_search(
    name: str,
    model: OriginalModel,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult[str, None]:
    """Run the original's search ``name`` (``seed-bfs``, ``seed-bidirectional`` or
    ``seed-astar``: :data:`solver.originals.ORIGINAL_SEARCHES`) on ``model``; the
    result's ``states`` are the model's strings from the start to a goal.

    Only the generic breadth-first search is proven shortest: the original 8-puzzle
    program's bidirectional search stops at the first contact of its two sides within
    one queue, and the original water-sort program's A* adds its own guess (a full tube
    counts -1), so neither proves its answer.
    """
    mon = Monitor(budget, cancel, progress)
    try:
        if name == "seed-bfs":
            path = _bfs(model, mon)
        elif name == "seed-bidirectional":
            path = _bidirectional(cast(BidirectionalModel, model), mon)
        elif name == "seed-astar":
            path = _astar(cast(AStarModel, model), mon)
        else:
            raise ValueError(f"unknown seed search {name!r}")
    except StopSearch as stop:
        return mon.stopped(stop)
    if path is None:
        return mon.result(UNSOLVABLE, optimal=True, message="no solution: every position searched")
    return mon.result(SOLVED, states=path, optimal=name == "seed-bfs")


def _trail_path(
    trail: dict[str, str | None], pos: str, canonical: Callable[[str], str]
) -> list[str]:
    path: list[str] = []
    step: str | None = pos
    while step is not None:
        path.append(step)
        step = trail[canonical(step)]
    return path[::-1]


def _bfs(model: OriginalModel, mon: Monitor) -> list[str] | None:
    """The original generic solver's loop: a deque, a trail dict, the goal tested when
    taken."""
    canonical, successors, is_goal = model.canonical, model.successors, model.is_goal
    queue = deque([model.start])
    trail: dict[str, str | None] = {canonical(model.start): None}
    mon.holding(trail.__len__, entry_size(canonical(model.start), model.start))
    while queue:
        pos = queue.popleft()
        if is_goal(pos):
            return _trail_path(trail, pos, canonical)
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(0, len(queue))
        for nxt in successors(pos):
            c = canonical(nxt)
            if c in trail:
                continue
            trail[c] = pos
            queue.append(nxt)
    return None


def _bidirectional(model: BidirectionalModel, mon: Monitor) -> list[str] | None:
    """The original 8-puzzle program's loop: one queue holding both sides, each position
    marked with its side; a child already seen by the other side ends the search."""
    successors, start, goal = model.successors, model.start, model.goal
    if start == goal:
        return [start]
    # position -> (its side, the position it was reached from)
    seen: dict[str, tuple[str, str | None]] = {start: ("S", None), goal: ("G", None)}
    mon.holding(seen.__len__, entry_size(start, seen[start]))
    queue = deque([start, goal])
    while queue:
        pos = queue.popleft()
        side = seen[pos][0]
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(0, len(queue))
        for nxt in successors(pos):
            if nxt in seen:
                if seen[nxt][0] != side:
                    front, back = (pos, nxt) if side == "S" else (nxt, pos)
                    return _side_path(seen, front)[::-1] + _side_path(seen, back)
                continue
            seen[nxt] = (side, pos)
            queue.append(nxt)
    return None


def _side_path(seen: dict[str, tuple[str, str | None]], pos: str) -> list[str]:
    """``pos`` back to its side's root."""
    path: list[str] = []
    step: str | None = pos
    while step is not None:
        path.append(step)
        step = seen[step][1]
    return path


def _astar(model: AStarModel, mon: Monitor) -> list[str] | None:
    """The original water-sort program's loop: a priority queue on moves made + its
    cost, no visited set, a position not expanded when its last pour undoes the one
    before."""
    actions, cost, is_goal = model.actions, model.cost, model.is_goal
    tie = itertools.count()
    # a node: (position, its parent node, the action into it)
    root: _Node = (model.start, None, None)
    heap: list[tuple[int, int, int, _Node]] = [(cost(model.start), next(tie), 0, root)]
    mon.holding(lambda: len(heap) + mon.count, entry_size(heap[0]))
    while heap:
        _f, _t, g, node = heapq.heappop(heap)
        pos, parent, action = node
        if is_goal(pos):
            return _node_path(node)
        if action is not None and parent is not None and parent[2] == (action[1], action[0]):
            continue  # the original's pruning: this pour undoes the last one
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(g, len(heap))
        for act, nxt in actions(pos):
            heapq.heappush(heap, (g + 1 + cost(nxt), next(tie), g + 1, (nxt, node, act)))
    return None


_Node: TypeAlias = "tuple[str, _Node | None, tuple[int, int] | None]"


def _node_path(node: _Node) -> list[str]:
    path: list[str] = []
    step: _Node | None = node
    while step is not None:
        path.append(step[0])
        step = step[1]
    return path[::-1]
