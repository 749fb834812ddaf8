"""The JSON-ready shapes the engine returns, as ``TypedDict``\\ s.

:func:`solver.engine.solve_board` gives a :class:`SolveReport` (the command line's
``--json``, and the source of the web app's ``solution``), and
:func:`solver.engine.analyse_board` an :class:`AnalysisPayload` (the ``analysis``
event as it is sent). They are plain dicts at run time; the types only tell a reader
and a type checker which keys exist and what they hold.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypeAlias, TypedDict

from .core.coach import Verdict
from .core.results import Status

#: a move for the page: always ``text`` (``"B down"``), plus the game's own fields
#: (Klotski: ``piece``, ``from``, ``to``, ``path``; water sort: ``from``, ``to``,
#: ``amount``, ``colour``...), so it stays an open dict
MoveInfo: TypeAlias = dict[str, Any]


class Stats(TypedDict):
    """What a search cost. ``stored``/``memory``: the most entries its tables held at
    once and their bytes (:meth:`~solver.core.results.Monitor.holding`), from the
    searches that keep such tables (the named algorithms, the seeds')."""

    nodes: int
    seconds: float
    stored: NotRequired[int]
    memory: NotRequired[int]


class SolveReport(TypedDict):
    """The outcome of :func:`~solver.engine.solve_board`.

    ``status`` is None only while the report is filled in; ``lower_bound`` is
    proven: no solution is shorter.
    """

    puzzle: str
    board: str
    status: Status | None
    solvable: bool | None
    optimal: bool
    length: int | None
    lower_bound: int | None
    moves: list[str]
    move_details: list[MoveInfo]
    states: list[str]
    stats: Stats
    message: str


class RatedMove(TypedDict):
    """One legal move in an analysis's ``moves_rated``, with what is proven after it."""

    move: MoveInfo
    board: str
    distance: int | None
    solvable: bool | None
    optimal: bool
    verdict: Verdict


class AnalysisPayload(TypedDict):
    """The ``analysis`` event: the distance to solved, the best move, every move rated.

    ``final`` is False on an interim answer (a quick hint on a large board, maybe not
    shortest); ``lower_bound`` is proven (the search's bound or the game's admissible
    heuristic); ``moves_rated_complete`` is False when the budget ran out before every
    move was settled; ``nodes``, only on a search that gave up, is how many positions it
    searched.
    """

    board: str
    solved: bool
    solvable: bool | None
    distance: int | None
    optimal: bool
    best_move: MoveInfo | None
    next_board: str | None
    message: str
    lower_bound: int | None
    final: bool
    moves_rated: list[RatedMove]
    moves_rated_complete: bool
    nodes: NotRequired[int]
