"""Breadth-first search and per-level distance tables over canonical Klotski keys.

Both work in key space (see :mod:`solver.klotski_moves`): integers in, integers
out, no labels. :func:`bfs_key_path` finds a proven-shortest chain of keys from
a start to a goal. A :class:`DistanceTable` holds, for every position reachable
from a level's start, its exact distance to the nearest goal: the reachable
set is enumerated forward, then a backward breadth-first search runs from all
its goal positions at once (Klotski moves are reversible, so the graph is
undirected and forward neighbours serve as predecessors).

Tables live in memory in a registry keyed by the level signature, so any
position of a table's component finds it, and on disk through
:func:`solver.cache.load_or_build`.
"""
from __future__ import annotations

import hashlib
import threading
from array import array
from typing import Dict, List, Optional, Tuple

from .klotski_board import Layout
from .klotski_moves import layout_geometry, goal_bit
from .search import Monitor

#: the largest reachable set a table is built for (memory stays near 200 MB)
TABLE_MAX_STATES = 1_000_000
UNSOLVABLE_DISTANCE = -1


def bfs_key_path(layout: Layout, start: int, metric: str,
                 mon: Monitor) -> Tuple[Optional[List[int]], int]:
    """(keys from ``start`` to the nearest goal, both included, or None; positions reached).

    Layer by layer, so the first goal seen is at the least depth: proven optimal.
    Raises :class:`~solver.search.StopSearch` when the monitor says stop.
    """
    geo = layout_geometry(layout)
    moves_for = geo.expansions(metric)
    goal = goal_bit(layout)
    parents: Dict[int, int] = {start: 0}
    if start & goal:
        return [start], 1
    layer = [(start, geo.full ^ geo.occupancy(start))]
    depth = 0
    while layer:
        depth += 1
        nxt = []
        for key, empty in layer:
            mon.count += 1
            if mon.count >= mon.next_check:
                mon.check(depth, len(layer) + len(nxt))
            for bit, key_flip, empty_flip in moves_for(empty):
                if not key & bit:
                    continue
                child = key ^ key_flip
                if child in parents:
                    continue
                parents[child] = key
                if child & goal:
                    return _chain(parents, child, start), len(parents)
                nxt.append((child, empty ^ empty_flip))
        layer = nxt
    return None, len(parents)


def _chain(parents: Dict[int, int], key: int, start: int) -> List[int]:
    chain = [key]
    while key != start:
        key = parents[key]
        chain.append(key)
    chain.reverse()
    return chain


class DistanceTable:
    """Exact distance to solved for every position of one connected component.

    ``distance`` maps canonical key -> moves to the nearest goal, or
    :data:`UNSOLVABLE_DISTANCE` for every key when the component holds no goal.
    """

    def __init__(self, signature: tuple, metric: str, distance: Dict[int, int],
                 seconds: float = 0.0):
        self.signature = signature
        self.metric = metric
        self.distance = distance
        self.seconds = seconds
        self.solvable = any(d >= 0 for d in distance.values())

    def __len__(self) -> int:
        return len(self.distance)


def build_table(layout: Layout, start: int, metric: str, mon: Monitor) -> DistanceTable:
    """Enumerate ``start``'s reachable set, then measure every position's distance.

    Stops with :class:`~solver.search.StopSearch` on budget or cancel, or with
    a budget stop once the set passes :data:`TABLE_MAX_STATES`.
    """
    from .search import BUDGET, StopSearch
    geo = layout_geometry(layout)
    moves_for = geo.expansions(metric)
    goal = goal_bit(layout)
    index = {start: 0}
    keys = [start]
    empties = [geo.full ^ geo.occupancy(start)]
    links = array("i")           # neighbour indices of node i at links[starts[i]:starts[i+1]]
    starts = array("i", [0])
    i = 0
    while i < len(keys):
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(0, len(keys) - i)
            if len(keys) > TABLE_MAX_STATES:
                raise StopSearch(BUDGET, f"level has over {TABLE_MAX_STATES} positions; "
                                         "too many for a table")
        key, empty = keys[i], empties[i]
        for bit, key_flip, empty_flip in moves_for(empty):
            if not key & bit:
                continue
            child = key ^ key_flip
            j = index.get(child)
            if j is None:
                j = index[child] = len(keys)
                keys.append(child)
                empties.append(empty ^ empty_flip)
            links.append(j)
        starts.append(len(links))
        i += 1
    del empties
    dist = array("i", [UNSOLVABLE_DISTANCE]) * len(keys)
    layer = [j for j, key in enumerate(keys) if key & goal]
    for j in layer:
        dist[j] = 0
    depth = 0
    while layer:
        depth += 1
        nxt = []
        for j in layer:
            for t in links[starts[j]:starts[j + 1]]:
                if dist[t] < 0:
                    dist[t] = depth
                    nxt.append(t)
        layer = nxt
    distance = dict(zip(keys, dist))
    return DistanceTable(layout.signature(), metric, distance, mon.elapsed)


# -- registry: memory first, then disk ---------------------------------------------

_registry: Dict[tuple, List[DistanceTable]] = {}
_lock = threading.Lock()


def find_table(layout: Layout, key: int, metric: str) -> Optional[DistanceTable]:
    """The in-memory table whose component holds ``key``, if one was built or loaded."""
    for table in _registry.get((layout.signature(), metric), ()):
        if key in table.distance:
            return table
    return None


def remember(table: DistanceTable) -> None:
    with _lock:
        tables = _registry.setdefault((table.signature, table.metric), [])
        if table not in tables:
            tables.append(table)


def forget_tables() -> None:
    """Drop every in-memory table (tests use this to measure cold builds)."""
    with _lock:
        _registry.clear()


def cache_name(layout: Layout, start: int, metric: str) -> str:
    """A file name that identifies geometry, shapes, goal, metric and the start position."""
    digest = hashlib.sha1(repr((layout.signature(), start, metric)).encode()).hexdigest()[:16]
    return f"klotski-{layout.height}x{layout.width}-{metric}-{digest}"


def table_for(layout: Layout, key: int, metric: str, mon: Monitor,
              use_disk: bool = True) -> DistanceTable:
    """The table holding ``key``: from memory, else from the disk cache, else built."""
    table = find_table(layout, key, metric)
    if table is not None:
        return table
    if use_disk:
        from .cache import load_or_build
        table = load_or_build(cache_name(layout, key, metric),
                              lambda: build_table(layout, key, metric, mon))
        if not isinstance(table, DistanceTable) or key not in table.distance:
            table = build_table(layout, key, metric, mon)     # a stale or foreign file
    else:
        table = build_table(layout, key, metric, mon)
    remember(table)
    return table
