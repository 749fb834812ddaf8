"""Optimal 15-puzzle search: IDA* over additive 6-6-3 pattern databases, plus the mirror.

Heuristic (Korf and Felner 2002). The 15 tiles are split into disjoint groups
of six, six and three. For each group a database holds the fewest moves *of
that group's tiles* needed to bring them home, whatever the other tiles do. A
real move moves one tile of one group, so the three counts add up to an
admissible lower bound. Building them with the blank's position tracked (it
walks free over other tiles' cells but must push the group's tiles) lifts the
average bound on Korf's 100 from 39.0 to 41.3. The same databases are read a
second time on the board mirrored in its main diagonal (which maps the goal to
itself), and the larger sum is used. On Korf's first instance this expands 0.48M positions where the
earlier 5-5-5 split needed 7.3M.

Databases. :mod:`solver.npuzzle.pdb_build` builds them with numpy (about
25 s per six-tile group) indexed by ``sum(cell_i << 4*i)``, so one move
updates an index by adding a constant: no re-ranking per node. A
:class:`~solver.core.tables.TableStore` saves them together with how long they took
and keeps them in memory as ``bytes`` (indexing bytes gives Python ints, the fastest lookup
Python has; a numpy array would hand back slow numpy scalars).

Search. A recursive IDA* on a mutable board that never undoes the move just
made, updates the six indices and both sums incrementally, and counts nodes on
a :class:`~solver.core.search.Monitor` so budgets, cancel and progress work as in
every other search.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from ..core.results import SOLVED, UNSOLVABLE, Monitor, SearchResult, StopSearch
from ..core.tables import TableStore
from .pdb_build import AROUND, CELLS, SIDE, UNSEEN, build_numpy
from .rules import replay_cells

N = SIDE
#: the left and right 2x3 blocks of the top three rows, and the bottom row's three tiles
#: (the best of five 6-6-3 splits tried on five of Korf's instances)
GROUPS: Tuple[Tuple[int, ...], ...] = ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12),
                                       (13, 14, 15))
#: names the content: "blank" = built with the blank's position tracked (see the builder)
TABLE_NAME = "blank-" + "-".join("_".join(map(str, g)) for g in GROUPS)
#: the databases, fingerprinted by their builder (the groups are in the table's name)
STORE = TableStore("npuzzle-4x4-pdb", Path(__file__).with_name("pdb_build.py"))
__all__ = ["GROUPS", "UNSEEN", "tables", "tables_ready", "build_seconds", "lower_bound",
           "ida_star_fifteen"]

#: cell -> its mirror in the main diagonal
MIRROR_CELL = [(c % N) * N + c // N for c in range(CELLS)]
#: tile -> the tile whose home is the mirror of its home (0 stays 0)
MIRROR_TILE = [0] + [MIRROR_CELL[t - 1] + 1 for t in range(1, CELLS)]

def _build() -> dict:
    seconds, built = [], []
    for group in GROUPS:
        started = time.perf_counter()
        built.append(build_numpy(group))
        seconds.append(round(time.perf_counter() - started, 3))
    return {"groups": GROUPS, "tables": built, "build_seconds": seconds}


def _databases() -> dict:
    return STORE.get(TABLE_NAME, _build)


def tables_ready() -> bool:
    """True when :func:`tables` answers at once: in memory, or saved in the cache."""
    return STORE.ready(TABLE_NAME)


def tables() -> List[bytes]:
    """One database per group: memory, else disk cache, else built now (~50 s)."""
    return _databases()["tables"]


def build_seconds() -> List[float]:
    """How long each group's database took to build (when it was built, maybe earlier)."""
    return _databases()["build_seconds"]


# tile -> (its group, its index shift), for the board and for its mirror image
_GROUP_OF = [0] * CELLS
_SHIFT_OF = [0] * CELLS
for _g, _tiles in enumerate(GROUPS):
    for _i, _t in enumerate(_tiles):
        _GROUP_OF[_t], _SHIFT_OF[_t] = _g, 4 * _i
_MGROUP_OF = [_GROUP_OF[MIRROR_TILE[t]] for t in range(CELLS)]
_MSHIFT_OF = [_SHIFT_OF[MIRROR_TILE[t]] for t in range(CELLS)]
#: blank cell -> (tile cell q, per tile: its direct index step, its mirror index step)
_STEPS = [[(q, [(z - q) << s for s in _SHIFT_OF],
            [(MIRROR_CELL[z] - MIRROR_CELL[q]) << s for s in _MSHIFT_OF])
           for q in AROUND[z]]
          for z in range(CELLS)]


def indices(board: Sequence[int]):
    """The group indices of ``board`` and of its mirror image."""
    direct, mirror = [0] * len(GROUPS), [0] * len(GROUPS)
    for cell, t in enumerate(board):
        if t:
            direct[_GROUP_OF[t]] += cell << _SHIFT_OF[t]
            mirror[_MGROUP_OF[t]] += MIRROR_CELL[cell] << _MSHIFT_OF[t]
    return direct, mirror


def lower_bound(board: Sequence[int]) -> int:
    """The heuristic: max of the direct and mirrored additive sums."""
    tabs = tables()
    direct, mirror = indices(board)
    return max(sum(tab[i] for tab, i in zip(tabs, direct)),
               sum(tab[i] for tab, i in zip(tabs, mirror)))


def ida_star_fifteen(state: Sequence[int], *, budget=None, cancel=None,
                     progress=None, weight: Tuple[int, int] = (1, 1),
                     max_length: Optional[int] = None) -> SearchResult:
    """Proven-shortest solution of a solvable 4x4 board, within ``budget``.

    ``weight`` (p, q) searches on f = g + (p/q)*h instead: with p > q it finds
    a solution far sooner, at most p/q times too long, and never claims it optimal.
    ``max_length`` stops the (unweighted) search once no solution of at most that
    many moves exists: the result is then ``unsolvable`` within that bound, which
    is how the coach tells a d-1 neighbour from a d+1 one.
    Returns a SearchResult (status solved, budget or cancelled) whose moves and
    states are replayed through the rules by :func:`solver.npuzzle.rules.replay_cells`.
    """
    mon = Monitor(budget, cancel, progress)
    start = tuple(state)
    try:
        cells = _search(start, mon, *weight, max_bound=max_length)
    except StopSearch as stop:
        return mon.stopped(stop)
    if cells is None:
        return mon.result(UNSOLVABLE, optimal=True,
                          message=f"no solution within {max_length} moves")
    moves, states = replay_cells(start, cells)
    return mon.result(SOLVED, moves, states, optimal=weight[0] <= weight[1])


def _search(start: Tuple[int, ...], mon: Monitor, h_scale: int = 1,
            g_scale: int = 1, max_bound: Optional[int] = None) -> Optional[List[int]]:
    """IDA* proper: raise the bound to the least f that overflowed until a goal is hit.

    f is kept in integers as g_scale*g + h_scale*h (both 1 for plain IDA*).
    None once the bound passes ``max_bound`` (no solution that short).
    """
    tabs = tables()
    board = list(start)
    direct, mirror = indices(board)
    h_direct = sum(tab[i] for tab, i in zip(tabs, direct))
    h_mirror = sum(tab[i] for tab, i in zip(tabs, mirror))
    if max(h_direct, h_mirror) == 0:
        return []
    bound = h_scale * max(h_direct, h_mirror)
    if max_bound is not None and bound > max_bound:
        return None
    group_of, mgroup_of = _GROUP_OF, _MGROUP_OF
    table_of = [tabs[g] for g in group_of]              # tile -> its group's table
    mtable_of = [tabs[g] for g in mgroup_of]
    steps = _STEPS
    path: List[int] = []
    found = -1
    every = mon.CHECK_EVERY
    left = every                                         # nodes until the next mon.check

    def dfs(z: int, g: int, came_from: int, h_d: int, h_m: int) -> int:
        """Search below blank cell ``z`` at cost ``g``; return -1 if solved, else least f over."""
        nonlocal left
        least = 1 << 30
        g1 = g + 1
        fg = g_scale * g1
        for q, dstep, mstep in steps[z]:
            if q == came_from:
                continue                      # undoing the last move never helps
            t = board[q]
            grp = group_of[t]
            old = direct[grp]
            new = old + dstep[t]
            tab = table_of[t]
            nd = h_d - tab[old] + tab[new]
            mgrp = mgroup_of[t]
            mold = mirror[mgrp]
            mnew = mold + mstep[t]
            tab = mtable_of[t]
            nm = h_m - tab[mold] + tab[mnew]
            f = fg + h_scale * (nd if nd > nm else nm)
            if f > bound:
                if f < least:
                    least = f
                continue
            if nd == 0:                       # every group home: the goal
                path.append(q)
                return found
            left -= 1
            if not left:
                left = every
                mon.count += every
                mon.check(bound, g1)
            board[z] = t
            board[q] = 0
            direct[grp] = new
            mirror[mgrp] = mnew
            sub = dfs(q, g1, z, nd, nm)
            board[q] = t
            board[z] = 0
            direct[grp] = old
            mirror[mgrp] = mold
            if sub == found:
                path.append(q)
                return found
            if sub < least:
                least = sub
        return least

    z0 = board.index(0)
    try:
        while True:
            mon.report(bound, 0)
            result = dfs(z0, 0, -1, h_direct, h_mirror)
            if result == found:
                path.reverse()
                return path
            bound = result
            if max_bound is not None and bound > max_bound:
                return None
    finally:
        mon.count += every - left
