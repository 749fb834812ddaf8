"""Water jugs over plain strings, as the original generic solver's JugFill writes them: no
code shared with the real rules (:mod:`solver.jugs.rules`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class StringJugs:
    """The jugs as the board's own text ``contents/capacity,...``; a pour moves water
    from one jug to another until the first is empty or the second full."""

    def __init__(self, board: str, goal: str | None = None):
        self.start = self.encode(board)
        jugs = self._jugs(self.start)
        self.goal: list[int | None]
        if goal is None:
            # the original's goal, generalised: the water shared by the two largest jugs
            total = sum(have for have, _cap in jugs)
            largest = sorted(range(len(jugs)), key=lambda i: (-jugs[i][1], -i))[:2]
            self.goal = [total // 2 if i in largest else 0 for i in range(len(jugs))]
        else:
            self.goal = [None if part.strip() == "*" else int(part) for part in goal.split(",")]

    @staticmethod
    def _jugs(pos: str) -> list[tuple[int, int]]:
        return [(int(a), int(b)) for a, b in (part.split("/") for part in pos.split(","))]

    def encode(self, board: str) -> str:
        return board.replace(" ", "")

    def canonical(self, pos: str) -> str:
        return pos

    def is_goal(self, pos: str) -> bool:
        return all(
            want is None or want == have
            for want, (have, _cap) in zip(self.goal, self._jugs(pos), strict=True)
        )

    def successors(self, pos: str) -> Iterator[str]:
        jugs = self._jugs(pos)
        for i, (have, _cap) in enumerate(jugs):
            for j, (there, room) in enumerate(jugs):
                if i == j:
                    continue
                qty = min(have, room - there)
                if not qty:
                    continue
                dup = list(jugs)
                dup[i] = (have - qty, jugs[i][1])
                dup[j] = (there + qty, room)
                yield ",".join(f"{a}/{b}" for a, b in dup)


def original_model(board: str, options: Mapping[str, Any]) -> StringJugs:
    """The model :mod:`solver.originals` runs the originals' searches on, for the canonical
    board and the game's checked options."""
    return StringJugs(board, options.get("goal"))
