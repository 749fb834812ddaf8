"""Optimal 15-puzzle search: IDA* over additive 5-5-5 pattern databases.

Heuristic. The 15 tiles are split into three groups of five. For each group a
table holds the fewest moves *of that group's tiles* needed to bring them home,
whatever the other tiles do (they are treated as holes the group may slide
into). A real move moves one tile of one group, so the three counts add up to
an admissible lower bound. The same tables are read a second time on the board
mirrored in its main diagonal (which maps the goal to itself), and the larger
of the two sums is used. This is far stronger than Manhattan distance plus
linear conflicts: a few hundred times fewer positions on Korf's instances.

Tables. A group's placement is indexed by ``sum(cell_i << 4*i)`` (a 2**20
bytearray per group, 1 MiB), so one move updates an index by adding
``(to - from) << 4*i``: no re-ranking per node. Each table is one breadth-first
sweep over the 524,160 placements (about 3 s each in Python), saved with
:func:`solver.cache.load_or_build` and kept in memory.

Search. A recursive IDA* on a mutable board that never undoes the move just
made, updates the six indices and both sums incrementally, and counts nodes on
a :class:`~solver.search.Monitor` so budgets, cancel and progress work as in
every other search.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from .cache import load_or_build
from .search import SOLVED, Monitor, SearchResult, StopSearch

N = 4
CELLS = N * N
#: three compact groups: top-left, right side, bottom-left (goal has the blank at cell 15)
GROUPS: Tuple[Tuple[int, ...], ...] = ((1, 2, 3, 5, 6), (4, 7, 8, 11, 12), (9, 10, 13, 14, 15))
CACHE_NAME = "npuzzle-4x4-pdb-" + "-".join("_".join(map(str, g)) for g in GROUPS)
UNSEEN = 255

AROUND = [[q for q in (z - N, z + N, z - 1, z + 1)
           if 0 <= q < CELLS and (q // N == z // N or q % N == z % N)]
          for z in range(CELLS)]
#: cell -> its mirror in the main diagonal
MIRROR_CELL = [(c % N) * N + c // N for c in range(CELLS)]
#: tile -> the tile whose home is the mirror of its home (0 stays 0)
MIRROR_TILE = [0] + [MIRROR_CELL[t - 1] + 1 for t in range(1, CELLS)]

_tables: List[bytearray] = []


def build_group(group: Sequence[int]) -> bytearray:
    """Fewest group-tile moves to bring ``group`` home, for every placement of it."""
    shifts = [4 * i for i in range(len(group))]
    table = bytearray([UNSEEN]) * (1 << (4 * len(group)))
    home = sum((t - 1) << s for t, s in zip(group, shifts))
    table[home] = 0
    layer = [home]
    depth = 0
    while layer:
        depth += 1
        nxt = []
        push = nxt.append
        for index in layer:
            cells = [(index >> s) & 15 for s in shifts]
            taken = 0
            for c in cells:
                taken |= 1 << c
            for s, c in zip(shifts, cells):
                base = index - (c << s)
                for q in AROUND[c]:
                    if taken >> q & 1:
                        continue
                    child = base + (q << s)
                    if table[child] == UNSEEN:
                        table[child] = depth
                        push(child)
        layer = nxt
    return table


def build_tables() -> List[bytearray]:
    return [build_group(g) for g in GROUPS]


def tables() -> List[bytearray]:
    """The three group tables: memory, else disk cache, else built now (~9 s)."""
    global _tables
    if not _tables:
        _tables = load_or_build(CACHE_NAME, build_tables)
    return _tables


# tile -> (its group, its index shift), for the board and for its mirror image
_GROUP_OF = [0] * CELLS
_SHIFT_OF = [0] * CELLS
for _g, _tiles in enumerate(GROUPS):
    for _i, _t in enumerate(_tiles):
        _GROUP_OF[_t], _SHIFT_OF[_t] = _g, 4 * _i
_MGROUP_OF = [_GROUP_OF[MIRROR_TILE[t]] for t in range(CELLS)]
_MSHIFT_OF = [_SHIFT_OF[MIRROR_TILE[t]] for t in range(CELLS)]
#: blank cell -> (tile cell q, how far the tile's cell number moves, same in the mirror)
_STEPS = [[(q, z - q, MIRROR_CELL[z] - MIRROR_CELL[q]) for q in AROUND[z]]
          for z in range(CELLS)]


def indices(board: Sequence[int]):
    """The three group indices of ``board`` and of its mirror image."""
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
                     progress=None, weight: Tuple[int, int] = (1, 1)) -> SearchResult:
    """Proven-shortest solution of a solvable 4x4 board, within ``budget``.

    ``weight`` (p, q) searches on f = g + (p/q)*h instead: with p > q it finds
    a solution far sooner, at most p/q times too long, and never claims it optimal.
    Returns a SearchResult (status solved, budget or cancelled) whose moves and
    states are replayed through the rules by :func:`solver.npuzzle.replay_cells`.
    """
    from .npuzzle import replay_cells
    mon = Monitor(budget, cancel, progress)
    start = tuple(state)
    try:
        cells = _search(start, mon, *weight)
    except StopSearch as stop:
        return mon.stopped(stop)
    moves, states = replay_cells(start, cells)
    return mon.result(SOLVED, moves, states, optimal=weight[0] <= weight[1])


def _search(start: Tuple[int, ...], mon: Monitor, h_scale: int = 1,
            g_scale: int = 1) -> List[int]:
    """IDA* proper: raise the bound to the least f that overflowed until a goal is hit.

    f is kept in integers as g_scale*g + h_scale*h (both 1 for plain IDA*).
    """
    tabs = tables()
    board = list(start)
    direct, mirror = indices(board)
    h_direct = sum(tab[i] for tab, i in zip(tabs, direct))
    h_mirror = sum(tab[i] for tab, i in zip(tabs, mirror))
    if max(h_direct, h_mirror) == 0:
        return []
    bound = h_scale * max(h_direct, h_mirror)
    shift_of, mshift_of = _SHIFT_OF, _MSHIFT_OF
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
        for q, delta, mdelta in steps[z]:
            if q == came_from:
                continue                      # undoing the last move never helps
            t = board[q]
            grp = group_of[t]
            old = direct[grp]
            new = old + (delta << shift_of[t])
            tab = table_of[t]
            nd = h_d - tab[old] + tab[new]
            mgrp = mgroup_of[t]
            mold = mirror[mgrp]
            mnew = mold + (mdelta << mshift_of[t])
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
    finally:
        mon.count += every - left
