"""The original's jug puzzle: 3, 5 and 8 litre jugs, the big one full; leave 4 and 4.

Run ``python -m solver.examples.jugs``.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver import Puzzle


class JugFill(Puzzle):
    """Given two empty jugs of 3 and 5 litres and a full one of 8, leave four
    litres in each of the two largest jugs."""

    pos = (0, 0, 8)
    capacity = (3, 5, 8)
    goal = (0, 4, 4)

    def __iter__(self) -> Iterator[JugFill]:
        for i in range(len(self.pos)):
            for j in range(len(self.pos)):
                if i == j:
                    continue
                qty = min(self.pos[i], self.capacity[j] - self.pos[j])
                if not qty:
                    continue
                dup = list(self.pos)
                dup[i] -= qty
                dup[j] += qty
                yield JugFill(tuple(dup))


if __name__ == "__main__":
    from pprint import pprint

    pprint(JugFill().solve())
