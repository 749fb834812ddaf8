"""One move judged in a solver process, for any caller: a race's socket handler, a run's route.

A streak, a storm or a race sends the position each move reached; the server alone
says whether it is one legal move from the last and whether it took exactly one
move off the proven distance (:func:`solver.core.judge.judge_move`). The work runs
in the replay lane's solver processes (shared fairly by address, then player),
never on the event loop; the caller's greenlet waits cooperatively. Nothing here
reads a Flask request: the caller says who asks and how long the move may take.
"""

from __future__ import annotations

from solver.core.text import N_
from solver.engine import MAX_BOARD_CHARS

from ..puzzle_request import RequestRefused
from .contract import Judged, JudgeMove
from .core import JobCore
from .model import REPLAY_LANE


def judge(
    jobs: JobCore,
    game: str,
    options: dict,
    before: str,
    after: object,
    seconds: float,
    address: str = "",
    player: str = "",
) -> Judged:
    """Judge the move from ``before`` (the server's position) to ``after`` (as sent).

    A 400 :class:`RequestRefused` for ``after`` that is not text within the size
    limit; BoardError for text that is no position or no legal move from ``before``;
    :class:`~webapp.jobs.model.TaskRefused` when the solver processes are busy or the
    distance is not proven in time (the move is then not judged). Each maps to its
    status and ``error`` in :mod:`webapp.jobs.outcomes`."""
    if not isinstance(after, str) or not after.strip() or len(after) > MAX_BOARD_CHARS:
        raise RequestRefused(N_("board must be the position the move reached, as text"))
    return jobs.page_task(
        JudgeMove(game, options, before, after),
        seconds,
        address=address,
        player=player,
        lane_name=REPLAY_LANE,
    )
