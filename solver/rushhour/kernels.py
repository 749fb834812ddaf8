"""Rush Hour's compiled inner loops (numba): breadth-first search over packed keys.

Only numpy arrays and integers cross into these functions. Importing this module
imports numba; the first call of each function loads its machine code from numba's
cache (``cache=True``) or compiles it once per machine, so only clusters big enough
to pay for that come here (:mod:`solver.rushhour.tables` decides).

A position is one int64: vehicle ``i``'s offset in bits ``3i`` to ``3i+2``
(:mod:`solver.rushhour.moves`). A layout crosses as ``cover`` (vehicle ``i`` at
offset ``o`` covers the cells ``cover[i * 8 + o]``, a 36-bit mask), ``tops`` (each
vehicle's largest offset) and ``geo`` (vehicle count, walls, the red car's offset at
the exit). The visited set is open addressing in one flat array, ``table`` (a power
of two slots, at most half full, -1 an empty slot: keys are never negative); the
breadth-first queue is ``keys`` in the order reached, ``parent`` beside it. The
searches work in slices of about ``limit`` units of work (a position expanded, a
child looked up) and keep their whole state in arrays and a context vector, so the
Python driver checks budget, cancel and progress between slices and grows the arrays
when they fill.

:func:`placements_run` is the hardest-start search over every placement of a vehicle
set (:mod:`solver.rushhour.placements`): it walks the placements in which no vehicle
can slide back (left or up) and measures each cluster once, from its least position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: a vehicle's offsets take 8 slots of ``cover`` (at most 5 are used)
STRIDE = 8
# bfs_run's answers
DONE, PAUSED, FULL, FOUND = 0, 1, 2, 3
# ctx slots: queue head, positions stored, end of the current layer, depth, the goal
# found, stop at the first goal (1) or exhaust the cluster (0)
HEAD, COUNT, LAYER_END, DEPTH, GOAL_AT, STOP_AT_GOAL = range(6)
CTX_SIZE = 8
# geo slots: vehicles, walls, the red car's offset at the exit
G_COUNT, G_WALLS, G_GOAL = range(3)
#: the visited set's hash multiplier (0x9E3779B97F4A7C15 as a signed 64-bit integer);
#: lookups from Python hash the same way
MUL = -7046029254386353131
#: the most children one position has (18 vehicles, 4 slides each way at most)
MAX_CHILDREN = 80
EMPTY = -1


@njit(cache=True, inline="always")
def _slot(key, mask):
    return ((key * MUL) >> 24) & mask


@njit(cache=True)
def expand(key, geo, cover, tops, out):
    """Write every position one slide from ``key`` to ``out``; return how many."""
    count = geo[G_COUNT]
    occ = geo[G_WALLS]
    for i in range(count):
        occ |= cover[i * STRIDE + ((key >> (3 * i)) & 7)]
    made = 0
    for i in range(count):
        shift = 3 * i
        at = (key >> shift) & 7
        row = i * STRIDE
        rest = occ ^ cover[row + at]
        base = key - (at << shift)
        to = at - 1
        while to >= 0 and (cover[row + to] & rest) == 0:
            out[made] = base + (to << shift)
            made += 1
            to -= 1
        to = at + 1
        top = tops[i]
        while to <= top and (cover[row + to] & rest) == 0:
            out[made] = base + (to << shift)
            made += 1
            to += 1
    return made


@njit(cache=True)
def find(key, table):
    """The slot of ``key`` in ``table``, or -1."""
    mask = table.size - 1
    h = _slot(key, mask)
    while True:
        there = table[h]
        if there == key:
            return h
        if there == EMPTY:
            return -1
        h = (h + 1) & mask


@njit(cache=True)
def insert(key, table):
    """Put ``key`` into ``table``; return its slot, or -1 when it was there already."""
    mask = table.size - 1
    h = _slot(key, mask)
    while True:
        there = table[h]
        if there == EMPTY:
            table[h] = key
            return h
        if there == key:
            return -1
        h = (h + 1) & mask


@njit(cache=True)
def fill(keys, count, table):
    """Put ``keys[:count]`` into the empty ``table``."""
    for i in range(count):
        insert(keys[i], table)


@njit(cache=True)
def bfs_run(ctx, geo, cover, tops, keys, parent, table, limit):
    """Breadth-first search from ``keys[0]`` for about ``limit`` units of work.

    Returns DONE (the cluster is exhausted), FOUND (a goal was stored at
    ``ctx[GOAL_AT]``; only with ``ctx[STOP_AT_GOAL]``), FULL (``keys`` or ``table``
    must grow before the next call) or PAUSED. ``parent[i]`` is the index position
    i was first reached from (-1 for the start).
    """
    out = np.empty(MAX_CHILDREN, np.int64)
    goal = geo[G_GOAL]
    head, count = ctx[HEAD], ctx[COUNT]
    stop_at_goal = ctx[STOP_AT_GOAL]
    done = 0
    while head < count:
        if done >= limit:
            ctx[HEAD], ctx[COUNT] = head, count
            return PAUSED
        if count + MAX_CHILDREN > keys.size or 2 * (count + MAX_CHILDREN) > table.size:
            ctx[HEAD], ctx[COUNT] = head, count
            return FULL
        if head == ctx[LAYER_END]:
            ctx[DEPTH] += 1
            ctx[LAYER_END] = count
        made = expand(keys[head], geo, cover, tops, out)
        for j in range(made):
            child = out[j]
            if insert(child, table) < 0:
                continue
            keys[count] = child
            parent[count] = head
            count += 1
            if stop_at_goal and (child & 7) == goal:
                ctx[HEAD], ctx[COUNT] = head + 1, count
                ctx[GOAL_AT] = count - 1
                return FOUND
        head += 1
        done += 1 + made
    ctx[HEAD], ctx[COUNT] = head, count
    return DONE


@njit(cache=True)
def goal_distances(geo, cover, tops, keys, count, table, dist, queue, limit, ctx):
    """Distance to the nearest goal of every position of a whole cluster, by breadth-first
    search from all its goals at once: ``dist[slot]`` for the key in ``table``'s slot,
    -1 where no goal is reachable. ``keys[:count]`` lists the cluster.

    Resumable like :func:`bfs_run`: ``ctx[0]`` is the queue head, ``ctx[1]`` its
    length (both 0 on the first call: the goals are queued then). Returns DONE or PAUSED.
    """
    out = np.empty(MAX_CHILDREN, np.int64)
    goal = geo[G_GOAL]
    head, tail = ctx[0], ctx[1]
    if tail == 0 and head == 0:
        for i in range(count):
            if (keys[i] & 7) == goal:
                h = find(keys[i], table)
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
        made = expand(table[h], geo, cover, tops, out)
        done += 1 + made
        for j in range(made):
            t = find(out[j], table)
            if dist[t] < 0:
                dist[t] = d
                queue[tail] = t
                tail += 1
    ctx[0], ctx[1] = head, tail
    return DONE


# -- every placement of a vehicle set --------------------------------------------------

# vehicle types of a placement search: the red car, then horizontal 2 and 3, vertical 2 and 3
RED_TYPE, H2, H3, V2, V3 = range(5)
TYPES = 5
# pctx slots: the walk's depth, a placement waiting to be measured (1), placements
# measured, clusters, solvable clusters, positions in clusters, empty cells left to
# place, the visited set's stamp (a slot is taken when its stamp is the current one,
# so no set is cleared between clusters), top boards kept, units of work done
P_DEPTH, P_PENDING, P_LEAVES, P_GROUPS, P_SOLVABLE, P_POSITIONS, P_BLANKS = range(7)
P_STAMP, P_TOP_FILL, P_WORK = 7, 8, 9
PCTX_SIZE = 16
# pgeo slots: walls, the red car's length, the number of top boards kept, the clusters
# sampled per distance (0: none; ``picks`` holds hash, size and ties of each)
Q_WALLS, Q_RED, Q_TOP, Q_PICK = range(4)
#: the greatest distance a sample is kept for (a 6x6 cluster's farthest is far less)
MAX_PICK_DISTANCE = 255
P_FULL = 2  # placements_run's answer when the arrays must grow (DONE and PAUSED as above)


@njit(cache=True, inline="always")
def _type_length(t, red):
    if t == RED_TYPE:
        return red
    return 2 if t in (H2, V2) else 3


@njit(cache=True)
def _fits(t, cell, filled, occ, red):
    """The cells a vehicle of type ``t`` with its first cell at ``cell`` covers, or 0 when
    it does not fit, or could slide back (left or up): only placements where no vehicle
    can are searched, every cluster's least position among them."""
    r = cell // 6
    c = cell - 6 * r
    length = _type_length(t, red)
    if t <= H3:
        if t == RED_TYPE and r != 2:
            return 0
        if c + length > 6:
            return 0
        if c > 0 and (occ >> (cell - 1)) & 1 == 0:
            return 0  # the cell on its left is free: it could slide back
        cells = ((1 << length) - 1) << cell
    else:
        if r + length > 6:
            return 0
        if r > 0 and (occ >> (cell - 6)) & 1 == 0:
            return 0
        cells = 0
        for k in range(length):
            cells |= 1 << (cell + 6 * k)
    if cells & filled:
        return 0
    return cells


@njit(cache=True)
def _lowest_free(filled):
    for cell in range(36):
        if (filled >> cell) & 1 == 0:
            return cell
    return 36


@njit(cache=True)
def _advance(pctx, pgeo, counts, cell_at, choice, filled_at, occ_at):
    """Move the walk over placements to its next complete one (True), or past the last
    (False). Choices at a cell: 0 blank, 1 + type a vehicle's first cell."""
    red = pgeo[Q_RED]
    d = pctx[P_DEPTH]
    while d >= 0:
        ch = choice[d]
        if ch == 0:
            pctx[P_BLANKS] += 1
        elif ch > 0:
            counts[ch - 1] += 1
        cell, filled, occ = cell_at[d], filled_at[d], occ_at[d]
        ch += 1
        cells = 0
        while ch <= TYPES:
            if ch == 0:
                if pctx[P_BLANKS] > 0:
                    cells = 1 << cell
                    break
            elif counts[ch - 1] > 0:
                cells = _fits(ch - 1, cell, filled, occ, red)
                if cells:
                    break
            ch += 1
        if ch > TYPES:
            choice[d] = -1
            d -= 1
            continue
        choice[d] = ch
        if ch == 0:
            pctx[P_BLANKS] -= 1
            new_occ = occ
        else:
            counts[ch - 1] -= 1
            new_occ = occ | cells
        new_filled = filled | cells
        nxt = _lowest_free(new_filled)
        if nxt == 36:
            pctx[P_DEPTH] = d
            return True
        d += 1
        cell_at[d], filled_at[d], occ_at[d] = nxt, new_filled, new_occ
        choice[d] = -1
    pctx[P_DEPTH] = d
    return False


@njit(cache=True)
def _find_stamped(key, table, stamps, stamp):
    """The slot of ``key`` in the stamped visited set, or -1."""
    mask = table.size - 1
    h = _slot(key, mask)
    while stamps[h] == stamp:
        if table[h] == key:
            return h
        h = (h + 1) & mask
    return -1


@njit(cache=True)
def _measure(
    pctx,
    pgeo,
    cell_at,
    choice,
    geo,
    cover,
    tops,
    keys,
    table,
    stamps,
    dist,
    goals,
    top_d,
    top_size,
    top_ties,
    top_cells,
    by_distance,
    picks,
    pick_cells,
    pick_fill,
):
    """Measure the cluster of the complete placement on the walk's stack, if it is the
    cluster's least position. Returns 0, or P_FULL when the cluster outgrew the arrays
    (nothing is counted then: the caller grows them and asks again)."""
    red = pgeo[Q_RED]
    d = pctx[P_DEPTH]
    # the vehicles, canonical order: the red car, horizontal ones by cell (the walk's
    # order), vertical ones by column then row
    n = 0
    start = 0
    for k in range(d + 1):
        ch = choice[k]
        if ch - 1 == RED_TYPE:
            _vehicle(0, RED_TYPE, cell_at[k], red, cover, tops)
            start |= cell_at[k] % 6
            n += 1
    for k in range(d + 1):
        ch = choice[k]
        if ch - 1 == H2 or ch - 1 == H3:
            _vehicle(n, ch - 1, cell_at[k], red, cover, tops)
            start |= (cell_at[k] % 6) << (3 * n)
            n += 1
    firsts = n
    for k in range(d + 1):
        ch = choice[k]
        if ch - 1 == V2 or ch - 1 == V3:
            # insertion by (column, row)
            cell = cell_at[k]
            j = n
            while j > firsts and _column_order(keys, j - 1) > (cell % 6) * 6 + cell // 6:
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = (cell % 6) * 6 + cell // 6 + 64 * (ch - 1)
            n += 1
    for j in range(firsts, n):
        code = keys[j]
        t = code // 64
        order = code % 64
        cell = (order % 6) * 6 + order // 6
        _vehicle(j, t, cell, red, cover, tops)
        start |= (cell // 6) << (3 * j)
    geo[G_COUNT] = n
    goal = 6 - red
    geo[G_GOAL] = goal
    # the cluster, breadth-first, given up at the first position less than the start
    out = np.empty(MAX_CHILDREN, np.int64)
    stamp = pctx[P_STAMP] + 1
    pctx[P_STAMP] = stamp
    mask = table.size - 1
    most = table.size // 2
    h = _slot(start, mask)
    table[h] = start
    stamps[h] = stamp
    keys[0] = start
    count = 1
    head = 0
    found_goals = 0
    while head < count:
        key = keys[head]
        if (key & 7) == goal:
            goals[found_goals] = key
            found_goals += 1
        head += 1
        made = expand(key, geo, cover, tops, out)
        pctx[P_WORK] += 1 + made
        for j in range(made):
            child = out[j]
            if child < start:
                return 0  # not the least: that one measures this cluster
            h = _slot(child, mask)
            while stamps[h] == stamp and table[h] != child:
                h = (h + 1) & mask
            if stamps[h] == stamp:
                continue
            if count >= most or count >= keys.size:
                return P_FULL
            stamps[h] = stamp
            table[h] = child
            keys[count] = child
            count += 1
    pctx[P_GROUPS] += 1
    pctx[P_POSITIONS] += count
    if found_goals == 0:
        return 0
    pctx[P_SOLVABLE] += 1
    # distances from every goal at once; the queue reuses ``keys``
    for i in range(count):
        dist[_find_stamped(keys[i], table, stamps, stamp)] = -1
    tail = 0
    for i in range(found_goals):
        h = _find_stamped(goals[i], table, stamps, stamp)
        dist[h] = 0
        keys[tail] = goals[i]
        tail += 1
    head = 0
    far = 0
    while head < tail:
        key = keys[head]
        head += 1
        dk = dist[_find_stamped(key, table, stamps, stamp)] + 1
        made = expand(key, geo, cover, tops, out)
        pctx[P_WORK] += 1 + made
        for j in range(made):
            h = _find_stamped(out[j], table, stamps, stamp)
            if dist[h] < 0:
                dist[h] = dk
                keys[tail] = out[j]
                tail += 1
                far = dk
    by_distance[far] += 1
    # keep the hardest starts: the top boards, farthest first (earlier found first), and
    # with samples, up to ``pgeo[Q_PICK]`` clusters of each distance (those whose hardest
    # start hashes lowest: a spread over the walk, the same on every run)
    kept = pctx[P_TOP_FILL]
    room = pgeo[Q_TOP]
    to_top = not (kept == room and top_d[kept - 1] >= far)
    per = pgeo[Q_PICK]
    if not to_top and per == 0:
        return 0
    ties = 0
    least = -1
    for i in range(count - 1, -1, -1):
        key = keys[i]
        if dist[_find_stamped(key, table, stamps, stamp)] != far:
            break
        ties += 1
        if least < 0 or key < least:
            least = key
    if per > 0:
        mixed = least * MUL
        j = far * per + pick_fill[far]
        if pick_fill[far] < per:
            pick_fill[far] += 1
        else:  # full: the one that hashes highest goes, if this one hashes lower
            j = far * per
            for s in range(far * per + 1, (far + 1) * per):
                if picks[3 * s] > picks[3 * j]:
                    j = s
            if picks[3 * j] <= mixed:
                j = -1
        if j >= 0:
            picks[3 * j], picks[3 * j + 1], picks[3 * j + 2] = mixed, count, ties
            _write_cells(pick_cells, j, pgeo[Q_WALLS], cover, n, least)
    if not to_top:
        return 0
    j = kept if kept < room else room - 1
    while j > 0 and top_d[j - 1] < far:
        if j < room:
            top_d[j] = top_d[j - 1]
            top_size[j] = top_size[j - 1]
            top_ties[j] = top_ties[j - 1]
            for c in range(36):
                top_cells[36 * j + c] = top_cells[36 * (j - 1) + c]
        j -= 1
    top_d[j] = far
    top_size[j] = count
    top_ties[j] = ties
    _write_cells(top_cells, j, pgeo[Q_WALLS], cover, n, least)
    if kept < room:
        pctx[P_TOP_FILL] = kept + 1
    return 0


@njit(cache=True)
def _write_cells(cells_out, j, walls, cover, n, key):
    """Board ``j`` of ``cells_out`` (36 codes each): -1 a wall, 0 empty, vehicle index + 1."""
    for c in range(36):
        cells_out[36 * j + c] = -1 if (walls >> c) & 1 else 0
    for i in range(n):
        cells = cover[i * STRIDE + ((key >> (3 * i)) & 7)]
        for c in range(36):
            if (cells >> c) & 1:
                cells_out[36 * j + c] = i + 1


@njit(cache=True, inline="always")
def _column_order(keys, j):
    return keys[j] % 64


@njit(cache=True)
def _vehicle(i, t, cell, red, cover, tops):
    """Lay vehicle ``i`` (type ``t``, first cell ``cell``) out in ``cover`` and ``tops``."""
    length = _type_length(t, red)
    r = cell // 6
    c = cell - 6 * r
    for o in range(STRIDE):
        cover[i * STRIDE + o] = 0
    for o in range(7 - length):
        cells = 0
        for k in range(length):
            if t <= H3:
                cells |= 1 << (r * 6 + o + k)
            else:
                cells |= 1 << ((o + k) * 6 + c)
        cover[i * STRIDE + o] = cells
    tops[i] = 6 - length


@njit(cache=True)
def placements_run(
    pctx,
    pgeo,
    counts,
    cell_at,
    choice,
    filled_at,
    occ_at,
    geo,
    cover,
    tops,
    keys,
    table,
    stamps,
    dist,
    goals,
    top_d,
    top_size,
    top_ties,
    top_cells,
    by_distance,
    picks,
    pick_cells,
    pick_fill,
    limit,
):
    """Walk the placements (those where no vehicle can slide back) for about ``limit``
    units of work, measuring each cluster from its least position: DONE when every
    placement is walked, PAUSED, or P_FULL when a cluster needs bigger arrays (the
    same placement is measured again on the next call)."""
    start_work = pctx[P_WORK]
    while True:
        if pctx[P_PENDING]:
            status = _measure(
                pctx,
                pgeo,
                cell_at,
                choice,
                geo,
                cover,
                tops,
                keys,
                table,
                stamps,
                dist,
                goals,
                top_d,
                top_size,
                top_ties,
                top_cells,
                by_distance,
                picks,
                pick_cells,
                pick_fill,
            )
            if status == P_FULL:
                return P_FULL
            pctx[P_PENDING] = 0
            pctx[P_LEAVES] += 1
        if pctx[P_WORK] - start_work >= limit:
            return PAUSED
        if not _advance(pctx, pgeo, counts, cell_at, choice, filled_at, occ_at):
            return DONE
        pctx[P_PENDING] = 1
        pctx[P_WORK] += 1
