"""Shorter ways between two positions of an answer, searched over the pattern databases.

Tiles are only names, so the fewest moves from position a to position b equal
those from pi(a) to the goal, where pi renames each tile after the cell it
holds in b (the tile on cell c becomes tile c+1, whose home c is). The blank's
cells along a way are the same in both, so a way found from pi(a) applies to a
unchanged, and the compiled IDA* over the 6-6-6-6 databases (with its upper
cut) finds the shortest way of a window far longer than the Manhattan distance
alone can search.

When b's blank is not on the goal's blank cell g, b has a tile on g and no
tile on its blank's cell z: that tile is named z+1 (the name left over) and
its Manhattan distance is counted to g. Two kinds of group then bound no way
to pi(b): the one holding z+1 (its home is no longer its target) and one whose
home placement walls g off from z (the blank-tracked entries count the moves
that bring the blank back into g's pocket). Their excesses are dropped
(:attr:`~solver.npuzzle.packed_search.PackedSearch.use`), in each view
separately; the rest still sums an admissible bound. When a's blank is on g
and b's is not, the way is searched from b to a and turned round, with every
group kept.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from ..core.results import Budget, Monitor
from .rules import mirror_cells, mirror_tiles


class _Spent(Exception):
    """A window's node budget ran out (the caller's own budget raises StopSearch)."""


class _WindowMonitor(Monitor):
    """Counts one window's nodes; every check also checks the caller's budget and cancel."""

    def __init__(self, outer: Monitor, limit: int):
        super().__init__(Budget(max_nodes=limit))
        self.outer = outer

    def check(self, depth: int = 0, frontier: int = 0) -> None:
        self.outer.check(depth, frontier)
        if self.count >= (self.budget.max_nodes or 0):
            raise _Spent


def _reaches(n: int, walls: set[int], source: int, target: int) -> bool:
    """True when the blank can walk from ``source`` to ``target`` around ``walls``."""
    seen, todo = {source}, [source]
    while todo:
        c = todo.pop()
        if c == target:
            return True
        r, k = divmod(c, n)
        for q in (
            c - n if r else -1,
            c + n if r < n - 1 else -1,
            c - 1 if k else -1,
            c + 1 if k < n - 1 else -1,
        ):
            if q >= 0 and q not in walls and q not in seen:
                seen.add(q)
                todo.append(q)
    return False


def kept_views(search, blank: int) -> np.ndarray:
    """``use`` for a target whose blank is on cell ``blank`` (the goal's cell: every view)."""
    n = search.n
    cells = n * n
    goal = cells - 1
    groups = len(search.groups)
    use = np.ones(2 * groups, np.int64)
    if blank == goal:
        return use
    spare = blank + 1  # the name of the tile on the goal's blank cell
    mtile, mcell = mirror_tiles(n), mirror_cells(n)
    for g, tiles in enumerate(search.groups):
        homes = {t - 1 for t in tiles}
        if spare in tiles or not _reaches(n, homes, goal, blank):
            use[g] = 0
        if mtile[spare] in tiles or not _reaches(n, homes, goal, mcell[blank]):
            use[groups + g] = 0
    return use


def relabeled(search, a: Sequence[int], b: Sequence[int]):
    """pi(a) and a copy of ``search`` whose goal is pi(b) (see the module's docstring)."""
    n = search.n
    cells = n * n
    goal = cells - 1
    blank = list(b).index(0)
    name = [0] * cells
    for c, t in enumerate(b):
        if t:
            name[t] = c + 1 if c != goal else blank + 1
    window = copy.copy(search)
    window.use = kept_views(search, blank)
    if blank != goal:
        spare = blank + 1
        md = search.md.copy()
        gr, gc = divmod(goal, n)
        for c in range(cells):
            r, k = divmod(c, n)
            md[spare * cells + c] = abs(r - gr) + abs(k - gc)
        window.md = md
    return tuple(name[t] if t else 0 for t in a), window


def way_between(
    search, a: Sequence[int], b: Sequence[int], longest: int, limit: int, outer: Monitor
) -> list[int] | None:
    """The cells of a shortest way from ``a`` to ``b`` of at most ``longest`` moves, or
    None (none that short, or ``limit`` nodes spent first). The nodes count in
    ``outer``, whose budget and cancel stop the search (StopSearch)."""
    cells = len(a)
    goal = cells - 1
    turned = list(a).index(0) == goal and list(b).index(0) != goal
    if turned:
        a, b = b, a
    start, window = relabeled(search, a, b)
    mon = _WindowMonitor(outer, limit)
    try:
        way = window.search(start, mon, upper=longest + 1)
    except _Spent:
        way = None
    finally:
        outer.count += mon.count
    if way is None or not turned:
        return way
    blanks = [list(a).index(0), *way]  # the blank's cells from b (now a) to a (now b)
    return blanks[-2::-1]
