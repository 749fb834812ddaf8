"""IDA* over additive pattern databases with the mirror lookup, any board size, compiled.

:class:`PatternSearch` holds one board size's databases as flat numpy arrays
and drives :func:`solver.npuzzle.kernels.ida_run` in slices of
:data:`SLICE` nodes, checking the :class:`~solver.core.results.Monitor`
(budget, cancel, progress) between slices: the compiled loop never calls back
into Python.

Heuristic (Korf and Felner 2002): the tiles are split into disjoint groups;
each group's database holds the fewest moves *of that group's tiles* that
bring them home, so the entries add up to an admissible bound. The same
databases are read a second time on the board mirrored in its main diagonal
(which maps the goal to itself), and the larger sum is used.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence

import numpy as np

from ..core.results import Monitor
from .pdb_build import compiled
from .rules import mirror_cells, mirror_tiles

#: nodes per compiled slice: a few milliseconds, far inside the 100 ms cancel promise
SLICE = 1 << 17
#: the deepest path a search may hold (weighted searches on big boards go deep)
MAX_DEPTH = 1000


class PatternSearch:
    """The databases of one board size, laid out for the compiled search."""

    def __init__(self, n: int, groups: Sequence[Sequence[int]], tables: Sequence[bytes]):
        flat = getattr(tables, "flat", None)  # laid end to end already: read it in place
        if flat is None:
            flat = np.concatenate([np.frombuffer(t, np.uint8) for t in tables])
        self.lay_out(n, groups, flat, [len(t) for t in tables])
        cells = n * n
        self.mul = np.zeros(cells, np.int64)
        for tiles in self.groups:
            for i, t in enumerate(tiles):
                self.mul[t] = cells**i
        mtile = mirror_tiles(n)
        self.mmul = np.array([self.mul[mtile[t]] for t in range(cells)], np.int64)
        self.kernel = self.k.ida_run

    def lay_out(self, n: int, groups: Sequence[Sequence[int]], flat: np.ndarray, sizes) -> None:
        """What every layout of databases shares: the tables end to end (``flat``) and
        each one's offset, each tile's group and its mirror image's, the mirror's cells."""
        self.k = compiled()  # numba: only boards of 4x4 and up get here
        self.n = n
        cells = n * n
        self.groups = [tuple(g) for g in groups]
        self.tabs = flat
        self.offs = np.array([sum(sizes[:i]) for i in range(len(sizes))], np.int64)
        self.grp = np.zeros(cells, np.int64)
        for g, tiles in enumerate(self.groups):
            for t in tiles:
                self.grp[t] = g
        mtile = mirror_tiles(n)
        self.mgrp = np.array([self.grp[mtile[t]] for t in range(cells)], np.int64)
        self.mcell = np.array(mirror_cells(n), np.int64)
        self.nb = self.k.neighbour_table(n)

    # -- the heuristic -----------------------------------------------------------
    def indices(self, board: Sequence[int]) -> np.ndarray:
        """The group indices of ``board`` and then of its mirror image."""
        groups = len(self.groups)
        idx = np.zeros(2 * groups, np.int64)
        for cell, t in enumerate(board):
            if t:
                idx[self.grp[t]] += cell * self.mul[t]
                idx[groups + self.mgrp[t]] += self.mcell[cell] * self.mmul[t]
        return idx

    def sums(self, idx: np.ndarray) -> tuple[int, int]:
        """The direct and the mirrored additive sums."""
        groups = len(self.groups)
        direct = sum(int(self.tabs[self.offs[g] + idx[g]]) for g in range(groups))
        mirror = sum(int(self.tabs[self.offs[g] + idx[groups + g]]) for g in range(groups))
        return direct, mirror

    def lower_bound(self, board: Sequence[int]) -> int:
        return max(self.sums(self.indices(board)))

    def begin(self, start: Sequence[int]) -> tuple[int, int, tuple]:
        """The direct and mirrored bounds of ``start`` and the arrays :attr:`kernel` takes
        before its stack (a subclass over other tables lays out its own)."""
        idx = self.indices(start)
        hd, hm = self.sums(idx)
        arrays = (
            np.array(start, np.int64),
            idx,
            self.tabs,
            self.offs,
            self.grp,
            self.mul,
            self.mgrp,
            self.mmul,
            self.mcell,
            self.nb,
        )
        return hd, hm, arrays

    # -- the search ----------------------------------------------------------------
    def search(
        self,
        start: Sequence[int],
        mon: Monitor,
        weight: tuple[int, int] = (1, 1),
        upper: int | None = None,
        found: Callable[[list[int]], None] | None = None,
        iteration_done: Callable[[int], None] | None = None,
        stop_at: float | None = None,
        one_iteration: bool = False,
    ) -> list[int] | None:
        """IDA* on f = q*g + p*h (``weight`` = (p, q)), pruning every path that cannot
        end below ``upper`` moves.

        Returns the cells whose tiles slide, or None when no solution shorter
        than ``upper`` exists (proven: only the upper cut pruned). With
        ``found`` the search is *anytime*: every solution is handed to
        ``found``, ``upper`` drops to its length and the same iteration goes on
        looking for a shorter one; the last (shortest) is returned.
        ``iteration_done`` hears the next bound after every iteration that ran
        to its end (on plain IDA*: every solution is at least that long, or at
        least ``upper``). At ``stop_at`` (a ``time.monotonic()``) the search
        returns quietly what it has (the caller's next phase takes over);
        ``one_iteration`` returns once the iteration that found a solution has
        ended (an anytime caller moves on to a smaller weight). StopSearch from
        ``mon`` propagates.
        """
        steps = self.steps(start, mon, weight, upper, found, iteration_done, stop_at, one_iteration)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def steps(
        self,
        start: Sequence[int],
        mon: Monitor,
        weight: tuple[int, int] = (1, 1),
        upper: int | None = None,
        found: Callable[[list[int]], None] | None = None,
        iteration_done: Callable[[int], None] | None = None,
        stop_at: float | None = None,
        one_iteration: bool = False,
        upper_now: Callable[[], int] | None = None,
    ) -> Generator[None, None, list[int] | None]:
        """:meth:`search` a slice at a time: yields after every slice of :data:`SLICE`
        nodes that ended neither a solution nor an iteration, and returns what
        :meth:`search` returns. Before each slice the upper cut drops to
        ``upper_now()`` when that is lower (a caller running several searches in
        turn shares their best length), which only prunes paths that cannot end
        below it."""
        k = self.k
        hd, hm, arrays = self.begin(start)
        if max(hd, hm) == 0:
            return []
        h_scale, g_scale = weight
        st_z = np.zeros(MAX_DEPTH + 2, np.int64)
        st_hd = np.zeros(MAX_DEPTH + 2, np.int64)
        st_hm = np.zeros(MAX_DEPTH + 2, np.int64)
        cq = np.zeros((MAX_DEPTH + 2, 4), np.int64)
        chd = np.zeros((MAX_DEPTH + 2, 4), np.int64)
        chm = np.zeros((MAX_DEPTH + 2, 4), np.int64)
        st_n = np.zeros(MAX_DEPTH + 2, np.int64)
        st_k = np.zeros(MAX_DEPTH + 2, np.int64)
        ctx = np.zeros(k.CTX_SIZE, np.int64)
        ctx[k.H_SCALE], ctx[k.G_SCALE] = h_scale, g_scale
        ctx[k.UPPER] = k.INF if upper is None else upper
        z0 = list(start).index(0)
        bound = h_scale * max(hd, hm)
        best = None
        limit_nodes = mon.budget.max_nodes
        while True:
            if bound // g_scale > MAX_DEPTH:
                raise_depth(mon)
            mon.report(bound // g_scale if g_scale > 1 else bound, 0)
            ctx[k.BOUND] = bound
            k.ida_start(z0, hd, hm, st_z, st_hd, st_hm, st_n, ctx)
            while True:
                limit = SLICE
                if limit_nodes is not None:
                    limit = max(1, min(limit, limit_nodes - mon.count))
                if upper_now is not None and upper_now() < ctx[k.UPPER]:
                    ctx[k.UPPER] = upper_now()
                status = self.kernel(
                    *arrays, st_z, st_hd, st_hm, cq, chd, chm, st_n, st_k, ctx, limit
                )
                mon.count += int(ctx[k.NODES])
                if status == k.FOUND:
                    path = [int(c) for c in st_z[1 : ctx[k.SP] + 1]]
                    if found is None:
                        return path
                    best = path
                    ctx[k.UPPER] = len(path)
                    found(path)
                    continue
                if status == k.EXHAUSTED:
                    if iteration_done is not None:
                        iteration_done(int(ctx[k.NEXT]))
                    if one_iteration and best is not None:
                        return best
                    break
                mon.check(bound, int(ctx[k.SP]))
                if stop_at is not None and time.monotonic() >= stop_at:
                    return best
                yield
            if ctx[k.NEXT] >= k.INF:
                return best  # nothing shorter than the upper cut exists
            bound = int(ctx[k.NEXT])


def raise_depth(mon: Monitor) -> None:
    """A weighted bound this deep would overflow the search's arrays: stop as out of budget."""
    from ..core.results import BUDGET, StopSearch

    raise StopSearch(BUDGET, f"gave up after {mon.count} positions (search too deep)")
