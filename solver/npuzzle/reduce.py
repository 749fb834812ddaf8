"""A fast, never-stuck, non-optimal N-puzzle solver: solve a row, a column, repeat.

The classic human method. For an n x n board: put the top row's tiles home and
freeze them, then the left column's, leaving an (n-1) x (n-1) board; repeat
until a 3x3 corner is left, which the 8-puzzle distance table finishes
optimally. Each tile is brought home by a breadth-first search over just (blank
cell, tile cell) pairs on the unfrozen cells, at most n**4 of them, so every
step is small and exact. The last two tiles of a row (or column) need the
usual trick: park the last tile in the second-to-last cell and its partner just
below (beside) it, bring the blank to the corner, then slide both home.

Solutions are typically 1.5-2x longer than optimal; moves that immediately
undo the previous one are cancelled at the end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ..core.search import walk_back
from .rules import around
from .table import solve_by_table


class _Board:
    """A mutable board with frozen cells and the list of cells slid so far."""

    def __init__(self, state: Sequence[int]):
        self.cells = list(state)
        self.n = round(len(state) ** 0.5)
        n = self.n
        self.blank = self.cells.index(0)
        self.frozen = [False] * len(state)
        self.slid: list[int] = []
        self.around = around(n)

    def slide(self, q: int) -> None:
        """Slide the tile at ``q`` (next to the blank) into the blank."""
        self.cells[self.blank], self.cells[q] = self.cells[q], 0
        self.slid.append(q)
        self.blank = q

    def bring(
        self, tiles: tuple[int, ...], targets: tuple[int, ...], blank_target: int | None = None
    ) -> None:
        """Move ``tiles`` to ``targets`` (and the blank to ``blank_target`` if given).

        Breadth-first over (blank cell, cells of ``tiles``) on the unfrozen
        cells, other tiles being interchangeable: the shortest such manoeuvre.
        With one tile that is at most n**4 states, so it is quick.
        """
        start = (self.blank,) + tuple(self.cells.index(t) for t in tiles)

        def done(state):
            return state[1:] == targets and blank_target in (None, state[0])

        if done(start):
            return
        parent: dict[tuple[int, ...], tuple[int, ...] | None] = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            z = state[0]
            for q in self.around[z]:
                if self.frozen[q]:
                    continue
                child = (q,) + tuple(z if p == q else p for p in state[1:])
                if child in parent:
                    continue
                parent[child] = state
                if done(child):
                    self._follow(parent, child)
                    return
                queue.append(child)
        raise _Stuck(f"cannot bring {tiles} to {targets} (blank to {blank_target})")

    def _follow(self, parent: dict, state) -> None:
        for step in walk_back(state, parent.__getitem__)[1:]:
            self.slide(step[0])

    def place(self, r: int, c: int) -> None:
        """Bring the tile that belongs at (r, c) home and freeze it."""
        cell = r * self.n + c
        self.bring((cell + 1,), (cell,))
        self.frozen[cell] = True

    def place_pair(self, first: int, second: int, aside: int) -> None:
        """Home the tiles of cells ``first`` and ``second`` (the end of a row or column).

        ``second``'s tile is parked at ``first``, ``first``'s tile at ``aside``
        (the unfrozen neighbour of ``first`` that is not ``second``), the blank
        goes to ``second``, then the two tiles slide home in turn. That can jam
        (blank in the corner, ``first``'s tile blocking its only exit); then a
        joint search over both tiles and the blank finishes from where it is.
        """
        tile_a, tile_b = first + 1, second + 1
        if self.cells[first] != tile_a or self.cells[second] != tile_b:
            try:
                self.bring((tile_b,), (first,))
                self.frozen[first] = True
                self.bring((tile_a,), (aside,))
                self.frozen[aside] = True
                self.bring((), (), blank_target=second)
                self.slide(first)  # tile b into the corner
                self.slide(aside)  # tile a into its home
            except _Stuck:
                self.frozen[first] = self.frozen[aside] = False
                self.bring((tile_a, tile_b), (first, second))
            self.frozen[aside] = False
        self.frozen[first] = self.frozen[second] = True


class _Stuck(RuntimeError):
    """No manoeuvre on the unfrozen cells does what was asked."""


def reduction_cells(state: Sequence[int]) -> list[int]:
    """A solution of a solvable n x n board (n >= 3), as the cells whose tiles slide."""
    board = _Board(state)
    n = board.n
    for k in range(n - 3):
        for c in range(k, n - 2):  # row k, all but the last two
            board.place(k, c)
        board.place_pair(k * n + n - 2, k * n + n - 1, (k + 1) * n + n - 2)
        for r in range(k + 1, n - 2):  # column k, all but the last two
            board.place(r, k)
        board.place_pair((n - 2) * n + k, (n - 1) * n + k, (n - 2) * n + k + 1)
    _finish_corner(board)
    return cancel_undos(list(state).index(0), board.slid)


def reduce_to(state: Sequence[int], corner: int):
    """Rows and columns until a ``corner`` x ``corner`` board is left at the bottom right.

    Returns (the cells slid so far, the corner as a board of its own with tiles
    renumbered 1..corner**2-1, its cell -> the big board's cell).
    """
    board = _Board(state)
    n = board.n
    for k in range(n - corner):
        for c in range(k, n - 2):
            board.place(k, c)
        board.place_pair(k * n + n - 2, k * n + n - 1, (k + 1) * n + n - 2)
        for r in range(k + 1, n - 2):
            board.place(r, k)
        board.place_pair((n - 2) * n + k, (n - 1) * n + k, (n - 2) * n + k + 1)
    small, big_cell = _corner(board, corner)
    return board.slid, tuple(small), big_cell


def _corner(board: _Board, size: int):
    """The bottom-right ``size`` x ``size`` of ``board`` as a board of its own, and its
    cell -> big cell map."""
    n, o = board.n, board.n - size
    big_cell = [(o + i // size) * n + o + i % size for i in range(size * size)]
    small = []
    for cell in big_cell:
        t = board.cells[cell]
        if t:
            r, c = divmod(t - 1, n)
            t = (r - o) * size + (c - o) + 1
        small.append(t)
    return small, big_cell


def _finish_corner(board: _Board) -> None:
    """Solve the bottom-right 3x3 optimally with the 8-puzzle table."""
    small, big_cell = _corner(board, 3)
    for q in solve_by_table(small):
        board.slide(big_cell[q])


def cancel_undos(blank: int, slid: list[int]) -> list[int]:
    """Drop every move that the next move undoes (the blank stepping straight back)."""
    trail = [blank]  # blank cells visited, after cancellations
    for q in slid:
        if len(trail) >= 2 and trail[-2] == q:
            trail.pop()
        else:
            trail.append(q)
    return trail[1:]
