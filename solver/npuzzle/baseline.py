"""The N-puzzle over plain strings for the bench's baseline: no code shared with the real rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.baseline import seed_bfs


class StringNPuzzle:
    """The N-puzzle as a string of tile characters ('0' the blank), as in the 8-puzzle seed."""

    SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"

    def __init__(self, board: str):
        tiles = [int(t) for t in board.replace(",", " ").replace("/", " ").split()]
        self.n = int(round(len(tiles) ** 0.5))
        self.start = self.encode(board)
        self.goal = "".join(self.SYMBOLS[t] for t in range(1, len(tiles))) + "0"

    def encode(self, board: str) -> str:
        tiles = [int(t) for t in board.replace(",", " ").replace("/", " ").split()]
        return "".join(self.SYMBOLS[t] for t in tiles)

    def canonical(self, pos: str) -> str:
        return pos

    def is_goal(self, pos: str) -> bool:
        return pos == self.goal

    def successors(self, pos: str):
        n = self.n
        b = pos.index("0")
        r, c = divmod(b, n)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < n and 0 <= c2 < n:
                t = r2 * n + c2
                cells = list(pos)
                cells[b], cells[t] = cells[t], cells[b]
                yield "".join(cells)

    def solve(self, **limits):
        path, nodes = seed_bfs(self.start, self.successors, lambda s: s == self.goal, **limits)
        return (None if path is None else len(path) - 1), nodes


def original_model(board: str, options: Mapping[str, Any]) -> StringNPuzzle:
    """The model :mod:`solver.originals` runs the originals' searches on, for the canonical
    board and the game's checked options."""
    return StringNPuzzle(board)
