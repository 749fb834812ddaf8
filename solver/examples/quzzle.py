"""The original's 5x4 sliding-block puzzle ("Quzzle"): bring the 2x2 block to the
lower left. Blocks of the same shape are interchangeable (``canonical``).

Run ``python -m solver.examples.quzzle``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from solver import Puzzle


class PaPuzzle(Puzzle):
    """Nine blocks on a 5x4 grid with two empty cells (0)::

    1122
    1133
    4500
    6788
    6799
    """

    pos = "11221133450067886799"
    goal = re.compile(r"................1...")

    def isgoal(self) -> bool:
        return self.goal.search(self.pos) is not None

    def __repr__(self) -> str:
        pos = self.pos.replace("0", ".")
        return "\n" + "".join(pos[i : i + 4] + "\n" for i in range(0, 20, 4))

    xlat = str.maketrans("38975", "22264")

    def canonical(self) -> str:
        return self.pos.translate(self.xlat)

    # (empty cell, direction) pairs that would leave the board
    block = {
        (0, -4),
        (1, -4),
        (2, -4),
        (3, -4),
        (16, 4),
        (17, 4),
        (18, 4),
        (19, 4),
        (0, -1),
        (4, -1),
        (8, -1),
        (12, -1),
        (16, -1),
        (3, 1),
        (7, 1),
        (11, 1),
        (15, 1),
        (19, 1),
    }

    def __iter__(self) -> Iterator[PaPuzzle]:
        dsone = self.pos.find("0")
        dstwo = self.pos.find("0", dsone + 1)
        for dest in (dsone, dstwo):
            for adj in (-4, -1, 1, 4):
                if (dest, adj) in self.block:
                    continue
                piece = self.pos[dest + adj]
                if piece == "0":
                    continue
                newmove = self.pos.replace(piece, "0")
                for i in range(20):
                    if 0 <= i + adj < 20 and self.pos[i + adj] == piece:
                        newmove = newmove[:i] + piece + newmove[i + 1 :]
                if newmove.count("0") != 2:
                    continue
                yield PaPuzzle(newmove)


if __name__ == "__main__":
    from pprint import pprint

    pprint(PaPuzzle().solve())
