"""Building N-puzzle pattern databases: a compiled breadth-first sweep, and a plain one to check it.

A *pattern* is a group of tiles. Its database holds, for every placement of
those tiles, the fewest moves *of the group's tiles* that bring them all home
(Korf and Felner 2002). Moves of other tiles cost nothing, so the databases of
disjoint groups add up to a lower bound.

Two kinds:

* *tracked* (boards up to 4x4): the blank's position is part of the search.
  It walks free over other tiles' cells but cannot pass the group's own tiles
  without moving them, and a group tile moves only into the blank. States are
  (placement, blank region), the region named by its lowest cell; the table
  keeps, per placement, the minimum over regions. On the 15-puzzle's 6-6-3
  split this lifts the mean bound on Korf's 100 from 39.0 to 41.3.
* *free* (5x5 and up): a group tile may slide into any cell no group tile
  holds. Weaker, but one byte per placement and no region bookkeeping.

A placement of tiles ``g_0 .. g_{k-1}`` at cells ``c_0 .. c_{k-1}`` on C cells
is indexed by ``sum(c_i * C**i)`` (on 4x4, ``sum(c_i << 4*i)``), so a move
updates an index by one addition (:mod:`solver.npuzzle.kernels`). Each
breadth-first layer is one compiled call; between layers the builder reports
progress. :func:`build_plain` is the obvious Python search, kept small and
slow: the tests compare the two.
"""

from __future__ import annotations

import importlib
import time
from collections import deque
from collections.abc import Callable, Sequence
from functools import cache

from ..core.results import Progress
from .rules import around

UNSEEN = 255
#: the largest board whose databases track the blank (their region tables grow as 2**cells)
TRACKED_MAX_CELLS = 16


def home_index(group: Sequence[int], n: int = 4) -> int:
    """The index of the goal placement (tile t lives at cell t-1)."""
    cells = n * n
    return sum((t - 1) * cells**i for i, t in enumerate(group))


def compiled():
    """The compiled kernels (:mod:`solver.npuzzle.kernels`), imported on first use: importing
    them loads numba, which the 3x3 and the other games never need."""
    return importlib.import_module(".kernels", __package__)


@cache
def regions(n: int):
    """The blank's reach and region names of every free-cell mask (16 cells at most)."""
    return compiled().region_tables(n)


def build_pattern(
    group: Sequence[int],
    n: int = 4,
    *,
    tracked: bool | None = None,
    progress: Callable[[Progress], None] | None = None,
    stage: str = "",
) -> bytes:
    """The database of ``group`` on an n x n board as bytes (``UNSEEN`` where no placement).

    ``tracked`` defaults to True up to 4x4 (region tables); larger boards may
    ask for it too (each region found by a flood fill: slower). ``progress`` hears after every
    breadth-first layer (nodes = states reached so far, depth = the layer).
    """
    import numpy as np

    kernels = compiled()

    cells = n * n
    k = len(group)
    if tracked is None:
        tracked = cells <= TRACKED_MAX_CELLS
    home = home_index(group, n)
    started = time.monotonic()
    flooded = tracked and cells > TRACKED_MAX_CELLS
    if flooded:
        dist = np.full(cells**k * cells, UNSEEN, np.uint8)
        free = ((1 << cells) - 1) & ~sum(1 << (t - 1) for t in group)
        start = home * cells + _lowest_reachable(free, cells - 1, n)
    elif tracked:
        reach, name = regions(n)
        dist = np.full(cells**k * cells, UNSEEN, np.uint8)
        free = ((1 << cells) - 1) & ~sum(1 << (t - 1) for t in group)
        start = home * cells + int(name[free * cells + cells - 1])
    else:
        dist = np.full(cells**k, UNSEEN, np.uint8)
        start = home
    dist[start] = 0
    frontier = np.array([start], np.int64)
    depth, reached = 0, 1
    while frontier.size:
        depth += 1
        if flooded:
            frontier = kernels.flooded_layer(frontier, dist, depth, n, k)
        elif tracked:
            frontier = kernels.tracked_layer(frontier, dist, depth, n, k, reach, name)
        else:
            frontier = kernels.free_layer(frontier, dist, depth, n, k)
        reached += frontier.size
        if progress is not None:
            progress(
                Progress(
                    reached, depth, int(frontier.size), time.monotonic() - started, stage=stage
                )
            )
    table = kernels.least_over_regions(dist, cells) if tracked else dist
    return table.tobytes()


def _lowest_reachable(free: int, cell: int, n: int) -> int:
    """The lowest free cell the blank at ``cell`` can walk to (its region's name)."""
    seen, todo = {cell}, [cell]
    while todo:
        for q in around(n)[todo.pop()]:
            if (free >> q) & 1 and q not in seen:
                seen.add(q)
                todo.append(q)
    return min(seen)


def build_plain(group: Sequence[int], n: int = 4, tracked: bool = True) -> bytearray:
    """The same database by a plain search over (cells of the group, blank cell).

    Tracked: a blank step onto a free cell costs 0, a step onto a group tile
    (which slides that tile) costs 1: a 0-1 breadth-first search from the
    goal. Free: the group's tiles step to any cell none of them holds, cost 1.
    Small groups only (three or four tiles).
    """
    cells = n * n
    nb = around(n)
    table = bytearray([UNSEEN]) * (cells ** len(group))
    mults = [cells**i for i in range(len(group))]
    start = (tuple(t - 1 for t in group), cells - 1 if tracked else -1)
    best = {start: 0}
    queue = deque([(0, start)])
    while queue:
        d, (placed, blank) = queue.popleft()
        if best[(placed, blank)] < d:
            continue
        index = sum(c * m for c, m in zip(placed, mults, strict=True))
        if d < table[index]:
            table[index] = d
        if tracked:
            steps = []
            for q in nb[blank]:
                if q in placed:
                    steps.append(((tuple(blank if c == q else c for c in placed), q), 1))
                else:
                    steps.append(((placed, q), 0))
        else:
            steps = [
                ((placed[:i] + (q,) + placed[i + 1 :], -1), 1)
                for i, c in enumerate(placed)
                for q in nb[c]
                if q not in placed
            ]
        for child, cost in steps:
            if best.get(child, 1 << 30) > d + cost:
                best[child] = d + cost
                if cost:
                    queue.append((d + 1, child))
                else:
                    queue.appendleft((d, child))
    return table
