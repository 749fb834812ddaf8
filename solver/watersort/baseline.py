"""Water sort over plain strings for the bench's baseline: no code shared with the real rules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..core.baseline import seed_bfs


class StringWaterSort:
    """Water-sort with tubes as a comma-joined string, sorted for the canonical form."""

    def __init__(self, board: str, capacity: int = 4):
        self.start = board
        self.capacity = capacity

    def encode(self, board: str) -> str:
        return board

    def canonical(self, pos: str) -> str:
        return ",".join(sorted(pos.split(",")))

    def is_goal(self, pos: str) -> bool:
        return all(
            t == "" or (len(t) == self.capacity and t == t[0] * len(t)) for t in pos.split(",")
        )

    def successors(self, pos: str) -> Iterator[str]:
        for _action, nxt in self.actions(pos):
            yield nxt

    def actions(self, pos: str) -> Iterator[tuple[tuple[int, int], str]]:
        """Every pour as ((from, to), the tubes after it)."""
        tubes = pos.split(",")
        cap = self.capacity
        for i, src in enumerate(tubes):
            if not src:
                continue
            colour = src[-1]
            run = len(src) - len(src.rstrip(colour))
            for j, dst in enumerate(tubes):
                if i == j or len(dst) == cap or (dst and dst[-1] != colour):
                    continue
                amount = min(run, cap - len(dst))
                new = list(tubes)
                new[i] = src[:-amount]
                new[j] = dst + colour * amount
                yield (i, j), ",".join(new)

    def cost(self, pos: str) -> int:
        """The original water-sort program's estimate, as it wrote it: one per colour change
        inside a tube, one per tube bottom a colour shares with an earlier tube, one more for
        a part-filled one-colour tube whose colour another bottom has, one less for a
        full one-colour tube. Not a lower bound (that -1), so its A* proves nothing."""
        c = 0
        bottom: dict[str, int] = {}
        for cup in pos.split(","):
            if not cup:
                continue
            bottom[cup[0]] = bottom.get(cup[0], -1) + 1
            changes = sum(1 for a, b in zip(cup, cup[1:], strict=False) if a != b)
            c += changes
            if changes == 0 and len(cup) == self.capacity:
                c -= 1
            if changes == 0 and len(cup) < self.capacity and bottom[cup[0]] >= 1:
                c += 1
        return c + sum(bottom.values())

    def solve(
        self, max_nodes: int | None = None, max_seconds: float | None = None
    ) -> tuple[int | None, int]:
        path, nodes = seed_bfs(
            self.start, self.successors, self.is_goal, self.canonical, max_nodes, max_seconds
        )
        return (None if path is None else len(path) - 1), nodes


def original_model(board: str, options: Mapping[str, Any]) -> StringWaterSort:
    """The model :mod:`solver.originals` runs the originals' searches on, for the canonical
    board and the game's checked options."""
    return StringWaterSort(board, options.get("capacity") or 4)
