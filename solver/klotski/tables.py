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
:class:`~solver.core.tables.TableStore` fingerprinted by this code and the move
rules, named by their *group key* (the reachable set's smallest key), so any
position of a saved group finds it in any later process too.
"""

from __future__ import annotations

import hashlib
import threading
from array import array
from pathlib import Path

from ..core.results import BUDGET, Monitor, StopSearch
from ..core.search import walk_back
from ..core.tables import TableStore
from .bitboard import TooManyPositions, packs, pays
from .board import Layout
from .moves import goal_bit, layout_geometry
from .packed import build_packed, solve_packed

#: the largest reachable set a table is built for (about 100 MB while building)
TABLE_MAX_STATES = 500_000
UNSOLVABLE_DISTANCE = -1
#: past this many candidate moves a node is slow (wide open boards): check budget and
#: cancel on every node, not every 256, so the 100 ms cancel promise holds
BIG_BRANCHING = 64


def bfs_key_path(
    layout: Layout, start: int, metric: str, mon: Monitor
) -> tuple[list[int] | None, int]:
    """(keys from ``start`` to the nearest goal, both included, or None; positions reached).

    Layer by layer, so the first goal seen is at the least depth: proven optimal.
    Raises :class:`~solver.core.results.StopSearch` when the monitor says stop.
    """
    if pays(layout):
        return solve_packed(layout, start, metric, mon)
    geo = layout_geometry(layout)
    moves_for = geo.expansions(metric)
    goal = goal_bit(layout)
    parents: dict[int, int | None] = {start: None}
    if start & goal:
        return [start], 1
    layer = [(start, geo.full ^ geo.occupancy(start))]
    depth = 0
    while layer:
        depth += 1
        nxt: list[tuple[int, int]] = []
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

    def __init__(
        self, signature: tuple, metric: str, distance: dict[int, int], seconds: float = 0.0
    ):
        self.signature = signature
        self.metric = metric
        self.distance = distance
        self.seconds = seconds
        solvable = getattr(distance, "solvable", None)  # a packed table knows at once
        self.solvable = any(d >= 0 for d in distance.values()) if solvable is None else solvable

    def __len__(self) -> int:
        return len(self.distance)


def build_table(
    layout: Layout,
    start: int,
    metric: str,
    mon: Monitor,
    limit: int | None = TABLE_MAX_STATES,
    packed: bool | None = None,
) -> DistanceTable:
    """Enumerate ``start``'s reachable set, then measure every position's distance.

    Stops with :class:`~solver.core.results.StopSearch` on budget or cancel, or with
    a budget stop once the set passes ``limit`` positions (None: no limit, for
    offline work such as the hardest-start search). ``packed``: search compiled and
    keep the table as flat arrays (:mod:`solver.klotski.packed`); by default where
    that pays (:func:`~solver.klotski.bitboard.pays`). The level tables a process
    keeps are packed whenever the key fits (:func:`table_for`), to be shared.
    """
    if pays(layout) if packed is None else packed:
        try:
            distance = build_packed(layout, start, metric, mon, limit)
        except TooManyPositions:
            raise TooBig(f"level has over {limit} positions; too many for a table") from None
        return DistanceTable(layout.signature(), metric, distance, mon.elapsed)
    geo = layout_geometry(layout)
    moves_for = geo.expansions(metric)
    goal = goal_bit(layout)
    index = {start: 0}
    keys = [start]
    empties = [geo.full ^ geo.occupancy(start)]
    links = array("i")  # neighbour indices of node i at links[starts[i]:starts[i+1]]
    starts = array("i", [0])
    i = 0
    while i < len(keys):
        key, empty = keys[i], empties[i]
        moves = moves_for(empty)
        mon.count += 1
        if mon.count >= mon.next_check or len(moves) > BIG_BRANCHING:
            mon.check(0, len(keys) - i)
            if limit is not None and len(keys) > limit:
                raise TooBig(f"level has over {limit} positions; too many for a table")
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
            for t in links[starts[j] : starts[j + 1]]:
                if dist[t] < 0:
                    dist[t] = depth
                    nxt.append(t)
        layer = nxt
    distance = dict(zip(keys, dist, strict=True))
    return DistanceTable(layout.signature(), metric, distance, mon.elapsed)


# -- registry: memory first, then disk ---------------------------------------------

#: tables built on the fly (not pinned by :func:`table_for` ``pin=True``) kept in memory
MAX_KEPT_TABLES = 32

_registry: dict[tuple, list[DistanceTable]] = {}
_unpinned: list[DistanceTable] = []  # oldest first, evicted past MAX_KEPT_TABLES
_too_big: set = set()  # (signature, metric) of levels past the limit
_gave_up: set = set()  # ... and of on-the-fly builds out of budget
_lock = threading.Lock()


class TooBig(StopSearch):
    """A level's reachable set passed :data:`TABLE_MAX_STATES`; search instead."""

    def __init__(self, message: str):
        super().__init__(BUDGET, message)


def find_table(layout: Layout, key: int, metric: str) -> DistanceTable | None:
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
            if pin and any(t is table for t in _unpinned):
                _unpinned.remove(table)  # asked for on purpose now: keep it
            return
        tables.append(table)
        if not pin:
            _unpinned.append(table)
            while len(_unpinned) > MAX_KEPT_TABLES:
                old = _unpinned.pop(0)
                _registry[(old.signature, old.metric)].remove(old)
                _looked_at.discard(saved_name(old))  # read it again if asked


def forget_tables() -> None:
    """Drop every in-memory table (tests use this to measure cold builds)."""
    with _lock:
        _registry.clear()
        _unpinned.clear()
        _too_big.clear()
        _gave_up.clear()
        _looked_at.clear()


#: level tables on disk, named by the code that generates moves and tables and by
#: their group; the registry above is their memory (any position of a group finds it)
STORE = TableStore(
    "klotski",
    *(Path(__file__).with_name(f) for f in ("tables.py", "moves.py", "bitboard.py", "kernels.py")),
    Path(__file__).with_name("packed.py"),
    keep=False,
)

_level_locks: dict[tuple, threading.Lock] = {}
_looked_at: set = set()  # table files this process already loaded (or found bad)


def group_key(table: DistanceTable) -> int:
    """The canonical name of a table's group: its smallest key.

    Every position of a reachable set has the same reachable set, so any of
    them yields the same smallest member; two different sets share no member.
    """
    smallest = getattr(table.distance, "smallest", None)  # a packed table finds it compiled
    return min(table.distance) if smallest is None else smallest()


def reachable_group(layout: Layout, key: int, mon: Monitor | None = None) -> int:
    """The group key of ``key``'s reachable set (enumerated; the same in every metric)."""
    return min(component_keys(layout, key, mon or Monitor()))


def component_keys(layout: Layout, start: int, mon: Monitor, seen: set | None = None) -> list:
    """Every key reachable from ``start`` (each added to ``seen`` when given).

    One-cell steps suffice: every metric's moves are chains of them.
    """
    geo = layout_geometry(layout)
    moves_for = geo.expansions("step")
    seen = set() if seen is None else seen
    seen.add(start)
    members = [start]
    todo = [(start, geo.full ^ geo.occupancy(start))]
    while todo:
        node, empty = todo.pop()
        mon.count += 1
        if mon.count >= mon.next_check:
            mon.check(0, len(todo))
        for bit, key_flip, empty_flip in moves_for(empty):
            if node & bit:
                child = node ^ key_flip
                if child not in seen:
                    seen.add(child)
                    members.append(child)
                    todo.append((child, empty ^ empty_flip))
    return members


def level_prefix(signature: tuple, metric: str) -> str:
    """What every table name of one level (geometry, shapes, goal) and metric starts with."""
    digest = hashlib.sha1(repr(signature).encode()).hexdigest()[:12]
    return f"{signature[0]}x{signature[1]}-{metric}-{digest}-"


def table_name(signature: tuple, group: int, metric: str) -> str:
    """A table's name: its level (a layout's signature) and metric, then its group's digest."""
    return level_prefix(signature, metric) + hashlib.sha1(str(group).encode()).hexdigest()[:16]


def saved_name(table: DistanceTable) -> str:
    return table_name(table.signature, group_key(table), table.metric)


def saved_table(layout: Layout, key: int, metric: str) -> DistanceTable | None:
    """The table on disk whose group holds ``key``, if some process saved it.

    Looks through the level's saved groups (few for a level; each is read once
    per process and kept in memory, so a miss costs nothing the second time).
    """
    signature = layout.signature()
    for name in STORE.saved(level_prefix(signature, metric)):
        if name in _looked_at:
            continue
        _looked_at.add(name)
        found = STORE.load(name)
        if not (
            isinstance(found, DistanceTable)
            and found.signature == signature
            and found.metric == metric
            and found.distance
            and name == saved_name(found)
        ):
            continue  # a foreign or damaged file: never trusted
        remember(found, pin=False)
        if key in found.distance:
            return found
    return None


def table_for(
    layout: Layout, key: int, metric: str, mon: Monitor, disk: str = "save", pin: bool = True
) -> DistanceTable:
    """The table holding ``key``: from memory, else the disk cache, else built.

    ``disk`` is ``"save"`` (load or build and save: for levels warmed on purpose),
    ``"read"`` (load if saved, else build in memory only: so arbitrary positions
    sent by players never fill the disk) or ``"off"``. Tables are saved under
    their group key, so any position of a saved group loads it, in any process.
    Raises StopSearch (:class:`TooBig` for levels past :data:`TABLE_MAX_STATES`,
    and, for unpinned builds, levels whose earlier build ran out of budget).
    """
    if disk not in ("save", "read", "off"):
        raise ValueError(f"disk must be save, read or off, not {disk!r}")
    table = find_table(layout, key, metric)
    if table is not None:
        return table
    level = (layout.signature(), metric)
    with _lock:
        lock = _level_locks.setdefault(level, threading.Lock())
    with lock:  # threads asking for one level build it once
        table = find_table(layout, key, metric)
        if table is None and disk != "off":
            mon.check()  # a cancelled caller gets no answer, even a saved one
            table = saved_table(layout, key, metric)
        if table is not None:
            if pin:
                remember(table, pin=True)
            return table
        if level in _too_big or (not pin and level in _gave_up):
            raise TooBig("level has too many positions for a table")
        try:
            table = build_table(layout, key, metric, mon, TABLE_MAX_STATES, packs(layout))
        except TooBig:
            _too_big.add(level)
            raise
        except StopSearch as stop:
            if stop.status == BUDGET and not pin:
                _gave_up.add(level)  # on the fly: don't spend every budget on it
            raise
        if disk == "save":
            name = saved_name(table)
            STORE.save(name, table)
            _looked_at.add(name)
        remember(table, pin)
        return table
