"""Water sort over plain strings for the bench's baseline: no code shared with the real rules."""

from __future__ import annotations

from collections.abc import Iterator

from ..core.baseline import seed_bfs


class StringWaterSort:
    """Water-sort with tubes as a comma-joined string, sorted for the canonical form."""

    def __init__(self, board: str, capacity: int = 4):
        self.start = board
        self.capacity = capacity

    def canonical(self, pos: str) -> str:
        return ",".join(sorted(pos.split(",")))

    def is_goal(self, pos: str) -> bool:
        return all(
            t == "" or (len(t) == self.capacity and t == t[0] * len(t)) for t in pos.split(",")
        )

    def successors(self, pos: str) -> Iterator[str]:
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
                yield ",".join(new)

    def solve(
        self, max_nodes: int | None = None, max_seconds: float | None = None
    ) -> tuple[int | None, int]:
        path, nodes = seed_bfs(
            self.start, self.successors, self.is_goal, self.canonical, max_nodes, max_seconds
        )
        return (None if path is None else len(path) - 1), nodes
