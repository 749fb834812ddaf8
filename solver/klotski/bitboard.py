"""Klotski on packed 128-bit keys: which boards the compiled search takes, and its Python side.

:class:`Packing` lays one layout out for :mod:`solver.klotski.kernels` (cover
masks, one-cell steps per direction, the goal) and converts between the
library's canonical keys (arbitrary-size integers, :mod:`solver.klotski.moves`)
and packed keys. :class:`GroupSearch` drives the compiled breadth-first search
in slices, growing its arrays and checking the monitor between slices.

Importing this module imports neither numpy nor numba; they load on the
first compiled search (about half a second, so :func:`pays` keeps searches
on boards no larger than the classic 4x5, which the pure-Python search
finishes sooner, on the pure-Python path; distance tables are built compiled
whenever the key fits, :func:`packs`, and saved packed, so every process maps
one copy).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from ..core.jit import load_cached
from ..core.results import Monitor
from .board import Layout
from .moves import DIRECTIONS

#: searches on boards of at least this many cells go compiled (the classic 4x5 stays in
#: Python: its groups are exhausted in about 0.1 s, less than loading the compiled code)
COMPILED_MIN_CELLS = 21
#: work per compiled slice (positions expanded + children looked up: a few milliseconds,
#: so the 100 ms cancel promise holds however many moves a position has)
SLICE = 1 << 17
FIRST_SLICE = 1 << 11
WORD = 1 << 64
#: the hash multipliers of the visited set (0x9E3779B97F4A7C15 and 0xBF58476D1CE4E5B9 as
#: signed 64-bit integers); lookups from Python hash the same way
MUL1 = -7046029254386353131
MUL2 = -4658895280553007687
#: the least address-space limit under which the compiled search is tried
MIN_ADDRESS_SPACE = 1 << 30
#: the most code planes the compiled decoder reads (15 piece shapes)
MAX_PLANES = 4


def compiled():
    """The compiled kernels, imported on first use (they load numba)."""
    return importlib.import_module(".kernels", __package__)


_loadable: list[bool] = []  # [whether the kernels load in this process], once asked


def loadable() -> bool:
    """Whether the compiled kernels load here. Under a tight address-space cap (a solver
    worker's memory limit) numba and LLVM, about 330 MB of address space before any
    array, would fail or leave too little: the process keeps the pure-Python search,
    whose growth then meets the cap as a clean MemoryError."""
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
    """This process's address-space limit in bytes (infinite when none is set)."""
    try:
        import resource
    except ImportError:  # not a Unix: no such limit
        return float("inf")
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return float("inf") if soft == resource.RLIM_INFINITY else float(soft)


LOW64 = WORD - 1


def slot_of(lo: int, hi: int, mask: int) -> int:
    """The visited set's first slot for packed key (lo, hi), hashed as the kernels hash
    (on signed 64-bit words: only the product's low 64 bits matter)."""
    return (((lo ^ hi * MUL2) * MUL1 & LOW64) >> 24) & mask


def _signed(value: int) -> int:
    return value - WORD if value >= WORD >> 1 else value


class Packing:
    """One layout (and metric) laid out for the compiled search; key conversions."""

    def __init__(self, layout: Layout, metric: str):
        n = self.cells = layout.cells
        classes = layout.classes
        self.layout, self.metric = layout, metric
        self.planes = len(classes).bit_length()  # codes 0 (empty) .. len(classes)
        self.fits = key_fits(layout)
        if not self.fits:
            return  # the pure-Python search takes this layout: nothing to lay out
        import numpy as np

        cover = [0] * (len(classes) * n)
        flip = [0] * (2 * len(classes) * n)
        step_to = [-1] * (len(classes) * n * 4)
        width, height = layout.width, layout.height
        for k, (h, w) in enumerate(classes):
            for r in range(height - h + 1):
                for c in range(width - w + 1):
                    g = k * n + r * width + c
                    cover[g] = sum(((1 << w) - 1) << ((r + i) * width + c) for i in range(h))
                    code = self._code_bits(k + 1, g % n)
                    flip[2 * g], flip[2 * g + 1] = _signed(code % WORD), _signed(code >> 64)
                    for d, (_name, dr, dc) in enumerate(DIRECTIONS):
                        r2, c2 = r + dr, c + dc
                        if 0 <= r2 <= height - h and 0 <= c2 <= width - w:
                            step_to[g * 4 + d] = k * n + r2 * width + c2
        self.cover_ints = cover
        #: the 128-bit key bits of each (class, top-left) spot g (what :meth:`pack` ORs)
        self.code_of = [self._code_bits(g // n + 1, g % n) for g in range(len(cover))]
        self.cover = np.array([_signed(c) for c in cover], np.int64)
        self.flip = np.array(flip, np.int64)
        self.step_to = np.array(step_to, np.int64)
        need = self._code_bits((1 << self.planes) - 1, layout.goal_top)
        want = self._code_bits(layout.goal_class + 1, layout.goal_top)
        self.geo = np.array(
            [
                n,
                self.planes,
                len(classes),
                {"step": 0, "straight": 1, "piece": 2}[metric],
                _signed(need % WORD),
                _signed(need >> 64),
                _signed(want % WORD),
                _signed(want >> 64),
            ],
            np.int64,
        )

    def _code_bits(self, code: int, cell: int) -> int:
        """The 128-bit key bits of ``code`` written on ``cell`` (bit j in plane j)."""
        return sum(1 << (j * self.cells + cell) for j in range(self.planes) if code >> j & 1)

    def is_goal(self, lo: int, hi: int) -> bool:
        """The kernels' goal test on a packed key, in Python (no kernel to load for it)."""
        need_lo, need_hi, want_lo, want_hi = (int(v) for v in self.geo[4:8])
        return (lo & need_lo) == want_lo and (hi & need_hi) == want_hi

    # -- keys ---------------------------------------------------------------------
    def pack(self, key: int) -> tuple[int, int]:
        """The packed key (two signed 64-bit words) of canonical ``key``.

        Raises ValueError when ``key`` puts two top-left cells on one cell (no position).
        """
        code_of, n, value, used = self.code_of, self.cells, 0, 0
        while key:
            low = key & -key
            g = low.bit_length() - 1
            key ^= low
            bit = 1 << (g % n)
            if used & bit:
                raise ValueError("two pieces on one top-left cell")
            used |= bit
            value |= code_of[g]
        lo, hi = value & (WORD - 1), value >> 64
        return (lo - WORD if lo >> 63 else lo), (hi - WORD if hi >> 63 else hi)

    def unpack(self, lo: int, hi: int) -> int:
        """The canonical key of a packed one."""
        n = self.cells
        value = lo % WORD | (hi % WORD) << 64
        planes = [value >> (j * n) & ((1 << n) - 1) for j in range(self.planes)]
        key = 0
        for p in range(n):
            code = sum((plane >> p & 1) << j for j, plane in enumerate(planes))
            if code:
                key |= 1 << ((code - 1) * n + p)
        return key


def key_fits(layout: Layout) -> bool:
    """Whether ``layout``'s positions pack into 128 bits of planes (and its cells into 64)."""
    planes = len(layout.classes).bit_length()
    return layout.cells <= 64 and planes <= MAX_PLANES and planes * layout.cells <= 128


@lru_cache(maxsize=64)
def packing(layout: Layout, metric: str) -> Packing:
    return Packing(layout, metric)


def pays(layout: Layout) -> bool:
    """Whether a search of ``layout`` goes compiled: bigger than 4x5, and its key fits."""
    return layout.cells >= COMPILED_MIN_CELLS and key_fits(layout) and loadable()


def packs(layout: Layout) -> bool:
    """Whether ``layout``'s distance tables are built compiled and kept packed: whenever
    its key fits. Tables are saved, then mapped by every process that reads them (no
    numba needed to read), so the process that builds a table pays numba's load once."""
    return key_fits(layout) and loadable()


class GroupSearch:
    """A breadth-first search over packed keys from one start, run in compiled slices.

    After :meth:`run`, positions ``0 .. count-1`` are every position reached
    (the start first, in breadth-first order; ``keys[2i], keys[2i+1]`` the key
    of position i), ``parent`` where each was reached from, and ``goal_at``
    the first goal reached (with ``stop_at_goal``) or -1.
    """

    def __init__(self, pack: Packing, start: int, stop_at_goal: bool, capacity: int = 1 << 14):
        import numpy as np

        self.np = np
        self.k = k = compiled()
        self.pack = pack
        self.keys = np.zeros(2 * capacity, np.int64)
        self.parent = np.full(capacity, -1, np.int32)
        self.table = np.zeros(4 * capacity, np.int64)  # 2 words a slot, 2 slots a position
        lo, hi = pack.pack(start)
        self.keys[0], self.keys[1] = lo, hi
        # the start into the empty set, in Python: a search loads one kernel, bfs_run
        slot = slot_of(lo, hi, self.table.size // 2 - 1)
        self.table[2 * slot], self.table[2 * slot + 1] = lo, hi
        self.ctx = np.zeros(k.CTX_SIZE, np.int64)
        self.ctx[k.COUNT] = 1
        self.ctx[k.STOP_AT_GOAL] = int(stop_at_goal)
        self.goal_at = -1
        self.start_is_goal = pack.is_goal(lo, hi)

    @property
    def count(self) -> int:
        return int(self.ctx[self.k.COUNT])

    def run(self, mon: Monitor, limit: int | None = None) -> None:
        """Search until exhausted or (with ``stop_at_goal``) a goal; StopSearch from ``mon``.

        ``limit``: raise :class:`TooManyPositions` once more positions than that are stored.
        """
        k, pack, ctx = self.k, self.pack, self.ctx
        if self.start_is_goal and ctx[k.STOP_AT_GOAL]:
            self.goal_at = 0
            return
        args = [ctx, pack.geo, pack.cover, pack.flip, pack.step_to]
        load_cached(k.bfs_run, *args, self.keys, self.parent, self.table, SLICE)
        while True:
            before = int(ctx[k.HEAD])
            # a short first slice: the monitor (progress, cancel, a budget's escalation)
            # hears right after the compiled code has loaded
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
        size = 2 * self.parent.size
        del self.table  # rebuilt from the keys below: never two tables at once
        keys = np.zeros(2 * size, np.int64)
        keys[: 2 * count] = self.keys[: 2 * count]
        parent = np.full(size, -1, np.int32)
        parent[:count] = self.parent[:count]
        self.keys, self.parent = keys, parent
        self.table = np.zeros(4 * size, np.int64)
        load_cached(self.k.fill, self.keys, count, self.table)
        self.k.fill(self.keys, count, self.table)

    def key(self, index: int) -> int:
        """The canonical key of position ``index``."""
        return self.pack.unpack(int(self.keys[2 * index]), int(self.keys[2 * index + 1]))

    def path(self, index: int) -> list[int]:
        """Canonical keys from the start to position ``index``, both included."""
        chain = []
        while index >= 0:
            chain.append(self.key(index))
            index = int(self.parent[index])
        return chain[::-1]

    def distances(self, mon: Monitor, metric: Packing | None = None):
        """Every position's distance to the nearest goal (-1: none) in ``metric``'s metric
        (default the search's), after an exhausting :meth:`run`: a compiled breadth-first
        search from all goals at once. ``dist[slot]`` belongs to the key in ``table``'s slot.
        """
        np, k = self.np, self.k
        pack = metric or self.pack
        count = self.count
        dist = np.full(self.table.size // 2, -1, np.int16)
        queue = np.zeros(count, np.int64)
        ctx = np.zeros(2, np.int64)
        args = (pack.geo, pack.cover, pack.flip, pack.step_to, self.keys, count, self.table)
        load_cached(k.goal_distances, *args, dist, queue, SLICE, ctx)
        while True:
            before = int(ctx[0])
            status = k.goal_distances(*args, dist, queue, SLICE, ctx)
            mon.count += int(ctx[0]) - before
            if status == k.DONE:
                return dist
            mon.check(0, int(ctx[1] - ctx[0]))


class TooManyPositions(Exception):
    """A group passed the caller's limit (``count`` positions stored so far)."""

    def __init__(self, count: int):
        super().__init__(f"over {count} positions")
        self.count = count
