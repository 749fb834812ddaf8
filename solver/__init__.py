"""A fast, general, optimal puzzle search library.

* :mod:`solver.core`: the search algorithms (breadth-first, depth-first,
  bidirectional, A*, IDA*) written once over the :class:`Domain` interface,
  their results and budgets, the table store and the game declaration;
* one package per game (``solver/klotski/``, ``solver/npuzzle/`` ...), each
  declaring itself once as ``GAME``; :mod:`solver.catalogue` finds them all;
* :class:`Puzzle`: the seed's subclass-and-solve API;
* :mod:`solver.engine`: ``solve_board``/``analyse_board`` for the CLI and web app.
"""

from .core.domain import Analysis, Domain
from .core.errors import BoardError
from .core.results import Budget, Progress, SearchResult, Status
from .core.search import astar, bidirectional, breadth_first, depth_first, ida_star
from .puzzle import Puzzle

__all__ = [
    "Analysis",
    "BoardError",
    "Budget",
    "Domain",
    "Progress",
    "Puzzle",
    "SearchResult",
    "Status",
    "astar",
    "bidirectional",
    "breadth_first",
    "depth_first",
    "ida_star",
]
