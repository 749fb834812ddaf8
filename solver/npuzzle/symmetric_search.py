"""IDA* over a partition symmetric in the main diagonal: only its distinct groups' tables.

The 24-puzzle's 6-6-6-6 split (:data:`solver.npuzzle.anytime.SIX_GROUPS`) maps
to itself under the reflection (r, c) <-> (c, r), which also maps the goal to
itself. A group whose image is another group of the split needs no table of
its own: by that symmetry its distance on a board is its image's distance on
the mirrored board, so it is read from its image's table (a *mirrored slot*).
Only the distinct groups are built, and the bound is one additive sum over
the whole split: Manhattan distance plus twice each slot's packed excess
(:mod:`solver.npuzzle.packed_build`).

A reflection of a symmetric split is the split itself, so a second, mirrored
sum would add nothing: unlike :class:`~solver.npuzzle.packed_search.PackedSearch`,
this search reads one entry per child (the one slot its tile belongs to).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .ida import MAX_DEPTH, PatternSearch
from .kernels import BOUND, EXHAUSTED, FOUND, G_SCALE, H_SCALE, NEXT, NODES, PAUSED, SP, UPPER
from .packed_build import manhattan_table
from .packed_search import rank_weights
from .ranking import excess, rank
from .rules import mirror_tiles


@njit(cache=True)
def symmetric_ida_run(
    board,
    rk,
    ev,
    saved,
    md,
    slot,
    digit,
    stab,
    smir,
    weights,
    offs,
    tabs,
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
    """:func:`solver.npuzzle.packed_search.packed_ida_run` over slots.

    Tile t belongs to slot ``slot[t]``, the ``digit[t]``-th tile of the placement
    that slot ranks; the slot reads table ``stab[s]``, on the mirrored board when
    ``smir[s]``. ``rk[s]`` and ``ev[s]`` are each slot's rank and excess; the bound
    (``st_hd``, copied to ``st_hm``) is Manhattan plus twice their sum.
    """
    cells = board.shape[0]
    sp = ctx[SP]
    bound = ctx[BOUND]
    upper = ctx[UPPER]
    hs = ctx[H_SCALE]
    gs = ctx[G_SCALE]
    least = ctx[NEXT]
    nodes = 0
    status = PAUSED
    kq = np.empty(4, np.int64)  # this node's children: the cell, the rank, the entry
    kr = np.empty(4, np.int64)
    ke = np.empty(4, np.int64)
    while True:
        count = st_n[sp]
        if count < 0:  # a new node: its children within the bound
            z = st_z[sp]
            parent = st_z[sp - 1] if sp > 0 else -1
            hd = st_hd[sp]
            g1 = sp + 1
            m = 0
            for j in range(4):
                q = nb[z, j]
                if q < 0:
                    break
                if q == parent:
                    continue
                t = board[q]
                s = slot[t]
                tb = stab[s]
                i = digit[t]
                w = weights[tb, i]
                mirrored = smir[s]
                if mirrored:
                    a = mcell[q]
                    b = mcell[z]
                else:
                    a = q
                    b = z
                r = rk[s] + w * (b - a)
                if b - a > 1 or a - b > 1:  # across the view's rows: the cells passed over
                    lo, hi, sign = (a, b, 1) if a < b else (b, a, -1)
                    for c in range(lo + 1, hi):
                        u = board[mcell[c]] if mirrored else board[c]
                        if slot[u] == s:
                            v = digit[u]
                            r += sign * (weights[tb, v] if v > i else -w)
                kq[m] = q
                kr[m] = r
                ke[m] = offs[tb] + (r >> 1)
                m += 1
            for x in range(m):  # the table reads issued together: their misses overlap
                ke[x] = tabs[ke[x]]
            count = 0
            for x in range(m):
                q = kq[x]
                t = board[q]
                s = slot[t]
                r = kr[x]
                e = (ke[x] >> ((r & 1) << 2)) & 15
                h = hd + md[t * cells + z] - md[t * cells + q] + 2 * (e - ev[s])
                if g1 + h >= upper:
                    continue
                f = gs * g1 + hs * h
                if f > bound:
                    if f < least:
                        least = f
                    continue
                i = count  # insertion: least heuristic first
                while i > 0:
                    if chd[sp, i - 1] <= h:
                        break
                    cq[sp, i] = cq[sp, i - 1]
                    chd[sp, i] = chd[sp, i - 1]
                    cev[sp, i, 0] = cev[sp, i - 1, 0]
                    cev[sp, i, 1] = cev[sp, i - 1, 1]
                    i -= 1
                cq[sp, i] = q
                chd[sp, i] = h
                cev[sp, i, 0] = e
                cev[sp, i, 1] = r
                count += 1
            st_n[sp] = count
            st_k[sp] = 0
        k = st_k[sp]
        if k < count:
            st_k[sp] = k + 1
            h = chd[sp, k]
            if sp + 1 + h >= upper:
                continue  # a better solution was found meanwhile
            z = st_z[sp]
            q = cq[sp, k]
            t = board[q]
            board[z] = t
            board[q] = 0
            s = slot[t]
            sp += 1
            saved[sp, 0] = ev[s]
            saved[sp, 1] = rk[s]
            ev[s] = cev[sp - 1, k, 0]
            rk[s] = cev[sp - 1, k, 1]
            st_z[sp] = q
            st_hd[sp] = h
            st_hm[sp] = h
            st_k[sp] = 0
            if h == 0:  # every tile home
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
            s = slot[t]
            ev[s] = saved[sp, 0]
            rk[s] = saved[sp, 1]
            sp -= 1
    ctx[SP] = sp
    ctx[NEXT] = least
    ctx[NODES] = nodes
    return status


def slots_of(
    n: int, split: Sequence[Sequence[int]], built: Sequence[Sequence[int]]
) -> list[tuple[int, bool, tuple[int, ...]]]:
    """Each group of ``split`` as (its table's index in ``built``, mirrored, its tiles in
    the order of the placement that table ranks). Raises ValueError when the groups
    overlap, miss a tile, or one is neither built nor the image of a built group."""
    tiles = sorted(t for group in split for t in group)
    if tiles != list(range(1, n * n)):
        raise ValueError("the groups must hold every tile exactly once")
    mtile = mirror_tiles(n)
    out = []
    for group in split:
        for b, made in enumerate(built):
            if set(made) == set(group):
                out.append((b, False, tuple(made)))
                break
            if {mtile[t] for t in made} == set(group):
                out.append((b, True, tuple(mtile[t] for t in made)))
                break
        else:
            raise ValueError(f"group {list(group)} is neither built nor a built group's image")
    return out


class SymmetricSearch(PatternSearch):
    """IDA* over the packed tables of ``built`` (one flat uint8 array), summed over ``split``."""

    def __init__(
        self,
        n: int,
        split: Sequence[Sequence[int]],
        built: Sequence[Sequence[int]],
        flat: np.ndarray,
        sizes,
    ):
        self.lay_out(n, built, flat, sizes)
        cells = n * n
        self.slots = slots_of(n, split, built)
        self.slot = np.full(cells, -1, np.int64)  # the blank belongs to no slot
        self.digit = np.zeros(cells, np.int64)
        for s, (_, _, tiles) in enumerate(self.slots):
            for i, t in enumerate(tiles):
                self.slot[t] = s
                self.digit[t] = i
        self.stab = np.array([b for b, _, _ in self.slots], np.int64)
        self.smir = np.array([mirrored for _, mirrored, _ in self.slots], np.int64)
        self.weights = rank_weights(self.groups, cells)
        self.md = manhattan_table(n)
        self.kernel = symmetric_ida_run

    def ranks(self, board: Sequence[int]) -> list[int]:
        """Each slot's compact rank on ``board`` (a mirrored slot's on the mirror image)."""
        cells = self.n * self.n
        where = [0] * cells
        for c, t in enumerate(board):
            where[t] = c
        return [
            rank([int(self.mcell[where[t]]) if mirrored else where[t] for t in tiles], cells)
            for _, mirrored, tiles in self.slots
        ]

    def excesses(self, ranks: Sequence[int]) -> np.ndarray:
        """The excess each slot's rank reads in its table."""
        return np.array(
            [
                excess(self.tabs, int(self.offs[b]) * 2 + r)
                for (b, _, _), r in zip(self.slots, ranks, strict=True)
            ],
            np.int64,
        )

    def lower_bound(self, board: Sequence[int]) -> int:
        """Manhattan plus twice the summed excesses: the split's additive bound."""
        cells = self.n * self.n
        m = sum(int(self.md[t * cells + c]) for c, t in enumerate(board) if t)
        return m + 2 * int(self.excesses(self.ranks(board)).sum())

    def begin(self, start: Sequence[int]) -> tuple[int, int, tuple]:
        ranks = self.ranks(start)
        h = self.lower_bound(start)
        arrays = (
            np.array(start, np.int64),
            np.array(ranks, np.int64),
            self.excesses(ranks),
            np.zeros((MAX_DEPTH + 2, 2), np.int64),
            self.md,
            self.slot,
            self.digit,
            self.stab,
            self.smir,
            self.weights,
            self.offs,
            self.tabs,
            self.mcell,
            self.nb,
            np.zeros((MAX_DEPTH + 2, 4, 2), np.int64),
        )
        return h, h, arrays
