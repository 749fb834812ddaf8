"""The N-puzzle's rules, shared by the domain, its tables and its searches.

A state is a tuple of tile numbers in row-major order, ``0`` the blank; the
goal is ``1 2 ... n*n-1 0``. A move names the tile that slides into the blank
and the way it slides (``Slide(5, "down")``, shown as ``5 down``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

#: the largest side accepted: a 10x10 board has 99 tiles, far past anything playable
MAX_SIDE = 10


class Slide(NamedTuple):
    """One move: ``tile`` slides one cell ``dir`` (up/down/left/right) into the blank."""

    tile: int
    dir: str

    def __str__(self) -> str:
        return f"{self.tile} {self.dir}"


@cache
def neighbours(n: int) -> tuple[tuple[tuple[int, str], ...], ...]:
    """For each blank cell: (cell of a tile next to it, way that tile slides into the blank)."""
    table = []
    for z in range(n * n):
        r, c = divmod(z, n)
        around = []
        if r > 0:
            around.append((z - n, "down"))  # the tile above slides down
        if r < n - 1:
            around.append((z + n, "up"))
        if c > 0:
            around.append((z - 1, "right"))
        if c < n - 1:
            around.append((z + 1, "left"))
        table.append(tuple(around))
    return tuple(table)


@cache
def around(n: int) -> tuple[tuple[int, ...], ...]:
    """For each blank cell: the cells next to it (the one neighbour table every solver reads)."""
    return tuple(tuple(cell for cell, _way in cells) for cells in neighbours(n))


def mirror_cells(n: int) -> list[int]:
    """cell -> its mirror in the main diagonal (which maps the goal to itself)."""
    return [(c % n) * n + c // n for c in range(n * n)]


def mirror_tiles(n: int) -> list[int]:
    """tile -> the tile whose home is the mirror of its home (0 stays 0)."""
    cells = mirror_cells(n)
    return [0] + [cells[t - 1] + 1 for t in range(1, n * n)]


def side(state: Sequence[int]) -> int:
    """The board's side length n (states always hold n*n cells)."""
    return _SIDES[len(state)]


_SIDES = {n * n: n for n in range(2, MAX_SIDE + 1)}


def goal_state(n: int) -> tuple[int, ...]:
    return tuple(range(1, n * n)) + (0,)


def slide(state: tuple[int, ...], cell: int) -> tuple[Slide, tuple[int, ...]]:
    """Slide the tile at ``cell`` into the blank; ValueError unless they are adjacent."""
    n = side(state)
    z = state.index(0)
    for q, way in neighbours(n)[z]:
        if q == cell:
            board = list(state)
            board[z], board[q] = board[q], 0
            return Slide(state[q], way), tuple(board)
    raise ValueError(f"cell {cell} is not next to the blank")


def replay_cells(start: tuple[int, ...], cells: Sequence[int]):
    """Moves and states for a solution given as the cells whose tiles slide, in order.

    Every step is checked against the rules, so a wrong solver answer fails
    loudly instead of reaching a player.
    """
    moves, states, state = [], [start], start
    for cell in cells:
        move, state = slide(state, cell)
        moves.append(move)
        states.append(state)
    return moves, states


def solvable(state: Sequence[int]) -> bool:
    """Exact parity test: each move keeps (inversions + blank's row distance) even or odd.

    A horizontal move keeps the tile order; a vertical move jumps one tile over
    n-1 others, changing the inversion count by an amount with n-1's parity,
    while the blank changes row. On odd sides that is even, so inversions alone
    are invariant; on even sides inversions plus the blank's row is.
    """
    n = side(state)
    tiles = [t for t in state if t]
    inversions = sum(1 for i, a in enumerate(tiles) for b in tiles[i + 1 :] if a > b)
    if n % 2:
        return inversions % 2 == 0
    blank_row = state.index(0) // n
    return (inversions + (n - 1 - blank_row)) % 2 == 0


@cache
def _goal_places(n: int):
    """For each tile: its goal row and column (index 0 unused)."""
    return [divmod(t - 1, n) if t else (n - 1, n - 1) for t in range(n * n)]


def manhattan_conflicts(state: Sequence[int]) -> int:
    """Manhattan distance plus linear conflicts: admissible for every size.

    In a row, tiles that belong to it but sit in the wrong order cannot all stay:
    at least (tiles in the row - longest increasing run of their goal columns)
    must step out and back, two extra vertical moves each. Columns likewise add
    horizontal moves, so the two kinds add up.
    """
    n = side(state)
    places = _goal_places(n)
    total = 0
    rows: list[list[int]] = [[] for _ in range(n)]
    cols: list[list[int]] = [[] for _ in range(n)]
    for cell, t in enumerate(state):
        if not t:
            continue
        r, c = divmod(cell, n)
        gr, gc = places[t]
        total += abs(r - gr) + abs(c - gc)
        if gr == r:
            rows[r].append(gc)
        if gc == c:
            cols[c].append(gr)
    for line in rows + cols:
        if len(line) > 1:
            total += 2 * (len(line) - _longest_increasing(line))
    return total


def _longest_increasing(values: list[int]) -> int:
    """Length of the longest strictly increasing subsequence (lines are short)."""
    best: list[int] = []
    for v in values:
        i = 0
        while i < len(best) and best[i] < v:
            i += 1
        if i == len(best):
            best.append(v)
        else:
            best[i] = v
    return len(best)
