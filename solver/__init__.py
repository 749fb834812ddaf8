"""A fast, general, optimal puzzle search library.

* :mod:`solver.core.search`: breadth-first, depth-first, bidirectional, A*, IDA*,
  written once over the :class:`~solver.core.domain.Domain` interface;
* :mod:`solver.klotski`, :mod:`solver.npuzzle`, :mod:`solver.watersort`: domains;
* :class:`Puzzle`: the seed's subclass-and-solve API;
* :mod:`solver.engine`: ``solve_board``/``analyse_board`` for the CLI and web app.
"""
from .core.domain import Analysis, Domain
from .core.errors import BoardError
from .core.results import Budget, Progress, SearchResult
from .core.search import astar, bidirectional, breadth_first, depth_first, ida_star
from .puzzle import Puzzle

__all__ = ["Analysis", "BoardError", "Budget", "Domain", "Progress", "Puzzle",
           "SearchResult", "astar", "bidirectional", "breadth_first", "depth_first",
           "ida_star"]
