"""The complete 8-puzzle distance table: every solvable position's distance to the goal.

Only 181,440 positions can reach the goal, so one breadth-first sweep backward
from it (about half a second) answers every later question by lookup: the
distance is one dict access and an optimal solution is a walk downhill, each
step to the neighbour one closer (well under a millisecond for 31 moves).

Encoding: a position is packed into one int, four bits per cell in row-major
order (cell i holds ``(packed >> 4*i) & 15``); the table maps packed int ->
distance. The table is built once per machine (saved by a
:class:`~solver.core.tables.TableStore`) and kept in memory after first use.

Lookups read a second form of it, :func:`ranked`: one byte per arrangement of
the nine cells (9! of them, by Lehmer rank; :data:`UNREACHED` for the other
parity half). Its file loads in well under a millisecond where the dict's takes
tens (unpickling 181,440 entries), and a one-shot ``python -m solver solve`` pays
for that load on every call; the dict stays for whoever walks the whole table
(the generator, the tests).
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


#: a :func:`ranked` entry of the parity half that cannot reach the goal
UNREACHED = 255
#: (8 - i)!: the weight of cell i's digit in the Lehmer rank
_WEIGHTS = (40320, 5040, 720, 120, 24, 6, 2, 1, 1)


def rank(state: Sequence[int]) -> int:
    """The Lehmer rank of a 3x3 position: 0 .. 9! - 1, one number per arrangement."""
    value = seen = 0
    for weight, tile in zip(_WEIGHTS, state, strict=True):
        value += weight * (tile - (seen & ((1 << tile) - 1)).bit_count())
        seen |= 1 << tile
    return value


def build_ranked() -> bytes:
    """The distance table as one byte per Lehmer rank (:data:`UNREACHED`: other parity):
    a breadth-first search from the goal a whole layer at a time in numpy (a few tenths
    of a second with numpy's import, less than the dict's search in Python, which a
    lookup then never needs)."""
    import numpy as np

    shifts = 4 * np.arange(CELLS)
    ones = np.array([bin(mask).count("1") for mask in range(1 << CELLS)], np.int64)

    def ranks(packed: np.ndarray) -> np.ndarray:
        """:func:`rank` of every packed position at once."""
        value = np.zeros(len(packed), np.int64)
        seen = np.zeros(len(packed), np.int64)
        for i, weight in enumerate(_WEIGHTS):
            tile = (packed >> (4 * i)) & 15
            value += weight * (tile - ones[seen & ((1 << tile) - 1)])
            seen |= 1 << tile
        return value

    table = np.full(_WEIGHTS[0] * CELLS, UNREACHED, np.uint8)
    layer = np.array([pack(list(range(1, CELLS)) + [0])], np.int64)
    table[ranks(layer)] = depth = 0
    while len(layer):
        depth += 1
        blank = ((layer[:, None] >> shifts) & 15).argmin(axis=1)  # tile 0, the least
        children = []
        for z, cells in enumerate(_AROUND):
            here = layer[blank == z]
            for q in cells:
                tile = (here >> (4 * q)) & 15
                children.append(here - (tile << (4 * q)) + (tile << (4 * z)))
        child = np.concatenate(children)
        found = ranks(child)
        new = table[found] == UNREACHED
        found, first = np.unique(found[new], return_index=True)
        layer = child[new][first]
        table[found] = depth
    return table.tobytes()


def ranked() -> bytes:
    """The table by rank, from memory, else the disk cache, else built now."""
    return STORE.get("ranked", build_ranked)


def distance(state: Sequence[int]) -> int:
    """Fewest moves to the goal; KeyError for a position of the wrong parity."""
    moves = ranked()[rank(state)]
    if moves == UNREACHED:
        raise KeyError(tuple(state))
    return moves


def _downhill(table: bytes, board: list[int], z: int, want: int) -> int:
    """The cell next to the blank ``z`` whose slide leads to distance ``want``."""
    for q in _AROUND[z]:
        board[z], board[q] = board[q], 0
        found = table[rank(board)]
        board[q], board[z] = board[z], 0
        if found == want:
            return q
    raise RuntimeError("distance table is inconsistent")


def best_cell(state: Sequence[int]) -> int:
    """The cell whose tile to slide next on a shortest path (state must not be the goal)."""
    board = list(state)
    return _downhill(ranked(), board, board.index(0), distance(state) - 1)


def solve_by_table(state: Sequence[int]) -> list[int]:
    """A shortest solution as the cells whose tiles slide, walking down the table."""
    table = ranked()
    board = list(state)
    left = distance(board)
    z = board.index(0)
    cells = []
    while left:
        left -= 1
        q = _downhill(table, board, z, left)
        cells.append(q)
        board[z], board[q] = board[q], 0
        z = q
    return cells
