"""A fast, general, optimal puzzle search library.

* :mod:`solver.search`: breadth-first, depth-first, bidirectional, A*, IDA*,
  written once over the :class:`~solver.domain.Domain` interface;
* :mod:`solver.klotski`, :mod:`solver.npuzzle`, :mod:`solver.watersort`: domains;
* :class:`Puzzle`: the seed's subclass-and-solve API;
* :mod:`solver.engine`: ``solve_board``/``analyse_board`` for the CLI and web app.
"""
from .domain import Analysis, Domain
from .errors import BoardError
from .puzzle import Puzzle
from .search import (Budget, Progress, SearchResult, astar, bidirectional, breadth_first,
                     depth_first, ida_star)

__all__ = ["Analysis", "BoardError", "Budget", "Domain", "Progress", "Puzzle",
           "SearchResult", "astar", "bidirectional", "breadth_first", "depth_first",
           "ida_star"]
