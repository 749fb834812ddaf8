"""Building packed pattern databases: compact ranks, four bits an entry, compiled (numba).

This is what makes the 15-puzzle's 7-8 split (Felner, Korf and Hanan 2004)
fit: 16!/8! + 16!/9! placements in 288 MB, mapped read-only from one file that
every process shares (:mod:`solver.core.mapped`). A placement is indexed by
its compact rank (:mod:`solver.npuzzle.ranking`) and keeps its excess over the
group's Manhattan distance in four bits.

The build is a breadth-first search over (placement, blank region) states, the
blank tracked as for 6-6-3 (:mod:`solver.npuzzle.pdb_build`), laid out as
``rank * slots + region``: the region is named by where its lowest cell falls
among the free cells (``slots`` = the number of free cells). Each layer scans
the ranks flagged in the last one (a flag per block of ranks), and both cores
share the scan: a child is only ever written from "unseen" to this layer's
depth, so two threads writing it at once write the same byte. While it runs
the search holds a byte per state: 4.2 GB for an 8-tile group on 4x4.

The 24-puzzle's 6-tile groups (25!/19! = 127.5 M placements, 64 MB packed)
use the same ranks and layout. Region tables indexed by a free-cell mask
would need 2**25 rows there, so each region is found by a flood fill over the
25-bit mask (shifts; :func:`flooded_packed_layer`: 2.4 GB while building), or
the blank is not tracked at all (:func:`free_packed_layer`, a byte per
placement while building).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..core.results import Progress
from .kernels import flood, lowest
from .pdb_build import TRACKED_MAX_CELLS, UNSEEN, compiled, regions
from .ranking import excess, manhattan, placements, rank

ProgressFn = Callable[[Progress], None] | None

#: ranks per block of the build's frontier flags
BLOCK = 1 << 12


@intrinsic
def _ctpop(typingctx, value):
    """The number of set bits of an int64: one instruction where the machine has it."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, args)

    return sig, codegen


#: how compiled code calls :func:`_ctpop` (typed for the checker: one int in, one out)
popcount = cast("Callable[[int], int]", _ctpop)


@njit(cache=True)
def nth_set(mask, s):
    """The cell of the ``s``-th (from 0) set bit of ``mask``."""
    for _ in range(s):
        mask &= mask - 1
    return popcount((mask & -mask) - 1)


@njit(cache=True)
def rank_of(spots, k, cells):
    """The compact rank of ``spots[0:k]`` (as :func:`solver.npuzzle.ranking.rank`)."""
    used = 0
    value = 0
    for i in range(k):
        c = spots[i]
        value = value * (cells - i) + c - popcount(used & ((1 << c) - 1))
        used |= 1 << c
    return value


@njit(cache=True)
def unrank_into(value, k, cells, spots, digits):
    """Write the cells of rank ``value`` into ``spots``; return the taken cells as a mask."""
    for i in range(k - 1, -1, -1):
        digits[i] = value % (cells - i)
        value //= cells - i
    used = 0
    full = (1 << cells) - 1
    for i in range(k):
        c = nth_set(full & ~used, digits[i])
        spots[i] = c
        used |= 1 << c
    return used


# -- the build ----------------------------------------------------------------------


@njit(cache=True, parallel=True)
def packed_layer(dist, depth, k, cells, slots, reach, name, nb, active, marked):
    """Expand every state at ``depth - 1`` in the blocks flagged in ``active``; children
    get ``depth`` and flag their block in ``marked``. Returns how many were written."""
    blocks = active.shape[0]
    ranks = dist.shape[0] // slots
    full = (1 << cells) - 1
    written = np.zeros(blocks, np.int64)
    last = depth - 1
    for b in prange(blocks):
        if active[b] == 0:
            continue
        spots = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        count = 0
        for r in range(b * BLOCK, min(ranks, (b + 1) * BLOCK)):
            base = r * slots
            here = False
            for s in range(slots):
                if dist[base + s] == last:
                    here = True
                    break
            if not here:
                continue
            taken = unrank_into(r, k, cells, spots, digits)
            free = full & ~taken
            for s in range(slots):
                if dist[base + s] != last:
                    continue
                region = reach[free * cells + nth_set(free, s)]
                for i in range(k):
                    c = spots[i]
                    for j in range(4):
                        target = nb[c, j]
                        if target < 0:
                            break
                        if not (region >> target) & 1:
                            continue
                        spots[i] = target
                        child_rank = rank_of(spots, k, cells)
                        spots[i] = c
                        after = free ^ (1 << target) ^ (1 << c)
                        low = name[after * cells + c]
                        child = child_rank * slots + popcount(after & ((1 << low) - 1))
                        if dist[child] == UNSEEN:
                            dist[child] = depth
                            marked[child_rank // BLOCK] = 1
                            count += 1
        written[b] = count
    return written.sum()


@njit(cache=True, parallel=True)
def pack_excess(dist, k, cells, slots, md, tiles, out):
    """Per placement: the least distance over its regions, less the group's Manhattan
    distance, halved, in four bits (two placements per byte of ``out``).

    Returns (placements never reached, odd or negative excesses, excesses cut to 15):
    the first two must be zero for a sound table.
    """
    ranks = dist.shape[0] // slots
    pairs = out.shape[0]
    chunks = (pairs + BLOCK - 1) // BLOCK
    bad = np.zeros((chunks, 3), np.int64)
    for ch in prange(chunks):
        spots = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        for p in range(ch * BLOCK, min(pairs, (ch + 1) * BLOCK)):
            byte = 0
            for half in range(2):
                r = 2 * p + half
                if r >= ranks:
                    break
                best = UNSEEN
                for s in range(slots):
                    v = dist[r * slots + s]
                    if v < best:
                        best = v
                if best == UNSEEN:
                    bad[ch, 0] += 1
                    continue
                unrank_into(r, k, cells, spots, digits)
                m = 0
                for i in range(k):
                    m += md[tiles[i] * cells + spots[i]]
                extra = best - m
                if extra < 0 or extra & 1:
                    bad[ch, 1] += 1
                    continue
                extra //= 2
                if extra > 15:
                    bad[ch, 2] += 1
                    extra = 15
                byte |= extra << (4 * half)
            out[p] = byte
    return bad[:, 0].sum(), bad[:, 1].sum(), bad[:, 2].sum()


@njit(cache=True, parallel=True)
def flooded_packed_layer(dist, depth, k, n, slots, nb, active, marked, left_col, right_col):
    """:func:`packed_layer` for boards too big for region tables (5x5): the blank's
    region and each child's are found by a flood fill over the free cells' bit mask."""
    cells = n * n
    blocks = active.shape[0]
    ranks = dist.shape[0] // slots
    full = (1 << cells) - 1
    written = np.zeros(blocks, np.int64)
    last = depth - 1
    for b in prange(blocks):
        if active[b] == 0:
            continue
        spots = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        count = 0
        for r in range(b * BLOCK, min(ranks, (b + 1) * BLOCK)):
            base = r * slots
            here = False
            for s in range(slots):
                if dist[base + s] == last:
                    here = True
                    break
            if not here:
                continue
            taken = unrank_into(r, k, cells, spots, digits)
            free = full & ~taken
            for s in range(slots):
                if dist[base + s] != last:
                    continue
                region = flood(1 << nth_set(free, s), free, n, left_col, right_col)
                for i in range(k):
                    c = spots[i]
                    for j in range(4):
                        target = nb[c, j]
                        if target < 0:
                            break
                        if not (region >> target) & 1:
                            continue
                        spots[i] = target
                        child_rank = rank_of(spots, k, cells)
                        spots[i] = c
                        after = free ^ (1 << target) ^ (1 << c)
                        low = lowest(flood(1 << c, after, n, left_col, right_col))
                        child = child_rank * slots + popcount(after & ((1 << low) - 1))
                        if dist[child] == UNSEEN:
                            dist[child] = depth
                            marked[child_rank // BLOCK] = 1
                            count += 1
        written[b] = count
    return written.sum()


@njit(cache=True, parallel=True)
def free_packed_layer(dist, depth, k, cells, nb, active, marked):
    """:func:`packed_layer` with the blank not tracked: a group tile slides to any cell
    next to it that no group tile holds (one byte per placement while building)."""
    blocks = active.shape[0]
    ranks = dist.shape[0]
    written = np.zeros(blocks, np.int64)
    last = depth - 1
    for b in prange(blocks):
        if active[b] == 0:
            continue
        spots = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        count = 0
        for r in range(b * BLOCK, min(ranks, (b + 1) * BLOCK)):
            if dist[r] != last:
                continue
            taken = unrank_into(r, k, cells, spots, digits)
            for i in range(k):
                c = spots[i]
                for j in range(4):
                    target = nb[c, j]
                    if target < 0:
                        break
                    if (taken >> target) & 1:
                        continue
                    spots[i] = target
                    child = rank_of(spots, k, cells)
                    spots[i] = c
                    if dist[child] == UNSEEN:
                        dist[child] = depth
                        marked[child // BLOCK] = 1
                        count += 1
        written[b] = count
    return written.sum()


# -- the driver ----------------------------------------------------------------------


class BuildError(RuntimeError):
    """A packed table came out unsound (a placement unreached or an odd excess)."""


def manhattan_table(n: int) -> np.ndarray:
    """``md[t * C + c]``: tile t's Manhattan distance from cell c to its home (0 for t = 0)."""
    cells = n * n
    md = np.zeros(cells * cells, np.int64)
    for t in range(1, cells):
        for c in range(cells):
            md[t * cells + c] = abs(c // n - (t - 1) // n) + abs(c % n - (t - 1) % n)
    return md


def build_packed(
    group: Sequence[int],
    n: int = 4,
    *,
    tracked: bool = True,
    progress: ProgressFn = None,
    stage: str = "",
) -> dict[str, Any]:
    """The packed database of ``group`` on an n x n board (4x4 or 5x5).

    Returns ``{"table": uint8 array, "depth": deepest layer, "cut": entries whose
    excess was cut to 15}``; ``progress`` hears after every layer. Raises
    BuildError if a placement stays unreached or an excess comes out odd
    (neither can happen in a sound build). ``tracked`` keeps the blank's region
    (region tables up to 4x4, flood fills above): one byte per (placement, free
    cell) while it runs, 4.2 GB for an 8-tile group on 4x4, 2.4 GB for a 6-tile
    group on 5x5; untracked, a byte per placement.
    """
    cells, k = n * n, len(group)
    if cells > 25:
        raise ValueError("packed databases index free cells by a 25-bit mask: 5x5 at most")
    flooded = tracked and cells > TRACKED_MAX_CELLS
    slots = cells - k if tracked else 1
    ranks = placements(cells, k)
    dist = np.full(ranks * slots, UNSEEN, np.uint8)
    home = [t - 1 for t in group]
    start = rank(home, cells)
    free = ((1 << cells) - 1) & ~sum(1 << c for c in home)
    left_col = sum(1 << (r * n) for r in range(n))
    right_col = left_col << (n - 1)
    reach = name = np.zeros(0, np.int64)  # the region tables: tracked on 4x4 only
    if tracked and not flooded:
        reach, name = regions(n)
    if not tracked:
        dist[start] = 0
    else:
        if flooded:
            low = lowest(flood(1 << (cells - 1), free, n, left_col, right_col))
        else:
            low = int(name[free * cells + cells - 1])
        dist[start * slots + bin(free & ((1 << low) - 1)).count("1")] = 0
    blocks = (ranks + BLOCK - 1) // BLOCK
    active = np.zeros(blocks, np.uint8)
    active[start // BLOCK] = 1
    nb = compiled().neighbour_table(n)
    started = time.monotonic()
    depth, reached = 0, 1
    while True:
        marked = np.zeros(blocks, np.uint8)
        if not tracked:
            layer = free_packed_layer(dist, depth + 1, k, cells, nb, active, marked)
        elif flooded:
            layer = flooded_packed_layer(
                dist, depth + 1, k, n, slots, nb, active, marked, left_col, right_col
            )
        else:
            layer = packed_layer(dist, depth + 1, k, cells, slots, reach, name, nb, active, marked)
        written = int(layer)
        if not written:
            break
        depth += 1
        reached += written
        active = marked
        if progress is not None:
            progress(Progress(reached, depth, written, time.monotonic() - started, stage=stage))
    table = np.empty((ranks + 1) // 2, np.uint8)
    tiles = np.array(group, np.int64)
    unreached, odd, cut = pack_excess(dist, k, cells, slots, manhattan_table(n), tiles, table)
    del dist
    if unreached or odd:
        raise BuildError(
            f"database of tiles {list(group)} is unsound: {unreached} placements unreached, "
            f"{odd} with an odd excess"
        )
    return {"table": table, "depth": depth, "cut": int(cut)}


def unpacked_value(table, group: Sequence[int], spots: Sequence[int], n: int = 4) -> int:
    """The distance a packed table holds for ``group`` at cells ``spots``."""
    at = rank(spots, n * n)
    return manhattan(group, spots, n) + 2 * excess(table, at)
