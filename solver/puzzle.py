"""The original's generic ``Puzzle`` API, running on this library's algorithms.

Subclass :class:`Puzzle`, set ``pos`` (the start) and ``goal``, write ``__iter__``
to yield the next positions as instances of your class, optionally override
``canonical`` (positions that are the same for search purposes) and ``isgoal``,
then call ``.solve()`` for a shortest solution (breadth-first) or
``.solve(depthFirst=True)``. The answer is the list of positions from start to
goal, as in the seed; ``.last_result`` keeps the search statistics.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any

from .core.domain import Domain
from .core.results import SOLVED, Budget, Cancel, SearchResult
from .core.search import OnProgress, breadth_first, depth_first


class Puzzle:
    #: default starting position (any value: text, a tuple of jug contents...)
    pos: Any = ""
    #: ending position used by isgoal()
    goal: Any = ""
    #: the last search's statistics (set by :meth:`solve`)
    last_result: SearchResult[Puzzle, None]

    def __init__(self, pos: Any = None) -> None:
        if pos is not None:
            self.pos = pos

    def __repr__(self) -> str:
        return repr(self.pos)

    def canonical(self) -> Hashable:
        """A representation equal for equivalent positions (default: the repr)."""
        return repr(self)

    def isgoal(self) -> bool:
        return bool(self.pos == self.goal)

    def __iter__(self) -> Iterator[Puzzle]:
        return iter(())

    def solve(
        self,
        depthFirst: bool = False,  # the original's own spelling
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> list[Puzzle]:
        """Positions from this one to a goal; [] when the search proves none exists."""
        search = depth_first if depthFirst else breadth_first
        result = search(_PuzzleDomain(), self, budget=budget, cancel=cancel, progress=progress)
        self.last_result = result
        return result.states if result.status == SOLVED else []


class _PuzzleDomain(Domain[Puzzle, None]):
    """Adapts seed-style Puzzle objects to the domain interface (moves have no name)."""

    name = "puzzle"

    def moves(self, state: Puzzle) -> Iterable[tuple[None, Puzzle]]:
        return ((None, nxt) for nxt in state)

    def is_goal(self, state: Puzzle) -> bool:
        return state.isgoal()

    def key(self, state: Puzzle) -> Hashable:
        return state.canonical()

    def format(self, state: Puzzle) -> str:
        return repr(state)
