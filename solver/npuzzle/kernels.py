"""The N-puzzle's compiled inner loops (numba): pattern-database builds and IDA*.

Only numpy arrays and integers cross into these functions, and nothing here
allocates per node. Importing this module imports numba (about half a second)
and the first call of each function loads its machine code from numba's cache
(``cache=True``), or compiles it once per machine: so only the 4x4-and-larger
paths import it, lazily, and the web workers warm it up before they report
ready (:func:`warm`).

Indexing. A pattern of k tiles placed at cells ``c_0 .. c_{k-1}`` of an n x n
board (C = n*n cells) has the index ``sum(c_i * C**i)``. That wastes some index
space, but one move changes an index by adding ``(to - from) * C**i``: the
search never re-ranks a placement. On 4x4 this is ``sum(c_i << 4*i)``.

Search state. :func:`ida_run` is an iterative IDA* whose whole stack lives in
arrays, so it can stop after ``limit`` nodes and resume where it stopped: the
Python driver (:mod:`solver.npuzzle.ida`) checks the budget, cancel and
progress between calls. Children are generated once per node with their
heuristic updated incrementally (two lookups per table read: old entry out,
new entry in), pruned against the bound and an upper cut-off, and visited in
order of increasing heuristic (the goal, if among them, first).
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNSEEN = 255
INF = 1 << 40

# ida_run's answers
FOUND, EXHAUSTED, PAUSED = 0, 1, 2
# ctx slots (one int64 array holds the scalars of a running search)
SP, BOUND, NEXT, H_SCALE, G_SCALE, UPPER, NODES = range(7)
CTX_SIZE = 8


# -- pattern databases ------------------------------------------------------------


@njit(cache=True)
def neighbour_table(n):
    """cell -> up to four cells next to it, -1 padded."""
    cells = n * n
    nb = np.full((cells, 4), -1, np.int64)
    for z in range(cells):
        r, c = z // n, z % n
        k = 0
        if r > 0:
            nb[z, k] = z - n
            k += 1
        if r < n - 1:
            nb[z, k] = z + n
            k += 1
        if c > 0:
            nb[z, k] = z - 1
            k += 1
        if c < n - 1:
            nb[z, k] = z + 1
            k += 1
    return nb


@njit(cache=True)
def region_tables(n):
    """For every free-cell mask and cell (boards up to 16 cells): the blank's reach and its name.

    ``reach[mask * C + cell]`` is the set of free cells the blank at ``cell``
    can walk to; ``name`` is the lowest of them, the region's canonical name.
    """
    cells = n * n
    nb = neighbour_table(n)
    total = (1 << cells) * cells
    reach = np.zeros(total, np.int32)
    name = np.zeros(total, np.int8)
    stack = np.empty(cells, np.int64)
    for mask in range(1 << cells):
        for start in range(cells):
            if (mask >> start) & 1 == 0:
                continue
            if reach[mask * cells + start] != 0:
                continue
            seen = 1 << start
            top = 0
            stack[0] = start
            top = 1
            while top:
                top -= 1
                z = stack[top]
                for j in range(4):
                    q = nb[z, j]
                    if q < 0:
                        break
                    if (mask >> q) & 1 and not (seen >> q) & 1:
                        seen |= 1 << q
                        stack[top] = q
                        top += 1
            low = 0
            while not (seen >> low) & 1:
                low += 1
            for c in range(cells):
                if (seen >> c) & 1:
                    reach[mask * cells + c] = seen
                    name[mask * cells + c] = low
    return reach, name


@njit(cache=True)
def tracked_layer(frontier, dist, depth, n, k, reach, name):
    """One breadth-first layer over (placement, blank region) states: the next frontier.

    A state is ``placement * C + region name``. A group tile may slide into
    any cell of the blank's region next to it (one move); the blank then sits
    where the tile was, in whatever region that is.
    """
    cells = n * n
    nb = neighbour_table(n)
    full = (1 << cells) - 1
    out = np.empty(max(64, frontier.shape[0] * 2), np.int64)
    count = 0
    pos = np.empty(k, np.int64)
    for s in range(frontier.shape[0]):
        if count + 4 * k > out.shape[0]:  # room for every child of this state
            bigger = np.empty(out.shape[0] * 2, np.int64)
            bigger[:count] = out[:count]
            out = bigger
        state = frontier[s]
        placement = state // cells
        region = state - placement * cells
        rest = placement
        taken = 0
        for i in range(k):
            pos[i] = rest % cells
            rest //= cells
            taken |= 1 << pos[i]
        free = full & ~taken
        r = reach[free * cells + region]
        mult = 1
        for i in range(k):
            c = pos[i]
            for j in range(4):
                target = nb[c, j]
                if target < 0:
                    break
                if not (r >> target) & 1:
                    continue
                after = free ^ (1 << target) ^ (1 << c)
                child = (placement + (target - c) * mult) * cells + name[after * cells + c]
                if dist[child] == UNSEEN:
                    dist[child] = depth
                    out[count] = child
                    count += 1
            mult *= cells
    return out[:count]


@njit(cache=True)
def flood(seed, free, n, left_col, right_col):
    """The free cells reachable from the cells in ``seed`` (bit masks), on an n x n board."""
    reach = seed
    while True:
        grown = (
            reach
            | (reach << n)
            | (reach >> n)
            | ((reach << 1) & ~left_col)
            | ((reach >> 1) & ~right_col)
        ) & free
        if grown == reach:
            return reach
        reach = grown


@njit(cache=True)
def lowest(mask):
    """The index of ``mask``'s lowest set bit (``mask`` not 0)."""
    low = 0
    while not (mask >> low) & 1:
        low += 1
    return low


@njit(cache=True)
def flooded_layer(frontier, dist, depth, n, k):
    """:func:`tracked_layer` for boards too big for region tables: each region by a flood fill."""
    cells = n * n
    nb = neighbour_table(n)
    full = (1 << cells) - 1
    left_col = 0
    for r in range(n):
        left_col |= 1 << (r * n)
    right_col = left_col << (n - 1)
    out = np.empty(max(64, frontier.shape[0] * 2), np.int64)
    count = 0
    pos = np.empty(k, np.int64)
    for s in range(frontier.shape[0]):
        if count + 4 * k > out.shape[0]:  # room for every child of this state
            bigger = np.empty(out.shape[0] * 2, np.int64)
            bigger[:count] = out[:count]
            out = bigger
        state = frontier[s]
        placement = state // cells
        region = state - placement * cells
        rest = placement
        taken = 0
        for i in range(k):
            pos[i] = rest % cells
            rest //= cells
            taken |= 1 << pos[i]
        free = full & ~taken
        r = flood(1 << region, free, n, left_col, right_col)
        mult = 1
        for i in range(k):
            c = pos[i]
            for j in range(4):
                target = nb[c, j]
                if target < 0:
                    break
                if not (r >> target) & 1:
                    continue
                after = free ^ (1 << target) ^ (1 << c)
                name = lowest(flood(1 << c, after, n, left_col, right_col))
                child = (placement + (target - c) * mult) * cells + name
                if dist[child] == UNSEEN:
                    dist[child] = depth
                    out[count] = child
                    count += 1
            mult *= cells
    return out[:count]


@njit(cache=True)
def free_layer(frontier, dist, depth, n, k):
    """One breadth-first layer over placements alone: a group tile slides to any free cell.

    The blank is not tracked (boards over 16 cells): weaker than
    :func:`tracked_layer`, but the table is just one byte per placement.
    """
    cells = n * n
    nb = neighbour_table(n)
    out = np.empty(max(64, frontier.shape[0] * 2), np.int64)
    count = 0
    pos = np.empty(k, np.int64)
    for s in range(frontier.shape[0]):
        if count + 4 * k > out.shape[0]:  # room for every child of this state
            bigger = np.empty(out.shape[0] * 2, np.int64)
            bigger[:count] = out[:count]
            out = bigger
        placement = frontier[s]
        rest = placement
        taken = 0
        for i in range(k):
            pos[i] = rest % cells
            rest //= cells
            taken |= 1 << pos[i]
        mult = 1
        for i in range(k):
            c = pos[i]
            for j in range(4):
                target = nb[c, j]
                if target < 0:
                    break
                if (taken >> target) & 1:
                    continue
                child = placement + (target - c) * mult
                if dist[child] == UNSEEN:
                    dist[child] = depth
                    out[count] = child
                    count += 1
            mult *= cells
    return out[:count]


@njit(cache=True)
def least_over_regions(dist, cells):
    """Per placement, the least distance over the blank's regions."""
    placements = dist.shape[0] // cells
    table = np.full(placements, UNSEEN, np.uint8)
    for p in range(placements):
        best = UNSEEN
        for r in range(cells):
            v = dist[p * cells + r]
            if v < best:
                best = v
        table[p] = best
    return table


# -- IDA* -------------------------------------------------------------------------


@njit(cache=True)
def ida_start(z0, hd, hm, st_z, st_hd, st_hm, st_n, ctx):
    """Begin one IDA* iteration at the root (ctx[BOUND] set by the caller)."""
    ctx[SP] = 0
    ctx[NEXT] = INF
    st_z[0] = z0
    st_hd[0] = hd
    st_hm[0] = hm
    st_n[0] = -1  # children not generated yet


@njit(cache=True)
def ida_run(
    board,
    idx,
    tabs,
    offs,
    grp,
    mul,
    mgrp,
    mmul,
    mcell,
    nb,
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
    """Continue the iteration for at most ``limit`` nodes: FOUND, EXHAUSTED or PAUSED.

    On FOUND the solution is ``st_z[1 .. ctx[SP]]`` (the cells whose tiles
    slide, in order) and the search can be resumed to look for a shorter one
    once ctx[UPPER] is lowered. ctx[NODES] counts the nodes of this call.

    One flat loop, no helper calls: numba would count references to every
    array passed to a helper, an atomic operation per array per node. Scalars
    live in locals: the compiler cannot keep array entries in registers
    across the board's stores.
    """
    groups = offs.shape[0]
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
                gi = grp[t]
                o = offs[gi]
                old = idx[gi]
                nd = hd - tabs[o + old] + tabs[o + old + (z - q) * mul[t]]
                mg = mgrp[t]
                mo = offs[mg]
                mold = idx[groups + mg]
                nm = hm - tabs[mo + mold] + tabs[mo + mold + (mcell[z] - mcell[q]) * mmul[t]]
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
                    i -= 1
                cq[sp, i] = q
                chd[sp, i] = nd
                chm[sp, i] = nm
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
            idx[grp[t]] += (z - q) * mul[t]
            idx[groups + mgrp[t]] += (mcell[z] - mcell[q]) * mmul[t]
            sp += 1
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
            idx[grp[t]] -= (z - q) * mul[t]
            idx[groups + mgrp[t]] -= (mcell[z] - mcell[q]) * mmul[t]
            sp -= 1
    ctx[SP] = sp
    ctx[NEXT] = least
    ctx[NODES] = nodes
    return status


# -- shortening a solution between two of its own positions -------------------------


@njit(cache=True)
def segment_search(board, target, n, longest, limit, out):
    """A path from ``board`` to the position ``target`` (target[t] = the cell of tile t)
    of at most ``longest`` moves, by IDA* on the Manhattan distance between the two.

    Returns its length (the cells slid written to ``out``), -1 when none that
    short exists, -2 when ``limit`` nodes ran out first. ``board`` is restored.
    The bound only matters for short windows of a longer solution, so the
    plain Manhattan heuristic (right for any target) is enough.
    """
    cells = n * n
    nb = neighbour_table(n)
    md = np.empty((cells, cells), np.int64)
    for a in range(cells):
        for b in range(cells):
            md[a, b] = abs(a // n - b // n) + abs(a % n - b % n)
    h = 0
    z0 = 0
    for c in range(cells):
        t = board[c]
        if t == 0:
            z0 = c
        else:
            h += md[c, target[t]]
    if h == 0 and target[0] == z0:
        return 0
    st_z = np.empty(longest + 2, np.int64)
    st_h = np.empty(longest + 2, np.int64)
    st_k = np.empty(longest + 2, np.int64)
    nodes = 0
    bound = h
    while bound <= longest:
        least = 1 << 30
        sp = 0
        st_z[0] = z0
        st_h[0] = h
        st_k[0] = 0
        while sp >= 0:
            k = st_k[sp]
            z = st_z[sp]
            if k >= 4 or nb[z, k] < 0:
                if sp > 0:  # undo the move that led here
                    p = st_z[sp - 1]
                    t = board[p]
                    board[z] = t
                    board[p] = 0
                sp -= 1
                continue
            st_k[sp] = k + 1
            q = nb[z, k]
            if sp > 0 and q == st_z[sp - 1]:
                continue
            t = board[q]
            h1 = st_h[sp] - md[q, target[t]] + md[z, target[t]]
            f = sp + 1 + h1
            if f > bound:
                if f < least:
                    least = f
                continue
            board[z] = t
            board[q] = 0
            sp += 1
            st_z[sp] = q
            st_h[sp] = h1
            st_k[sp] = 0
            if h1 == 0:  # every tile where the target has it
                for i in range(sp):
                    out[i] = st_z[i + 1]
                for i in range(sp, 0, -1):  # restore the board
                    a = st_z[i]
                    b = st_z[i - 1]
                    board[a] = board[b]
                    board[b] = 0
                return sp
            nodes += 1
            if nodes >= limit:
                for i in range(sp, 0, -1):
                    a = st_z[i]
                    b = st_z[i - 1]
                    board[a] = board[b]
                    board[b] = 0
                return -2
        if least >= 1 << 30:
            break
        bound = least
    return -1
