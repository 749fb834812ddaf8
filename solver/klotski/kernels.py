"""Klotski's compiled inner loops (numba): breadth-first search over 128-bit bit-plane keys.

Only numpy arrays and integers cross into these functions. Importing this
module imports numba; the first call of each function loads its machine code
from numba's cache (``cache=True``) or compiles it once per machine, so only
boards big enough to pay for that come here (:mod:`solver.klotski.bitboard`
decides, and lays a board's geometry out as arrays).

The key. Each cell holds a code: 0, or ``class + 1`` on a piece's top-left
cell (same-shaped pieces share a class, so the key is canonical). Code bit
``j`` of every cell forms *plane* ``j``, an n-bit mask; the planes are laid
end to end in 128 bits, held as two int64 words (lo, hi). A layout fits when
it has at most 64 cells, 15 piece shapes (4 planes) and ``planes * cells <=
128``: every shipped level does (at most 3 x 36 bits).
Moving a piece of class k from top-left g to g2 is two XORs per word
(``flip[g] ^ flip[g2]``), and decoding is bit-parallel: one class's top-left
cells are the AND of its code's planes (or their complements).

The visited set is open addressing in one flat array, ``table`` (2 words per
slot, a power of two slots, at most half full; (0, 0) marks an empty slot:
no position is empty of pieces). The breadth-first queue is a second array,
``keys`` (2 words per position, in the order reached), with ``parent``
beside it. :func:`bfs_run` works in slices of about ``limit`` units of work
(a position expanded, a child looked up: wide-open boards have hundreds of
children a position, and a slice must stay a few milliseconds) and keeps
its whole state in arrays and a context vector, so the Python driver checks
budget, cancel and progress between slices and grows the arrays when they
fill.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboard import MUL1, MUL2

# metrics
STEP, STRAIGHT, PIECE = 0, 1, 2
# bfs_run's answers
DONE, PAUSED, FULL, FOUND = 0, 1, 2, 3
# ctx slots: queue head, positions stored, end of the current layer, depth, the goal found,
# stop at the first goal (1) or exhaust the group (0)
HEAD, COUNT, LAYER_END, DEPTH, GOAL_AT, STOP_AT_GOAL = range(6)
CTX_SIZE = 8
# geometry vector slots (laid out by solver.klotski.bitboard.Packing): cells, planes,
# classes, metric, then the goal test: (lo & need_lo) == want_lo and (hi & need_hi) == want_hi
G_CELLS, G_PLANES, G_CLASSES, G_METRIC, G_NEED_LO, G_NEED_HI, G_WANT_LO, G_WANT_HI = range(8)

_DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_TABLE = np.zeros(64, np.int64)
for _i in range(64):
    _DEBRUIJN_TABLE[((_DEBRUIJN << _i) & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


@njit(cache=True, inline="always")
def _ctz(x):
    """The index of the lowest set bit of a nonzero 64-bit integer."""
    return _DEBRUIJN_TABLE[(((x & -x) * _DEBRUIJN) >> 58) & 63]


@njit(cache=True, inline="always")
def _slot(lo, hi, mask):
    return (((lo ^ (hi * MUL2)) * MUL1) >> 24) & mask


@njit(cache=True, inline="always")
def _plane(lo, hi, j, n):
    """Plane ``j`` (bits j*n .. j*n+n-1 of the 128-bit key) as an n-bit mask."""
    s = j * n
    if s >= 64:
        v = hi >> (s - 64)
    elif s == 0:
        v = lo
    else:
        v = ((lo >> s) & ((1 << (64 - s)) - 1)) | (hi << (64 - s))
    if n < 64:
        v &= (1 << n) - 1
    return v


@njit(cache=True)
def decode(lo, hi, geo, cover, tops):
    """Fill ``tops[k]`` with the top-left cells of class k's pieces; return the occupancy."""
    n, planes, classes = geo[G_CELLS], geo[G_PLANES], geo[G_CLASSES]
    full = -1 if n == 64 else (1 << n) - 1
    p0 = _plane(lo, hi, 0, n)
    p1 = _plane(lo, hi, 1, n) if planes > 1 else 0
    p2 = _plane(lo, hi, 2, n) if planes > 2 else 0
    p3 = _plane(lo, hi, 3, n) if planes > 3 else 0
    occ = 0
    for k in range(classes):
        c = k + 1
        m = p0 if c & 1 else full ^ p0
        if planes > 1:
            m &= p1 if c & 2 else full ^ p1
        if planes > 2:
            m &= p2 if c & 4 else full ^ p2
        if planes > 3:
            m &= p3 if c & 8 else full ^ p3
        tops[k] = m
        rest = m
        while rest:
            p = _ctz(rest)
            rest &= rest - 1
            occ |= cover[k * n + p]
    return occ


@njit(cache=True)
def expand(lo, hi, geo, cover, flip, step_to, tops, out, spots):
    """Write the key of every position one move from (lo, hi) (in ``geo``'s metric) to
    ``out`` (two words each); return how many. Children may repeat (the set drops them)."""
    n, classes, metric = geo[G_CELLS], geo[G_CLASSES], geo[G_METRIC]
    occ = decode(lo, hi, geo, cover, tops)
    count = 0
    for k in range(classes):
        rest_tops = tops[k]
        while rest_tops:
            p = _ctz(rest_tops)
            rest_tops &= rest_tops - 1
            g = k * n + p
            rest = occ ^ cover[g]
            base_lo = lo ^ flip[2 * g]
            base_hi = hi ^ flip[2 * g + 1]
            if metric == PIECE:
                seen = 1 << p
                spots[0] = g
                top, end = 0, 1
                while top < end:
                    x = spots[top]
                    top += 1
                    for d in range(4):
                        g2 = step_to[x * 4 + d]
                        if g2 < 0 or cover[g2] & rest:
                            continue
                        bit = 1 << (g2 - k * n)
                        if seen & bit:
                            continue
                        seen |= bit
                        spots[end] = g2
                        end += 1
                        out[2 * count] = base_lo ^ flip[2 * g2]
                        out[2 * count + 1] = base_hi ^ flip[2 * g2 + 1]
                        count += 1
            else:
                for d in range(4):
                    x = g
                    while True:
                        g2 = step_to[x * 4 + d]
                        if g2 < 0 or cover[g2] & rest:
                            break
                        out[2 * count] = base_lo ^ flip[2 * g2]
                        out[2 * count + 1] = base_hi ^ flip[2 * g2 + 1]
                        count += 1
                        if metric == STEP:
                            break
                        x = g2
    return count


@njit(cache=True, inline="always")
def is_goal(lo, hi, geo):
    return (lo & geo[G_NEED_LO]) == geo[G_WANT_LO] and (hi & geo[G_NEED_HI]) == geo[G_WANT_HI]


@njit(cache=True)
def find(lo, hi, table):
    """The slot of key (lo, hi) in ``table``, or -1."""
    mask = table.size // 2 - 1
    h = _slot(lo, hi, mask)
    while True:
        a, b = table[2 * h], table[2 * h + 1]
        if a == lo and b == hi:
            return h
        if a == 0 and b == 0:
            return -1
        h = (h + 1) & mask


@njit(cache=True)
def insert(lo, hi, table):
    """Put key (lo, hi) into ``table``; return its slot, or -1 when it was there already."""
    mask = table.size // 2 - 1
    h = _slot(lo, hi, mask)
    while True:
        a, b = table[2 * h], table[2 * h + 1]
        if a == 0 and b == 0:
            table[2 * h] = lo
            table[2 * h + 1] = hi
            return h
        if a == lo and b == hi:
            return -1
        h = (h + 1) & mask


@njit(cache=True)
def fill(keys, count, table):
    """Put ``keys[:count]`` (two words each) into the empty ``table``."""
    for i in range(count):
        insert(keys[2 * i], keys[2 * i + 1], table)


@njit(cache=True)
def bfs_run(ctx, geo, cover, flip, step_to, keys, parent, table, limit):
    """Breadth-first search from ``keys[0]`` for about ``limit`` units of work.

    Returns DONE (the group is exhausted), FOUND (a goal was stored at
    ``ctx[GOAL_AT]``; only with ``ctx[STOP_AT_GOAL]``), FULL (``keys`` or
    ``table`` must grow before the next call) or PAUSED. ``parent[i]`` is the
    index position i was first reached from (-1 for the start).
    """
    n = geo[G_CELLS]
    tops = np.zeros(geo[G_CLASSES], np.int64)
    spots = np.zeros(n, np.int64)
    out = np.zeros(2 * (n * n * 4 + 4), np.int64)
    most = out.size // 2
    head, count = ctx[HEAD], ctx[COUNT]
    stop_at_goal = ctx[STOP_AT_GOAL]
    done = 0
    while head < count:
        if done >= limit:
            ctx[HEAD], ctx[COUNT] = head, count
            return PAUSED
        if 2 * (count + most) > keys.size or 2 * (count + most) > table.size // 2:
            ctx[HEAD], ctx[COUNT] = head, count
            return FULL
        if head == ctx[LAYER_END]:
            ctx[DEPTH] += 1
            ctx[LAYER_END] = count
        made = expand(
            keys[2 * head], keys[2 * head + 1], geo, cover, flip, step_to, tops, out, spots
        )
        for j in range(made):
            lo, hi = out[2 * j], out[2 * j + 1]
            if insert(lo, hi, table) < 0:
                continue
            keys[2 * count] = lo
            keys[2 * count + 1] = hi
            parent[count] = head
            count += 1
            if stop_at_goal and is_goal(lo, hi, geo):
                ctx[HEAD], ctx[COUNT] = head + 1, count
                ctx[GOAL_AT] = count - 1
                return FOUND
        head += 1
        done += 1 + made
    ctx[HEAD], ctx[COUNT] = head, count
    return DONE


@njit(cache=True)
def goal_distances(geo, cover, flip, step_to, keys, count, table, dist, queue, limit, ctx):
    """Distance to the nearest goal of every position of a whole group, by breadth-first
    search from all its goals at once: ``dist[slot]`` for the key in ``table``'s slot,
    -1 where no goal is reachable. ``keys[:count]`` lists the group.

    Resumable like :func:`bfs_run`: ``ctx[0]`` is the queue head, ``ctx[1]`` its
    length (both 0 on the first call: the goals are queued then). ``queue``
    holds slots. Returns DONE or PAUSED.
    """
    n = geo[G_CELLS]
    tops = np.zeros(geo[G_CLASSES], np.int64)
    spots = np.zeros(n, np.int64)
    out = np.zeros(2 * (n * n * 4 + 4), np.int64)
    head, tail = ctx[0], ctx[1]
    if tail == 0 and head == 0:
        for i in range(count):
            lo, hi = keys[2 * i], keys[2 * i + 1]
            if is_goal(lo, hi, geo):
                h = find(lo, hi, table)
                dist[h] = 0
                queue[tail] = h
                tail += 1
    done = 0
    while head < tail:
        if done >= limit:
            ctx[0], ctx[1] = head, tail
            return PAUSED
        h = queue[head]
        head += 1
        d = dist[h] + 1
        made = expand(table[2 * h], table[2 * h + 1], geo, cover, flip, step_to, tops, out, spots)
        done += 1 + made
        for j in range(made):
            t = find(out[2 * j], out[2 * j + 1], table)
            if t >= 0 and dist[t] < 0:
                dist[t] = d
                queue[tail] = t
                tail += 1
    ctx[0], ctx[1] = head, tail
    return DONE


@njit(cache=True)
def smallest(table, slots, geo, cover):
    """The slot, among ``slots``, of the key that is least as the library's canonical key
    (the integer with bit ``class * cells + top`` per piece: compared by the last class's
    top-left mask first, as unsigned numbers)."""
    classes = geo[G_CLASSES]
    best = np.zeros(classes, np.int64)
    tops = np.zeros(classes, np.int64)
    sign = -9223372036854775808  # flips the sign bit: signed order becomes unsigned order
    found = -1
    for i in range(slots.size):
        h = slots[i]
        decode(table[2 * h], table[2 * h + 1], geo, cover, tops)
        less = found < 0
        if not less:
            for k in range(classes - 1, -1, -1):
                a, b = tops[k] ^ sign, best[k] ^ sign
                if a != b:
                    less = a < b
                    break
        if less:
            found = h
            best[:] = tops
    return found
