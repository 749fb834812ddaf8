"""A fast, general, optimal puzzle search library.

* :mod:`solver.core`: the search algorithms (breadth-first, depth-first,
  bidirectional, A*, IDA*) written once over the :class:`Domain` interface,
  their results and budgets, the table store and the game declaration;
* one package per game (``solver/klotski/``, ``solver/npuzzle/`` ...), each
  declaring itself once as ``GAME``; :mod:`solver.catalogue` finds them all;
* :class:`Puzzle`: the original's subclass-and-solve API;
* :mod:`solver.engine`: ``solve_board``/``analyse_board`` for the CLI and web app.

The names below are imported when first asked for (:pep:`562`): ``python -m solver``
and every ``solver.<module>`` import load this package first, and a one-shot CLI call
should pay only for the modules its command uses.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing's: importing typing costs a one-shot call milliseconds
if TYPE_CHECKING:
    from .core.domain import Analysis, Domain
    from .core.errors import BoardError
    from .core.results import Budget, Progress, SearchResult, Status
    from .core.search import astar, bidirectional, breadth_first, depth_first, ida_star
    from .puzzle import Puzzle

#: each exported name's module
_HOMES = {
    "Analysis": ".core.domain",
    "Domain": ".core.domain",
    "BoardError": ".core.errors",
    "Budget": ".core.results",
    "Progress": ".core.results",
    "SearchResult": ".core.results",
    "Status": ".core.results",
    "astar": ".core.search",
    "bidirectional": ".core.search",
    "breadth_first": ".core.search",
    "depth_first": ".core.search",
    "ida_star": ".core.search",
    "Puzzle": ".puzzle",
}

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


def __getattr__(name: str) -> object:
    """An exported name, its module imported on first use (then kept as an attribute)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value
    return value
