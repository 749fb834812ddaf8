"""Breadth-first search and per-level distance tables over canonical Klotski keys.

Both work in key space (see :mod:`solver.klotski.moves`): integers in, integers
out, no labels. :func:`bfs_key_path` finds a proven-shortest chain of keys from
a start to a goal. A :class:`DistanceTable` holds, for every position reachable
from a level's start, its exact distance to the nearest goal: the reachable
set is enumerated forward, then a backward breadth-first search runs from all
its goal positions at once (Klotski moves are reversible, so the graph is
undirected and forward neighbours serve as predecessors).

Tables live in memory in a registry keyed by the level signature, so any
position of a table's component finds it, and on disk in a
:class:`~solver.core.tables.TableStore` fingerprinted by this code and the move rules.
"""
from __future__ import annotations

import hashlib
import threading
from array import array
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..core.results import BUDGET, Monitor, StopSearch
from ..core.search import walk_back
from ..core.tables import TableStore
from .board import Layout
from .moves import goal_bit, layout_geometry

#: the largest reachable set a table is built for (about 100 MB while building)
TABLE_MAX_STATES = 500_000
UNSOLVABLE_DISTANCE = -1
#: past this many candidate moves a node is slow (wide open boards): check budget and
#: cancel on every node, not every 256, so the 100 ms cancel promise holds
BIG_BRANCHING = 64


def bfs_key_path(layout: Layout, start: int, metric: str,
                 mon: Monitor) -> Tuple[Optional[List[int]], int]:
    """(keys from ``start`` to the nearest goal, both included, or None; positions reached).

    Layer by layer, so the first goal seen is at the least depth: proven optimal.
    Raises :class:`~solver.core.results.StopSearch` when the monitor says stop.
    """
    geo = layout_geometry(layout)
    moves_for = geo.expansions(metric)
    goal = goal_bit(layout)
    parents: Dict[int, Optional[int]] = {start: None}
    if start & goal:
        return [start], 1
    layer = [(start, geo.full ^ geo.occupancy(start))]
    depth = 0
    while layer:
        depth += 1
        nxt = []
        for key, empty in layer:
            moves = moves_for(empty)
            mon.count += 1
            if mon.count >= mon.next_check or len(moves) > BIG_BRANCHING:
                mon.check(depth, len(layer) + len(nxt))
            for bit, key_flip, empty_flip in moves:
                if not key & bit:
                    continue
                child = key ^ key_flip
                if child in parents:
                    continue
                parents[child] = key
                if child & goal:
                    return walk_back(child, parents.__getitem__), len(parents)
                nxt.append((child, empty ^ empty_flip))
        layer = nxt
    return None, len(parents)


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

    Stops with :class:`~solver.core.results.StopSearch` on budget or cancel, or with
    a budget stop once the set passes :data:`TABLE_MAX_STATES`.
    """
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
        key, empty = keys[i], empties[i]
        moves = moves_for(empty)
        mon.count += 1
        if mon.count >= mon.next_check or len(moves) > BIG_BRANCHING:
            mon.check(0, len(keys) - i)
            if len(keys) > TABLE_MAX_STATES:
                raise TooBig(f"level has over {TABLE_MAX_STATES} positions; "
                             "too many for a table")
        for bit, key_flip, empty_flip in moves:
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

#: tables built on the fly (not pinned by :func:`table_for` ``pin=True``) kept in memory
MAX_KEPT_TABLES = 32

_registry: Dict[tuple, List[DistanceTable]] = {}
_unpinned: List[DistanceTable] = []           # oldest first, evicted past MAX_KEPT_TABLES
_too_big: set = set()                          # (signature, metric) of levels past the limit
_gave_up: set = set()                          # ... and of on-the-fly builds out of budget
_lock = threading.Lock()


class TooBig(StopSearch):
    """A level's reachable set passed :data:`TABLE_MAX_STATES`; search instead."""

    def __init__(self, message: str):
        super().__init__(BUDGET, message)


def find_table(layout: Layout, key: int, metric: str) -> Optional[DistanceTable]:
    """The in-memory table whose component holds ``key``, if one was built or loaded."""
    for table in _registry.get((layout.signature(), metric), ()):
        if key in table.distance:
            return table
    return None


def remember(table: DistanceTable, pin: bool = True) -> None:
    """Keep ``table`` in memory; unpinned ones are dropped oldest first past the limit."""
    with _lock:
        tables = _registry.setdefault((table.signature, table.metric), [])
        if any(t is table for t in tables):
            return
        tables.append(table)
        if not pin:
            _unpinned.append(table)
            while len(_unpinned) > MAX_KEPT_TABLES:
                old = _unpinned.pop(0)
                _registry[(old.signature, old.metric)].remove(old)


def forget_tables() -> None:
    """Drop every in-memory table (tests use this to measure cold builds)."""
    with _lock:
        _registry.clear()
        _unpinned.clear()
        _too_big.clear()
        _gave_up.clear()


#: level tables on disk, named by the code that generates moves and tables; the
#: registry above is their memory (any position of a component finds its table)
STORE = TableStore("klotski", Path(__file__), Path(__file__).with_name("moves.py"), keep=False)


def table_name(layout: Layout, start: int, metric: str) -> str:
    """A name that identifies geometry, shapes, goal, metric and start position."""
    facts = (layout.signature(), start, metric)
    digest = hashlib.sha1(repr(facts).encode()).hexdigest()[:16]
    return f"{layout.height}x{layout.width}-{metric}-{digest}"


def table_for(layout: Layout, key: int, metric: str, mon: Monitor, disk: str = "save",
              pin: bool = True) -> DistanceTable:
    """The table holding ``key``: from memory, else the disk cache, else built.

    ``disk`` is ``"save"`` (load or build and save: for levels warmed on purpose),
    ``"read"`` (load if saved, else build in memory only: so arbitrary positions
    sent by players never fill the disk) or ``"off"``. Raises StopSearch
    (:class:`TooBig` for levels past :data:`TABLE_MAX_STATES`, and, for
    unpinned builds, levels whose earlier build ran out of budget).
    """
    table = find_table(layout, key, metric)
    if table is not None:
        return table
    level = (layout.signature(), metric)
    if level in _too_big or (not pin and level in _gave_up):
        raise TooBig("level has too many positions for a table")

    def build() -> DistanceTable:
        try:
            return build_table(layout, key, metric, mon)
        except TooBig:
            _too_big.add(level)
            raise
        except StopSearch as stop:
            if stop.status == BUDGET and not pin:
                _gave_up.add(level)       # on the fly: don't spend every budget on it
            raise

    table = STORE.get(table_name(layout, key, metric), build, disk=disk,
                      valid=lambda found: isinstance(found, DistanceTable)
                      and key in found.distance)     # not a stale or foreign file
    remember(table, pin)
    return table
