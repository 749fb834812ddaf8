"""Exact distances over a whole Rush Hour cluster, and the shortest solution of one start.

A cluster is every position reachable from a board. :func:`build_table` enumerates
it forward, then runs a breadth-first search backward from all its solved positions
at once (every slide can be slid back, so the graph is undirected and forward
moves serve as predecessors): every position's exact distance to solved. The
coach, the hardest start and a solve on a known cluster read it.

Small clusters are searched in Python (the 51-move puzzle's cluster has 4,780
positions: a few tens of milliseconds, less than loading compiled code); past
:data:`PYTHON_MAX_POSITIONS` the search starts again compiled
(:mod:`solver.rushhour.packed`), unless the compiled kernels cannot load here.
Tables are kept in memory by layout signature, so any position of a built cluster
finds its table.
"""

from __future__ import annotations

import threading
from array import array

from ..core.results import BUDGET, Monitor, StopSearch
from ..core.search import walk_back
from .board import Layout
from .moves import geometry
from .packed import TooManyPositions, build_packed, loadable, solve_packed

#: past this many positions a Python search starts again compiled
PYTHON_MAX_POSITIONS = 40_000
#: the largest cluster a table is built for on the fly (about 40 bytes a position)
TABLE_MAX_STATES = 4_000_000
UNSOLVABLE_DISTANCE = -1


class DistanceTable:
    """Exact distance to solved for every position of one cluster: ``distance`` maps
    packed key -> slides to the nearest solved position (-1: none reachable)."""

    def __init__(self, signature: tuple, distance, seconds: float = 0.0):
        self.signature = signature
        self.distance = distance
        self.seconds = seconds
        solvable = getattr(distance, "solvable", None)  # a packed table knows at once
        self.solvable = any(d >= 0 for d in distance.values()) if solvable is None else solvable

    def __len__(self) -> int:
        return len(self.distance)

    def hardest(self) -> tuple[int, int, int]:
        """(the greatest distance, the least key that far, how many are): -1 first when
        no position is solved (then the least key of all)."""
        distance = self.distance
        far = int(max(distance.values()))
        smallest = getattr(distance, "smallest", None)
        if smallest is not None:  # packed: numpy does the scan
            return far, smallest(far), distance.count(far)
        keys = [key for key, d in distance.items() if d == far]
        return far, min(keys), len(keys)


class TooBig(StopSearch):
    """A cluster passed the table limit; search instead."""

    def __init__(self, message: str):
        super().__init__(BUDGET, message)


def _python_table(layout: Layout, start: int, mon: Monitor, cap: int | None) -> dict[int, int]:
    """{packed key: distance} over ``start``'s cluster, in Python; TooManyPositions past
    ``cap`` positions."""
    geo = geometry(layout)
    index = {start: 0}
    keys = [start]
    occs = [geo.occupancy(start)]
    links = array("i")  # neighbour indices of position i at links[starts[i]:starts[i+1]]
    starts = array("i", [0])
    successors = geo.successors
    i = 0
    while i < len(keys):
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(0, len(keys) - i)
            if cap is not None and len(keys) > cap:
                raise TooManyPositions(len(keys))
        for child, occ in successors(keys[i], occs[i]):
            j = index.get(child)
            if j is None:
                j = index[child] = len(keys)
                keys.append(child)
                occs.append(occ)
            links.append(j)
        starts.append(len(links))
        i += 1
    if cap is not None and len(keys) > cap:
        raise TooManyPositions(len(keys))
    del occs, index
    dist = array("i", [UNSOLVABLE_DISTANCE]) * len(keys)
    goal = geo.goal
    layer = [j for j, key in enumerate(keys) if key & 7 == goal]
    for j in layer:
        dist[j] = 0
    depth = 0
    while layer:
        depth += 1
        nxt = []
        for j in layer:
            for t in links[starts[j] : starts[j + 1]]:
                if dist[t] < 0:
                    dist[t] = depth
                    nxt.append(t)
        layer = nxt
    return dict(zip(keys, dist, strict=True))


def build_table(
    layout: Layout, start: int, mon: Monitor, limit: int | None = TABLE_MAX_STATES
) -> DistanceTable:
    """Every position of ``start``'s cluster with its exact distance; StopSearch on budget
    or cancel, :class:`TooBig` past ``limit`` positions (None: no limit, offline work)."""
    try:
        try:
            distance = _python_table(layout, start, mon, PYTHON_MAX_POSITIONS)
        except TooManyPositions:
            if loadable():
                distance = build_packed(layout, start, mon, limit)
            else:  # no compiled code here: the Python search, all the way
                distance = _python_table(layout, start, mon, limit)
    except TooManyPositions:
        raise TooBig(f"the cluster has over {limit:,} positions; too many for a table") from None
    return DistanceTable(layout.signature, distance, mon.elapsed)


def bfs_key_path(layout: Layout, start: int, mon: Monitor) -> tuple[list[int] | None, int]:
    """(packed keys from ``start`` to the nearest solved position, both included, or None;
    positions reached): breadth-first, so proven shortest; in Python for a small
    cluster, compiled past :data:`PYTHON_MAX_POSITIONS`."""
    geo = geometry(layout)
    if geo.is_goal(start):
        return [start], 1
    parents: dict[int, int | None] = {start: None}
    compiled = True  # until the kernels are asked for and fail to load
    layer = [(start, geo.occupancy(start))]
    depth = 0
    while layer:
        depth += 1
        nxt: list[tuple[int, int]] = []
        for key, occ in layer:
            mon.count += 1
            if mon.count >= mon.next_check:
                mon.check(depth, len(layer) + len(nxt))
                if compiled and len(parents) > PYTHON_MAX_POSITIONS:
                    compiled = loadable()
                    if compiled:
                        return solve_packed(layout, start, mon)
            for child, child_occ in geo.successors(key, occ):
                if child in parents:
                    continue
                parents[child] = key
                if geo.is_goal(child):
                    return walk_back(child, parents.__getitem__), len(parents)
                nxt.append((child, child_occ))
        layer = nxt
    return None, len(parents)


# -- the tables a process keeps ------------------------------------------------------

#: tables kept in memory, the oldest dropped first
MAX_KEPT_TABLES = 32

_kept: list[DistanceTable] = []
_lock = threading.Lock()
_level_locks: dict[tuple, threading.Lock] = {}
MAX_LOCKS = 1024


def find_table(layout: Layout, key: int) -> DistanceTable | None:
    """The kept table whose cluster holds packed ``key``, if one was built."""
    signature = layout.signature
    for table in list(_kept):
        if table.signature == signature and key in table.distance:
            return table
    return None


def remember(table: DistanceTable) -> None:
    with _lock:
        if not any(t is table for t in _kept):
            _kept.append(table)
            while len(_kept) > MAX_KEPT_TABLES:
                _kept.pop(0)


def forget_tables() -> None:
    """Drop every kept table (tests measure cold builds with it)."""
    with _lock:
        _kept.clear()


def table_for(layout: Layout, key: int, mon: Monitor, limit: int | None = TABLE_MAX_STATES):
    """The table holding ``key``: kept, else built (and kept). Threads asking for one
    layout build it once."""
    table = find_table(layout, key)
    if table is not None:
        return table
    with _lock:
        if len(_level_locks) > MAX_LOCKS:
            _level_locks.clear()  # at worst two threads build one table twice
        lock = _level_locks.setdefault(layout.signature, threading.Lock())
    with lock:
        table = find_table(layout, key)
        if table is None:
            mon.check()  # a cancelled caller gets no answer, not even a quick one
            table = build_table(layout, key, mon, limit)
            remember(table)
        return table
