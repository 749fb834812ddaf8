"""IDA* over packed pattern databases (:mod:`solver.npuzzle.packed_build`), compiled.

:class:`PackedSearch` is :class:`~solver.npuzzle.ida.PatternSearch` with another
kernel: the same driver (budgets, cancel, weights, the upper cut the coach's
bounded searches use), the same mirror lookup, the same child order, so every
caller of the 6-6-3 search gets the 7-8 tables unchanged. A packed entry is
found by rank, which costs a popcount per tile, so the kernel re-ranks the one
group a move touches instead of adding a delta to an index as
:mod:`solver.npuzzle.kernels` does: with 17 times fewer nodes that is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .ida import MAX_DEPTH, PatternSearch
from .kernels import (  # one set of answers and context slots for both searches
    BOUND,
    EXHAUSTED,
    FOUND,
    G_SCALE,
    H_SCALE,
    NEXT,
    NODES,
    PAUSED,
    SP,
    UPPER,
)
from .packed_build import manhattan_table, popcount
from .ranking import excess, rank
from .rules import mirror_tiles


@njit(cache=True)
def packed_ida_run(
    board,
    where,
    ev,
    saved,
    md,
    gtiles,
    gsize,
    mtiles,
    offs,
    tabs,
    grp,
    mgrp,
    mcell,
    nb,
    cev,
    st_z,
    st_hd,
    st_hm,
    cq,
    chd,
    chm,
    st_n,
    st_k,
    ctx,
    limit,
):
    """:func:`solver.npuzzle.kernels.ida_run` over packed databases.

    ``where[t]`` is tile t's cell; ``ev[g]`` the excess read for group g on the
    board, ``ev[G + g]`` on its mirror image (G groups). A child's bound is
    ``hd + change of Manhattan + 2 * change of excess`` (and the same for the
    mirror): re-rank the moved tile's group, read four bits. ``cev`` keeps each
    child's two new excesses, ``saved`` the replaced ones for the way back.
    One flat loop, no helper calls that take arrays (numba would count
    references to them per node): so its stack handling repeats ida_run's
    rather than sharing it.
    """
    groups = offs.shape[0]
    cells = board.shape[0]
    sp = ctx[SP]
    bound = ctx[BOUND]
    upper = ctx[UPPER]
    hs = ctx[H_SCALE]
    gs = ctx[G_SCALE]
    least = ctx[NEXT]
    nodes = 0
    status = PAUSED
    while True:
        count = st_n[sp]
        if count < 0:  # a new node: its children within the bound
            z = st_z[sp]
            parent = st_z[sp - 1] if sp > 0 else -1
            hd = st_hd[sp]
            hm = st_hm[sp]
            g1 = sp + 1
            count = 0
            for j in range(4):
                q = nb[z, j]
                if q < 0:
                    break
                if q == parent:
                    continue
                t = board[q]
                step = md[t * cells + z] - md[t * cells + q]
                g = grp[t]
                used = 0
                r = 0
                for i in range(gsize[g]):
                    u = gtiles[g, i]
                    c = z if u == t else where[u]
                    r = r * (cells - i) + c - popcount(used & ((1 << c) - 1))
                    used |= 1 << c
                e = (tabs[offs[g] + (r >> 1)] >> ((r & 1) << 2)) & 15
                nd = hd + step + 2 * (e - ev[g])
                mg = mgrp[t]
                used = 0
                r = 0
                for i in range(gsize[mg]):
                    u = mtiles[mg, i]
                    c = mcell[z] if u == t else mcell[where[u]]
                    r = r * (cells - i) + c - popcount(used & ((1 << c) - 1))
                    used |= 1 << c
                em = (tabs[offs[mg] + (r >> 1)] >> ((r & 1) << 2)) & 15
                nm = hm + step + 2 * (em - ev[groups + mg])
                h = nd if nd > nm else nm
                if g1 + h >= upper:
                    continue
                f = gs * g1 + hs * h
                if f > bound:
                    if f < least:
                        least = f
                    continue
                i = count  # insertion: least heuristic first
                while i > 0:
                    a = chd[sp, i - 1]
                    b = chm[sp, i - 1]
                    if (a if a > b else b) <= h:
                        break
                    cq[sp, i] = cq[sp, i - 1]
                    chd[sp, i] = a
                    chm[sp, i] = b
                    cev[sp, i, 0] = cev[sp, i - 1, 0]
                    cev[sp, i, 1] = cev[sp, i - 1, 1]
                    i -= 1
                cq[sp, i] = q
                chd[sp, i] = nd
                chm[sp, i] = nm
                cev[sp, i, 0] = e
                cev[sp, i, 1] = em
                count += 1
            st_n[sp] = count
            st_k[sp] = 0
        k = st_k[sp]
        if k < count:
            st_k[sp] = k + 1
            hd = chd[sp, k]
            hm = chm[sp, k]
            if sp + 1 + (hd if hd > hm else hm) >= upper:
                continue  # a better solution was found meanwhile
            z = st_z[sp]
            q = cq[sp, k]
            t = board[q]
            board[z] = t
            board[q] = 0
            where[t] = z
            g = grp[t]
            mg = groups + mgrp[t]
            sp += 1
            saved[sp, 0] = ev[g]
            saved[sp, 1] = ev[mg]
            ev[g] = cev[sp - 1, k, 0]
            ev[mg] = cev[sp - 1, k, 1]
            st_z[sp] = q
            st_hd[sp] = hd
            st_hm[sp] = hm
            st_k[sp] = 0
            if hd == 0:  # every tile home
                st_n[sp] = 0
                status = FOUND
                break
            st_n[sp] = -1
            nodes += 1
            if nodes >= limit:
                break
        else:
            if sp == 0:
                status = EXHAUSTED
                break
            q = st_z[sp]
            z = st_z[sp - 1]
            t = board[z]
            board[q] = t
            board[z] = 0
            where[t] = q
            ev[grp[t]] = saved[sp, 0]
            ev[groups + mgrp[t]] = saved[sp, 1]
            sp -= 1
    ctx[SP] = sp
    ctx[NEXT] = least
    ctx[NODES] = nodes
    return status


class PackedSearch(PatternSearch):
    """IDA* with the mirror lookup over packed databases (one flat uint8 array)."""

    def __init__(self, n: int, groups: Sequence[Sequence[int]], flat: np.ndarray, sizes):
        self.lay_out(n, groups, flat, sizes)
        width = max(len(g) for g in self.groups)
        mtile = mirror_tiles(n)
        self.gtiles = np.zeros((len(groups), width), np.int64)
        self.mtiles = np.zeros((len(groups), width), np.int64)
        self.gsize = np.array([len(g) for g in self.groups], np.int64)
        for g, tiles in enumerate(self.groups):
            for i, t in enumerate(tiles):
                self.gtiles[g, i] = t
                self.mtiles[g, i] = mtile[t]  # the tile whose mirror image is t
        self.md = manhattan_table(n)
        self.kernel = packed_ida_run

    def excesses(self, board: Sequence[int]) -> np.ndarray:
        """Each group's excess on ``board``, then on its mirror image."""
        cells = self.n * self.n
        where = [0] * cells
        for c, t in enumerate(board):
            where[t] = c
        found = np.zeros(2 * len(self.groups), np.int64)
        for g, tiles in enumerate(self.groups):
            at = self.offs[g] * 2  # the table's first entry, counted in halves
            direct = rank([where[t] for t in tiles], cells)
            found[g] = excess(self.tabs, at + direct)
            spots = [int(self.mcell[where[int(u)]]) for u in self.mtiles[g][: len(tiles)]]
            mirrored = rank(spots, cells)
            found[len(self.groups) + g] = excess(self.tabs, at + mirrored)
        return found

    def bounds(self, board: Sequence[int]) -> tuple[int, int]:
        """The direct and the mirrored bounds: Manhattan plus twice the summed excess."""
        m = sum(int(self.md[t * self.n * self.n + c]) for c, t in enumerate(board) if t)
        ev = self.excesses(board)
        groups = len(self.groups)
        return m + 2 * int(ev[:groups].sum()), m + 2 * int(ev[groups:].sum())

    def lower_bound(self, board: Sequence[int]) -> int:
        return max(self.bounds(board))

    def begin(self, start: Sequence[int]) -> tuple[int, int, tuple]:
        board = np.array(start, np.int64)
        where = np.zeros(len(start), np.int64)
        where[board] = np.arange(len(start))
        hd, hm = self.bounds(start)
        arrays = (
            board,
            where,
            self.excesses(start),
            np.zeros((MAX_DEPTH + 2, 2), np.int64),
            self.md,
            self.gtiles,
            self.gsize,
            self.mtiles,
            self.offs,
            self.tabs,
            self.grp,
            self.mgrp,
            self.mcell,
            self.nb,
            np.zeros((MAX_DEPTH + 2, 4, 2), np.int64),
        )
        return hd, hm, arrays
