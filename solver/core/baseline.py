"""The plain baseline the bench compares against: the seeds' approach.

A generic breadth-first search (a deque and a trail dict, exactly the loop in
the generic-puzzle-solver seed) over states that are plain strings, with move
generators (each game's ``baseline`` module) written the obvious way by
string manipulation. Nothing here is tuned; it is the yardstick, so keep it
honest and simple. It shares no code with the real domains on purpose: a bug
there must not hide here.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable


class GaveUp(Exception):
    """The baseline hit its node or time limit before finishing."""

    def __init__(self, message: str, nodes: int):
        super().__init__(message)
        self.nodes = nodes


def seed_bfs(
    start: str,
    successors: Callable[[str], Iterable[str]],
    is_goal: Callable[[str], bool],
    canonical: Callable[[str], str] = lambda s: s,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> tuple[list[str] | None, int]:
    """Breadth-first search as in the seed; returns (path of states or None, nodes)."""
    queue = deque([start])
    trail: dict[str, str | None] = {canonical(start): None}
    nodes = 0
    started = time.monotonic()
    while queue:
        pos = queue.popleft()
        if is_goal(pos):
            path: list[str] = []
            step: str | None = pos
            while step is not None:
                path.append(step)
                step = trail[canonical(step)]
            return path[::-1], nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise GaveUp(f"gave up after {nodes} positions", nodes)
        if (
            max_seconds is not None
            and nodes % 1000 == 0
            and time.monotonic() - started > max_seconds
        ):
            raise GaveUp(f"gave up after {nodes} positions ({max_seconds:g} s)", nodes)
        for nxt in successors(pos):
            c = canonical(nxt)
            if c in trail:
                continue
            trail[c] = pos
            queue.append(nxt)
    return None, nodes
