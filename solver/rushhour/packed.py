"""The compiled cluster search's Python side: a layout laid out as arrays, the search run
in slices, and its distance table read as a mapping.

:class:`ClusterSearch` drives :func:`solver.rushhour.kernels.bfs_run` in slices,
growing its arrays and checking the monitor between slices; :meth:`ClusterSearch.distances`
measures every position of an exhausted cluster from all its goals at once.
:class:`PackedDistances` reads the search's own open-addressing array and the
distances beside it through the same mapping interface as a dict of packed keys,
hashing in Python the way the kernels hash, so reading a table loads no numba.

Importing this module imports neither numpy nor numba; they load with the first
compiled search.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from ..core.jit import load_cached
from ..core.results import Monitor
from .board import Layout
from .moves import geometry

#: work per compiled slice (positions expanded + children looked up: a few milliseconds,
#: so the 100 ms cancel promise holds)
SLICE = 1 << 17
FIRST_SLICE = 1 << 11
WORD = 1 << 64
LOW64 = WORD - 1
#: the kernels' hash multiplier and empty slot (kept here too: no numba to read them)
MUL = -7046029254386353131
EMPTY = -1
#: the least address-space limit under which the compiled search is tried
MIN_ADDRESS_SPACE = 1 << 30


def compiled():
    """The compiled kernels, imported on first use (they load numba)."""
    return importlib.import_module(".kernels", __package__)


_loadable: list[bool] = []


def loadable() -> bool:
    """Whether the compiled kernels load here (not under a tight address-space cap, where
    numba and LLVM would leave too little: the pure-Python search serves then)."""
    if not _loadable:
        ok = _address_space() >= MIN_ADDRESS_SPACE
        if ok:
            try:
                compiled()
            except (ImportError, OSError, MemoryError):
                ok = False
        _loadable.append(ok)
    return _loadable[0]


def _address_space() -> float:
    try:
        import resource
    except ImportError:  # not a Unix: no such limit
        return float("inf")
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return float("inf") if soft == resource.RLIM_INFINITY else float(soft)


def slot_of(key: int, mask: int) -> int:
    """The visited set's first slot for ``key``, hashed as the kernels hash (on signed
    64-bit words: only the product's low 64 bits matter)."""
    return (((key * MUL) & LOW64) >> 24) & mask


def arrays(layout: Layout):
    """(geo, cover, tops): ``layout`` as the kernels read it."""
    import numpy as np

    geo_py = geometry(layout)
    k = compiled()
    cover = np.zeros(len(layout) * k.STRIDE, np.int64)
    for i, masks in enumerate(geo_py.cover):
        cover[i * k.STRIDE : i * k.STRIDE + len(masks)] = masks
    tops = np.array([len(masks) - 1 for masks in geo_py.cover], np.int64)
    geo = np.array([len(layout), geo_py.walls, geo_py.goal], np.int64)
    return geo, cover, tops


class ClusterSearch:
    """A breadth-first search over packed keys from one start, run in compiled slices.

    After :meth:`run`, positions ``0 .. count-1`` are every position reached (the
    start first, in breadth-first order), ``parent`` where each was reached from,
    and ``goal_at`` the first goal reached (with ``stop_at_goal``) or -1.
    """

    def __init__(self, layout: Layout, start: int, stop_at_goal: bool, capacity: int = 1 << 12):
        import numpy as np

        self.np = np
        self.k = k = compiled()
        self.geo, self.cover, self.tops = arrays(layout)
        self.keys = np.zeros(capacity, np.int64)
        self.parent = np.full(capacity, -1, np.int32)
        self.table = np.full(2 * capacity, EMPTY, np.int64)
        self.keys[0] = start
        self.table[slot_of(start, self.table.size - 1)] = start
        self.ctx = np.zeros(k.CTX_SIZE, np.int64)
        self.ctx[k.COUNT] = 1
        self.ctx[k.STOP_AT_GOAL] = int(stop_at_goal)
        self.goal_at = -1
        self.start_is_goal = start & 7 == int(self.geo[k.G_GOAL])

    @property
    def count(self) -> int:
        return int(self.ctx[self.k.COUNT])

    def run(self, mon: Monitor, limit: int | None = None) -> None:
        """Search until exhausted or (with ``stop_at_goal``) a goal; StopSearch from ``mon``.

        ``limit``: raise :class:`TooManyPositions` once more positions than that are stored.
        """
        k, ctx = self.k, self.ctx
        if self.start_is_goal and ctx[k.STOP_AT_GOAL]:
            self.goal_at = 0
            return
        args = (ctx, self.geo, self.cover, self.tops)
        load_cached(k.bfs_run, *args, self.keys, self.parent, self.table, SLICE)
        while True:
            before = int(ctx[k.HEAD])
            work = SLICE if before else FIRST_SLICE
            status = k.bfs_run(*args, self.keys, self.parent, self.table, work)
            mon.count += int(ctx[k.HEAD]) - before
            if status == k.FOUND:
                self.goal_at = int(ctx[k.GOAL_AT])
                return
            if status == k.DONE:
                return
            if status == k.FULL:
                self._grow()
            mon.check(int(ctx[k.DEPTH]), self.count - int(ctx[k.HEAD]))
            if limit is not None and self.count > limit:
                raise TooManyPositions(self.count)

    def _grow(self) -> None:
        np, count = self.np, self.count
        size = 2 * self.keys.size
        del self.table  # rebuilt from the keys below: never two tables at once
        keys = np.zeros(size, np.int64)
        keys[:count] = self.keys[:count]
        parent = np.full(size, -1, np.int32)
        parent[:count] = self.parent[:count]
        self.keys, self.parent = keys, parent
        self.table = np.full(2 * size, EMPTY, np.int64)
        load_cached(self.k.fill, self.keys, count, self.table)
        self.k.fill(self.keys, count, self.table)

    def path(self, index: int) -> list[int]:
        """Packed keys from the start to position ``index``, both included."""
        chain = []
        while index >= 0:
            chain.append(int(self.keys[index]))
            index = int(self.parent[index])
        return chain[::-1]

    def distances(self, mon: Monitor):
        """Every position's distance to the nearest goal (-1: none), by slot of ``table``,
        after an exhausting :meth:`run`: compiled breadth-first search from all goals."""
        np, k = self.np, self.k
        count = self.count
        dist = np.full(self.table.size, -1, np.int16)
        queue = np.zeros(count, np.int64)
        ctx = np.zeros(2, np.int64)
        args = (self.geo, self.cover, self.tops, self.keys, count, self.table)
        load_cached(k.goal_distances, *args, dist, queue, SLICE, ctx)
        while True:
            before = int(ctx[0])
            status = k.goal_distances(*args, dist, queue, SLICE, ctx)
            mon.count += int(ctx[0]) - before
            if status == k.DONE:
                return dist
            mon.check(0, int(ctx[1] - ctx[0]))


class TooManyPositions(Exception):
    """A cluster passed the caller's limit (``count`` positions stored so far)."""

    def __init__(self, count: int):
        super().__init__(f"over {count} positions")
        self.count = count


class PackedDistances(Mapping):
    """Packed key -> distance (-1: unsolvable) over a compiled search's table.

    ``table`` is the open-addressing array of keys (-1 empty) and ``dist[slot]`` the
    distance of the key in that slot. Lookups hash in Python, the same hash as
    :mod:`solver.rushhour.kernels`.
    """

    def __init__(self, table, dist, count: int):
        self.table = table
        self.dist = dist
        self._count = count
        self._mask = table.size - 1
        # Python-int views for lookups (a numpy scalar per read costs several times more)
        self._keys = memoryview(table).cast("B").cast("q")
        self._dists = memoryview(dist).cast("B").cast(dist.dtype.char)
        self._slots: Any = None

    @property
    def slots(self):
        if self._slots is None:
            import numpy as np

            self._slots = np.flatnonzero(self.table != EMPTY)
        return self._slots

    def _slot(self, key) -> int:
        if not isinstance(key, int) or key < 0 or key >= WORD >> 1:
            return -1
        keys, mask = self._keys, self._mask
        h = slot_of(key, mask)
        while True:
            there = keys[h]
            if there == key:
                return h
            if there == EMPTY:
                return -1
            h = (h + 1) & mask

    def __getitem__(self, key) -> int:
        slot = self._slot(key)
        if slot < 0:
            raise KeyError(key)
        return self._dists[slot]

    def __contains__(self, key) -> bool:
        return self._slot(key) >= 0

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        for slot in self.slots:
            yield int(self.table[slot])

    def values(self):  # a numpy array, not a view: max() and counts stay fast
        return self.dist[self.slots]

    @property
    def solvable(self) -> bool:
        return bool(self._count) and int(self.values().max()) >= 0

    def smallest(self, distance: int) -> int:
        """The least key among the positions ``distance`` moves from solved."""
        slots = self.slots[self.values() == distance]
        if not slots.size:
            raise ValueError(f"no position at distance {distance}")
        return int(self.table[slots].min())

    def count(self, distance: int) -> int:
        return int((self.values() == distance).sum())


def build_packed(layout: Layout, start: int, mon: Monitor, limit: int | None = None):
    """PackedDistances of ``start``'s cluster; raises TooManyPositions past ``limit``
    positions and StopSearch from ``mon``."""
    search = ClusterSearch(layout, start, stop_at_goal=False)
    search.run(mon, limit)
    if limit is not None and search.count > limit:
        raise TooManyPositions(search.count)
    dist = search.distances(mon)
    return PackedDistances(search.table, dist, search.count)


def solve_packed(layout: Layout, start: int, mon: Monitor):
    """(packed keys from ``start`` to the nearest goal, or None; positions reached):
    breadth-first, compiled, proven shortest."""
    search = ClusterSearch(layout, start, stop_at_goal=True)
    search.run(mon)
    if search.goal_at < 0:
        return None, search.count
    return search.path(search.goal_at), search.count
