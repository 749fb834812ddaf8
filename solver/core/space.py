"""The whole state space reachable from a position: every position, its distance to
solved and every move, for drawing the graph of a small puzzle (the lab).

Positions are found breadth-first from the start under the game's rules (one per
canonical key, as the searches see them); distances come from a backward
breadth-first pass over the moves found, from every solved position, so puzzles
whose moves cannot be undone (water, jugs) are measured along their real moves.
A position from which no solved one is reachable has no distance.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import BoardError
from .text import N_

if TYPE_CHECKING:
    from .domain import Domain

#: the most positions a state space is enumerated to (a classic Klotski group is 25,955)
MAX_POSITIONS = 100_000


class SpaceTooLarge(BoardError):
    """More positions are reachable than the limit: the graph is refused, not cut."""


@dataclass(frozen=True)
class StateSpace:
    """Position ``i`` is ``boards[i]`` (the start is 0), ``distances[i]`` moves from
    solved (None: unsolvable from there); each edge ``(i, j)`` is one move."""

    boards: list[str]
    distances: list[int | None]
    edges: list[tuple[int, int]]
    #: each position's canonical key (``domain.key``) -> its index, as enumerated
    index: dict[Hashable, int] = field(default_factory=dict, compare=False, repr=False)

    def payload(self) -> dict[str, Any]:
        """``{"nodes": [{"board", "distance"}], "edges": [[i, j], ...]}``."""
        return {
            "nodes": [
                {"board": board, "distance": distance}
                for board, distance in zip(self.boards, self.distances, strict=True)
            ],
            "edges": [list(edge) for edge in self.edges],
        }


def state_space(
    domain: Domain[Any, Any],
    start: Any,
    limit: int = MAX_POSITIONS,
    cancel: Callable[[], bool] | None = None,
) -> StateSpace:
    """Every position reachable from ``start`` (at most ``limit``, else
    :class:`SpaceTooLarge`), with its distance to solved and the moves between them."""
    index: dict[Hashable, int] = {domain.key(start): 0}
    states = [start]
    edges: set[tuple[int, int]] = set()
    at = 0
    while at < len(states):
        if cancel is not None and at % 1024 == 0 and cancel():
            raise BoardError("the graph was cancelled")
        for _move, child in domain.moves(states[at]):
            key = domain.key(child)
            to = index.get(key)
            if to is None:
                if len(states) >= limit:
                    raise SpaceTooLarge(
                        N_(
                            "more than %(limit)s positions are reachable from this board;"
                            " the graph is drawn for at most %(limit)s"
                        ),
                        limit=f"{limit:,}",
                    )
                to = index[key] = len(states)
                states.append(child)
            if to != at:
                edges.add((at, to))
        at += 1
    return StateSpace(
        [domain.format(state) for state in states],
        _distances(len(states), edges, [i for i, s in enumerate(states) if domain.is_goal(s)]),
        sorted(edges),
        index,
    )


def _distances(count: int, edges: set[tuple[int, int]], goals: list[int]) -> list[int | None]:
    """Moves to the nearest goal along ``edges`` (backward breadth-first from ``goals``)."""
    into: list[list[int]] = [[] for _ in range(count)]
    for source, target in edges:
        into[target].append(source)
    distances: list[int | None] = [None] * count
    for goal in goals:
        distances[goal] = 0
    layer, depth = goals, 0
    while layer:
        depth += 1
        following = []
        for target in layer:
            for source in into[target]:
                if distances[source] is None:
                    distances[source] = depth
                    following.append(source)
        layer = following
    return distances
