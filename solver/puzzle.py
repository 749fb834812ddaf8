"""The seed's generic ``Puzzle`` API, running on this library's algorithms.

Subclass :class:`Puzzle`, set ``pos`` (the start) and ``goal``, write ``__iter__``
to yield the next positions as instances of your class, optionally override
``canonical`` (positions that are the same for search purposes) and ``isgoal``,
then call ``.solve()`` for a shortest solution (breadth-first) or
``.solve(depthFirst=True)``. The answer is the list of positions from start to
goal, as in the seed; ``.last_result`` keeps the search statistics.
"""

from __future__ import annotations

from .core.domain import Domain
from .core.results import SOLVED
from .core.search import breadth_first, depth_first


class Puzzle:
    pos = ""  # default starting position
    goal = ""  # ending position used by isgoal()

    def __init__(self, pos=None):
        if pos is not None:
            self.pos = pos

    def __repr__(self):
        return repr(self.pos)

    def canonical(self):
        """A representation equal for equivalent positions (default: the repr)."""
        return repr(self)

    def isgoal(self):
        return self.pos == self.goal

    def __iter__(self):
        return iter(())

    def solve(self, depthFirst=False, budget=None, cancel=None, progress=None):
        """Positions from this one to a goal; [] when the search proves none exists."""
        search = depth_first if depthFirst else breadth_first
        result = search(_PuzzleDomain(), self, budget=budget, cancel=cancel, progress=progress)
        self.last_result = result
        return result.states if result.status == SOLVED else []


class _PuzzleDomain(Domain):
    """Adapts seed-style Puzzle objects to the domain interface."""

    name = "puzzle"

    def moves(self, state):
        return ((None, nxt) for nxt in state)

    def is_goal(self, state):
        return state.isgoal()

    def key(self, state):
        return state.canonical()

    def format(self, state):
        return repr(state)
