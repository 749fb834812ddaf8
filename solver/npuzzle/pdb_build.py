"""Building 15-puzzle pattern databases: a numpy breadth-first sweep, and a plain one to check it.

A *pattern* is a group of tiles. Its database holds, for every placement of
those tiles on the 16 cells, the fewest moves *of the group's tiles* that bring
them all home (Korf and Felner 2002). The other tiles are not tracked, so the
blank walks over their cells for free; but it cannot walk through the group's
own tiles without moving them, and a group tile moves only into the blank. The
blank's position is part of the search and the database keeps, per placement,
the minimum over where the blank is. Moves of other tiles cost nothing here,
so the databases of disjoint groups add up to a lower bound.

A placement of tiles ``g_0 .. g_{k-1}`` at cells ``c_0 .. c_{k-1}`` is indexed
by ``sum(c_i << 4*i)``. That wastes index space (2**24 bytes = 16 MiB for six
tiles, of which 5.8M entries are real) but lets the search update an index
with one addition per move instead of re-ranking a permutation per node, and
that matters more in Python than memory does.

:func:`build_numpy` searches (placement, blank region) pairs, where the region
is the set of free cells the blank can reach, named by its lowest cell; two
lookup tables over every 16-bit free-cell mask give a region and its name at
once. A whole breadth-first layer is expanded per numpy call: six tiles take
seconds instead of the minutes a Python loop would need. :func:`build_plain`
is the obvious Python search over (placement, blank cell), blank steps over
free cells costing 0, kept small and slow: the tests compare the two.
"""
from __future__ import annotations

from collections import deque
from typing import Sequence

from .rules import around

SIDE = 4
CELLS = SIDE * SIDE
UNSEEN = 255
GOAL_BLANK = CELLS - 1

#: cell -> cells next to it
AROUND = around(SIDE)


def home_index(group: Sequence[int]) -> int:
    """The index of the goal placement (tile t lives at cell t-1)."""
    return sum((t - 1) << (4 * i) for i, t in enumerate(group))


def _regions():
    """For every free-cell mask and cell: the blank's reachable cells and their lowest cell."""
    import numpy as np          # heavy: loaded only when a database is actually built

    masks = np.repeat(np.arange(1 << CELLS, dtype=np.int32), CELLS)
    cells = np.tile(np.arange(CELLS, dtype=np.int32), 1 << CELLS)
    reach = (np.int32(1) << cells) & masks
    col0 = sum(1 << (r * SIDE) for r in range(SIDE))
    col3 = col0 << (SIDE - 1)
    while True:
        grown = (reach | (reach << SIDE) | (reach >> SIDE) | ((reach << 1) & ~col0)
                 | ((reach >> 1) & ~col3)) & masks
        if np.array_equal(grown, reach):
            break
        reach = grown
    lowest = np.zeros(reach.shape, dtype=np.int32)
    low = reach & -reach
    for c in range(CELLS):
        lowest[low == (1 << c)] = c
    return reach, lowest


def build_numpy(group: Sequence[int]) -> bytes:
    """The database of ``group`` as bytes (``UNSEEN`` on indices that are no placement)."""
    import numpy as np          # heavy: loaded only when a database is actually built

    k = len(group)
    reach_of, name_of = _regions()
    full = (1 << CELLS) - 1
    dist = np.full((1 << (4 * k)) * CELLS, UNSEEN, dtype=np.uint8)
    home = home_index(group)
    free = full & ~sum(1 << (t - 1) for t in group)
    start = home * CELLS + int(name_of[free * CELLS + GOAL_BLANK])
    dist[start] = 0
    frontier = np.array([start], dtype=np.int32)
    steps = [(-SIDE, lambda c: c >= SIDE), (SIDE, lambda c: c < CELLS - SIDE),
             (-1, lambda c: (c & 3) != 0), (1, lambda c: (c & 3) != 3)]
    depth = 0
    while frontier.size:
        depth += 1
        placement, region = frontier >> 4, frontier & 15
        cells = [(placement >> (4 * i)) & 15 for i in range(k)]
        taken = np.zeros(frontier.shape, dtype=np.int32)
        for c in cells:
            taken |= np.int32(1) << c
        free = full & ~taken
        reach = reach_of[free * CELLS + region]
        for i, c in enumerate(cells):
            for step, allowed in steps:
                target = np.where(allowed(c), c + step, c)
                ok = ((reach >> target) & 1) == 1          # the blank can get there
                c_ok, target = c[ok], target[ok]
                after = free[ok] ^ (np.int32(1) << target) ^ (np.int32(1) << c_ok)
                children = ((placement[ok] + (step << (4 * i))) * CELLS
                            + name_of[after * CELLS + c_ok])
                children = children[dist[children] == UNSEEN]
                dist[children] = depth
        frontier = np.flatnonzero(dist == depth).astype(np.int32)
    return dist.reshape(-1, CELLS).min(axis=1).tobytes()


def build_plain(group: Sequence[int]) -> bytearray:
    """The same database by a plain search over (cells of the group, blank cell).

    A blank step onto a free cell costs 0, a step onto a group tile (which
    slides that tile) costs 1: a 0-1 breadth-first search from the goal.
    Small groups only (three or four tiles).
    """
    shifts = [4 * i for i in range(len(group))]
    table = bytearray([UNSEEN]) * (1 << (4 * len(group)))
    start = (tuple(t - 1 for t in group), GOAL_BLANK)
    best = {start: 0}
    queue = deque([(0, start)])
    while queue:
        d, (cells, blank) = queue.popleft()
        if best[(cells, blank)] < d:
            continue
        index = sum(c << s for c, s in zip(cells, shifts))
        if d < table[index]:
            table[index] = d
        for q in AROUND[blank]:
            if q in cells:
                child, cost = (tuple(blank if c == q else c for c in cells), q), 1
            else:
                child, cost = (cells, q), 0
            if best.get(child, 1 << 30) > d + cost:
                best[child] = d + cost
                if cost:
                    queue.append((d + 1, child))
                else:
                    queue.appendleft((d, child))
    return table
