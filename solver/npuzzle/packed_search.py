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
from .packed_build import manhattan_table
from .ranking import excess, placements, rank
from .rules import mirror_tiles


@njit(cache=True)
def packed_ida_run(
    board,
    rk,
    ev,
    saved,
    md,
    gidx,
    midx,
    weights,
    offs,
    tabs,
    grp,
    mgrp,
    mcell,
    nb,
    cev,
    use,
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

    ``rk[g]`` is group g's compact rank on the board, ``rk[G + g]`` on its mirror
    image (G groups), and ``ev`` the excesses read there. A move changes one tile's
    cell, so a child's rank is its parent's plus a change (:func:`rank_change`'s
    sum, written out here): one product for a move along the view's rows, and at most
    three cells to look at across them, where the ranking's re-count of a popcount
    per tile was. A child's bound is ``hd + change of Manhattan + 2 * change of
    excess`` (and the same for the mirror). ``cev`` keeps each child's two new
    excesses and ranks, ``saved`` the replaced ones for the way back. One flat loop,
    no helper calls that take arrays (numba would count references to them per
    node): so its stack handling repeats ida_run's rather than sharing it.
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
    kq = np.empty(4, np.int64)  # this node's children: the cell, both ranks,
    kr = np.empty(4, np.int64)
    krm = np.empty(4, np.int64)
    ke = np.empty(4, np.int64)  # where both entries are, then the bytes holding them
    kem = np.empty(4, np.int64)
    while True:
        count = st_n[sp]
        if count < 0:  # a new node: its children within the bound
            z = st_z[sp]
            parent = st_z[sp - 1] if sp > 0 else -1
            hd = st_hd[sp]
            hm = st_hm[sp]
            g1 = sp + 1
            # first every child's two ranks, then their entries: the table reads (a
            # cache miss each, mostly) are issued together and overlap
            m = 0
            for j in range(4):
                q = nb[z, j]
                if q < 0:
                    break
                if q == parent:
                    continue
                t = board[q]
                # the direct view: tile t from cell q to z
                g = grp[t]
                i = gidx[t]
                w = weights[g, i]
                r = rk[g] + w * (z - q)
                if z - q > 1 or q - z > 1:  # across rows: the cells passed over
                    lo, hi, sign = (q, z, 1) if q < z else (z, q, -1)
                    for c in range(lo + 1, hi):
                        u = board[c]
                        if grp[u] == g and u != 0:
                            v = gidx[u]
                            r += sign * (weights[g, v] if v > i else -w)
                # the mirror view: t's image from mcell[q] to mcell[z]
                mg = mgrp[t]
                i = midx[t]
                w = weights[mg, i]
                a = mcell[q]
                b = mcell[z]
                rm = rk[groups + mg] + w * (b - a)
                if b - a > 1 or a - b > 1:
                    lo, hi, sign = (a, b, 1) if a < b else (b, a, -1)
                    for c in range(lo + 1, hi):
                        u = board[mcell[c]]
                        if mgrp[u] == mg and u != 0:
                            v = midx[u]
                            rm += sign * (weights[mg, v] if v > i else -w)
                kq[m] = q
                kr[m] = r
                krm[m] = rm
                ke[m] = offs[g] + (r >> 1)
                kem[m] = offs[mg] + (rm >> 1)
                m += 1
            for x in range(m):
                ke[x] = tabs[ke[x]]
                kem[x] = tabs[kem[x]]
            count = 0
            for x in range(m):
                q = kq[x]
                t = board[q]
                g = grp[t]
                mg = mgrp[t]
                step = md[t * cells + z] - md[t * cells + q]
                r = kr[x]
                rm = krm[x]
                e = ((ke[x] >> ((r & 1) << 2)) & 15) * use[g]
                nd = hd + step + 2 * (e - ev[g])
                em = ((kem[x] >> ((rm & 1) << 2)) & 15) * use[groups + mg]
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
                    for y in range(4):
                        cev[sp, i, y] = cev[sp, i - 1, y]
                    i -= 1
                cq[sp, i] = q
                chd[sp, i] = nd
                chm[sp, i] = nm
                cev[sp, i, 0] = e
                cev[sp, i, 1] = em
                cev[sp, i, 2] = r
                cev[sp, i, 3] = rm
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
            g = grp[t]
            mg = groups + mgrp[t]
            sp += 1
            saved[sp, 0] = ev[g]
            saved[sp, 1] = ev[mg]
            saved[sp, 2] = rk[g]
            saved[sp, 3] = rk[mg]
            ev[g] = cev[sp - 1, k, 0]
            ev[mg] = cev[sp - 1, k, 1]
            rk[g] = cev[sp - 1, k, 2]
            rk[mg] = cev[sp - 1, k, 3]
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
            g = grp[t]
            mg = groups + mgrp[t]
            ev[g] = saved[sp, 0]
            ev[mg] = saved[sp, 1]
            rk[g] = saved[sp, 2]
            rk[mg] = saved[sp, 3]
            sp -= 1
    ctx[SP] = sp
    ctx[NEXT] = least
    ctx[NODES] = nodes
    return status


def rank_weights(groups: Sequence[Sequence[int]], cells: int) -> np.ndarray:
    """``weights[g, i]``: what one step of digit i is worth in group g's compact rank
    (:func:`~solver.npuzzle.ranking.rank`): the product of the later digits' radices."""
    width = max(len(tiles) for tiles in groups)
    weights = np.zeros((len(groups), width), np.int64)
    for g, tiles in enumerate(groups):
        for i in range(len(tiles)):
            weights[g, i] = placements(cells - i - 1, len(tiles) - i - 1)
    return weights


def rank_change(spots: Sequence[int], i: int, to: int, weights: Sequence[int]) -> int:
    """How group tile ``i`` moving from ``spots[i]`` to the free cell ``to`` changes the
    rank of ``spots`` (weights: :func:`rank_weights`' row): the digit of tile i moves
    by the cells between, less those the earlier tiles hold, and each later tile
    whose cell lies between gains or loses one. The kernel adds the same terms."""
    at = spots[i]
    sign = 1 if to > at else -1
    change = weights[i] * (to - at)
    for v, c in enumerate(spots):
        if min(at, to) < c < max(at, to):
            change += sign * (weights[v] if v > i else -weights[i])
    return change


class PackedSearch(PatternSearch):
    """IDA* with the mirror lookup over packed databases (one flat uint8 array)."""

    def __init__(self, n: int, groups: Sequence[Sequence[int]], flat: np.ndarray, sizes):
        self.lay_out(n, groups, flat, sizes)
        cells = n * n
        mtile = mirror_tiles(n)
        #: ``mtiles[g][i]``: the tile whose mirror image is group g's tile i
        self.mtiles = [[mtile[t] for t in tiles] for tiles in self.groups]
        self.gidx = np.zeros(cells, np.int64)  # each tile's digit in its group's rank
        self.midx = np.zeros(cells, np.int64)  # and its image's in the mirror's
        for g, tiles in enumerate(self.groups):
            for i, t in enumerate(tiles):
                self.gidx[t] = i
                self.midx[self.mtiles[g][i]] = i
        self.weights = rank_weights(self.groups, cells)
        self.md = manhattan_table(n)
        #: 1 per view's group whose excess counts (:mod:`solver.npuzzle.windows` drops some)
        self.use = np.ones(2 * len(self.groups), np.int64)
        self.kernel = packed_ida_run

    def ranks(self, board: Sequence[int]) -> list[int]:
        """Each group's compact rank on ``board``, then on its mirror image."""
        cells = self.n * self.n
        where = [0] * cells
        for c, t in enumerate(board):
            where[t] = c
        direct = [rank([where[t] for t in tiles], cells) for tiles in self.groups]
        mirrored = [
            rank([int(self.mcell[where[u]]) for u in images], cells) for images in self.mtiles
        ]
        return direct + mirrored

    def excesses(self, ranks: Sequence[int]) -> np.ndarray:
        """The excess each rank of :meth:`ranks` reads (the mirror's from the same tables)."""
        groups = len(self.groups)
        return np.array(
            [
                excess(self.tabs, self.offs[i % groups] * 2 + r) * int(self.use[i])
                for i, r in enumerate(ranks)
            ],
            np.int64,
        )

    def bounds(self, board: Sequence[int]) -> tuple[int, int]:
        """The direct and the mirrored bounds: Manhattan plus twice the summed excess."""
        m = sum(int(self.md[t * self.n * self.n + c]) for c, t in enumerate(board) if t)
        ev = self.excesses(self.ranks(board))
        groups = len(self.groups)
        return m + 2 * int(ev[:groups].sum()), m + 2 * int(ev[groups:].sum())

    def lower_bound(self, board: Sequence[int]) -> int:
        return max(self.bounds(board))

    def begin(self, start: Sequence[int]) -> tuple[int, int, tuple]:
        ranks = self.ranks(start)
        hd, hm = self.bounds(start)
        arrays = (
            np.array(start, np.int64),
            np.array(ranks, np.int64),
            self.excesses(ranks),
            np.zeros((MAX_DEPTH + 2, 4), np.int64),
            self.md,
            self.gidx,
            self.midx,
            self.weights,
            self.offs,
            self.tabs,
            self.grp,
            self.mgrp,
            self.mcell,
            self.nb,
            np.zeros((MAX_DEPTH + 2, 4, 4), np.int64),
            self.use,
        )
        return hd, hm, arrays
