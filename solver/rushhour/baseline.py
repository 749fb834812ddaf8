"""Rush Hour over plain strings for the bench's baseline: no code shared with the real rules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..core.baseline import seed_bfs


class StringRushHour:
    """Rush Hour with the board as its 36-character string ('o' empty, 'x' a wall).

    A vehicle is found by its letter each time; moving it rewrites the string. Vehicles
    never pass one another, so the string itself is the canonical form.
    """

    def __init__(self, board: str):
        self.start = self.encode(board)

    def encode(self, board: str) -> str:
        return board.replace(".", "o")

    def canonical(self, pos: str) -> str:
        return pos

    def is_goal(self, pos: str) -> bool:
        return pos[17] == "A"  # the red car's right end in the last column of the third row

    def successors(self, pos: str) -> Iterator[str]:
        for letter in sorted(set(pos) - {"o", "x"}):
            first = pos.index(letter)
            last = pos.rindex(letter)
            step = 1 if last - first < 6 else 6  # a horizontal vehicle's cells are adjacent
            for direction in (-step, step):
                board = pos
                head, tail = (first, last) if direction < 0 else (last, first)
                while True:
                    nxt = head + direction
                    if step == 1 and nxt // 6 != head // 6:
                        break  # off the end of the row
                    if not 0 <= nxt < 36 or board[nxt] != "o":
                        break
                    cells = list(board)
                    cells[nxt], cells[tail] = letter, "o"
                    board = "".join(cells)
                    head, tail = nxt, tail + direction
                    yield board

    def solve(self, **limits):
        path, nodes = seed_bfs(self.start, self.successors, self.is_goal, self.canonical, **limits)
        return (None if path is None else len(path) - 1), nodes


def original_model(board: str, options: Mapping[str, Any]) -> StringRushHour:
    """The model :mod:`solver.originals` runs the originals' searches on (no options)."""
    return StringRushHour(board)
