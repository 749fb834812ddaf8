"""Work that HTTP requests need: a generated level, the editor's check, a state space's
graph and a search's visiting order over it, a line's replay, a judged move.

They used to run in the request thread, where a few of them at once stalled
every socket of the web process. Now a page asks the job core
(:meth:`~webapp.jobs.core.JobCore.page_task`) with one of the requests of
:mod:`webapp.jobs.contract` and waits, within a time budget, for a solver process
of the page lane to answer. :func:`page_search` is what that process runs; it
knows nothing of HTTP.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from typing import Any

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.judge import NotProven, judge_move
from solver.core.replay import ReplayTooSlow, replay_line
from solver.core.results import Budget
from solver.core.space import SpaceTooLarge, state_space
from solver.core.text import N_
from solver.engine import analyse_board
from solver.visits import search_visits

from ..protocol import message_fields
from .contract import (
    CheckBoard,
    Checked,
    Failure,
    GenerateLevel,
    GraphSpace,
    Judged,
    JudgeMove,
    Outcome,
    Packed,
    ReplayLine,
    Task,
    VisitOrder,
)

CHECK_NODES = 400_000
NOT_ONE_MOVE = N_("that is not one legal move from %(board)s")


def _packed(payload: Any, positions: int) -> Packed:
    """Serialised and compressed here: the web process only passes the bytes on."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    return Packed(gzip.compress(body, 6), positions)


def _answer(task: Task[Any], seconds: float, cancel: Callable[[], bool] | None) -> Any:
    game = catalogue.get(task.game)
    if isinstance(task, ReplayLine):
        domain = game.make_domain(**game.check_options(task.options))
        return replay_line(domain, task.board, task.states, task.shortest, seconds, cancel)
    if isinstance(task, JudgeMove):
        domain = game.make_domain(**game.check_options(task.options))
        judged = judge_move(domain, task.before, task.after, Budget(None, seconds), cancel)
        if not judged["legal"]:
            raise BoardError(NOT_ONE_MOVE, board=repr(task.before))
        return Judged(**{key: judged[key] for key in Judged.__dataclass_fields__})
    if isinstance(task, GenerateLevel):
        return game.generate(task.params, task.seed, task.daily)
    if isinstance(task, CheckBoard):
        analysis = analyse_board(
            task.game, task.board, budget=Budget(CHECK_NODES, seconds), rate=False, **task.options
        )
        return Checked(
            analysis["solvable"], analysis["distance"], analysis["optimal"], analysis["message"]
        )
    if isinstance(task, GraphSpace):
        domain = game.make_domain(**task.options)
        space = state_space(domain, domain.parse(task.board), cancel=cancel)
        return _packed(space.payload(), len(space.boards))
    if isinstance(task, VisitOrder):
        # the graph again (its indices), then the search watched over it, both
        # within the task's seconds
        started = time.monotonic()
        domain = game.make_domain(**task.options)
        space = state_space(domain, domain.parse(task.board), cancel=cancel)
        left = seconds * 0.9 - (time.monotonic() - started)
        visits = search_visits(
            task.game,
            space,
            task.algorithm,
            budget=Budget(None, max(left, 0.1)),
            cancel=cancel,
            **task.options,
        )
        return _packed(visits, len(space.boards))
    raise ValueError(f"unknown page task {task!r}")


def _failure(err: BoardError) -> Failure:
    fields = message_fields(err)
    return Failure(str(err), fields["template"], fields["params"])


def page_search(
    task: Task[Any], seconds: float, cancel: Callable[[], bool] | None = None
) -> tuple[Outcome, Any]:
    """``(DONE, answer)``; ``(REFUSED, failure)`` for a bad request (a move that is not
    one legal move too), ``(TOO_LARGE, failure)`` for a state space over its limit, or
    ``(FAILED, failure)`` for a replay or a judged move over its budget."""
    try:
        return Outcome.DONE, _answer(task, seconds, cancel)
    except SpaceTooLarge as err:
        return Outcome.TOO_LARGE, _failure(err)
    except BoardError as err:
        return Outcome.REFUSED, _failure(err)
    except (ReplayTooSlow, NotProven) as err:
        return Outcome.FAILED, Failure(str(err))
