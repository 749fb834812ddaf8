"""The complete 8-puzzle distance table: every solvable position's distance to the goal.

Only 181,440 positions can reach the goal, so one breadth-first sweep backward
from it (about half a second) answers every later question by lookup: the
distance is one dict access and an optimal solution is a walk downhill, each
step to the neighbour one closer (well under a millisecond for 31 moves).

Encoding: a position is packed into one int, four bits per cell in row-major
order (cell i holds ``(packed >> 4*i) & 15``); the table maps packed int ->
distance. The table is built once per machine (saved by a
:class:`~solver.core.tables.TableStore`) and kept in memory after first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..core.tables import TableStore
from .rules import around

N = 3
CELLS = N * N
#: the 3x3 table, fingerprinted by this module and the rules it builds on
STORE = TableStore("npuzzle-3x3", Path(__file__), Path(__file__).with_name("rules.py"))

# blank cell -> cells next to it
_AROUND = around(N)


def pack(state: Sequence[int]) -> int:
    """Four bits per cell, cell 0 lowest."""
    packed = 0
    for i, t in enumerate(state):
        packed |= t << (4 * i)
    return packed


def build_distances() -> dict[int, int]:
    """Breadth-first from the goal over packed positions: packed -> moves to the goal."""
    goal = pack(list(range(1, CELLS)) + [0])
    dist = {goal: 0}
    layer = [(goal, CELLS - 1)]
    depth = 0
    while layer:
        depth += 1
        nxt = []
        for packed, z in layer:
            zshift = 4 * z
            for q in _AROUND[z]:
                qshift = 4 * q
                tile = (packed >> qshift) & 15
                child = packed - (tile << qshift) + (tile << zshift)
                if child not in dist:
                    dist[child] = depth
                    nxt.append((child, q))
        layer = nxt
    return dist


def distances() -> dict[int, int]:
    """The table, from memory, else the disk cache, else built now."""
    return STORE.get("distances", build_distances)


def distance(state: Sequence[int]) -> int:
    """Fewest moves to the goal; KeyError for a position of the wrong parity."""
    return distances()[pack(state)]


def best_cell(state: Sequence[int]) -> int:
    """The cell whose tile to slide next on a shortest path (state must not be the goal)."""
    table = distances()
    packed = pack(state)
    want = table[packed] - 1
    z = list(state).index(0)
    zshift = 4 * z
    for q in _AROUND[z]:
        tile = state[q]
        child = packed - (tile << (4 * q)) + (tile << zshift)
        if table.get(child) == want:
            return q
    raise RuntimeError("distance table is inconsistent")


def solve_by_table(state: Sequence[int]) -> list[int]:
    """A shortest solution as the cells whose tiles slide, walking down the table."""
    table = distances()
    board = list(state)
    packed = pack(board)
    left = table[packed]
    z = board.index(0)
    cells = []
    while left:
        left -= 1
        zshift = 4 * z
        for q in _AROUND[z]:
            tile = board[q]
            child = packed - (tile << (4 * q)) + (tile << zshift)
            if table.get(child) == left:
                break
        else:
            raise RuntimeError("distance table is inconsistent")
        cells.append(q)
        board[z], board[q] = tile, 0
        packed, z = child, q
    return cells
