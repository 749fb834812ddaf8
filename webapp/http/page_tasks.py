"""The one way an HTTP route asks the solver processes, and what their refusals answer.

A route that runs a page task (a replayed result, a run's judged move, the editor's
check, a state space's graph and visits) asks through :func:`ask` or :func:`judge`:
a full or slow lane is then a 503 with ``Retry-After``, a state space over its limit
a 413 and a request the solver refuses a 400, each a
:class:`~webapp.puzzle_request.RequestRefused` answered ``{"error", "template",
"params"}``. A page task the domain code runs (a generated level: the daily, the
ladder's and runs' puzzles, a seeded page) is mapped the same way by the players'
API's and the pages' error handlers. The mapping is the job core's one
(:func:`webapp.jobs.outcomes.refusal`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from flask import current_app, request

from ..jobs.contract import Judged
from ..jobs.judging import judge as judge_move
from ..jobs.model import PAGE, Task
from ..jobs.outcomes import REFUSALS, refusal

Answer = TypeVar("Answer")


@contextmanager
def _refusals() -> Iterator[None]:
    """Turn a page task's failure inside the block into its HTTP refusal."""
    try:
        yield
    except REFUSALS as err:
        raise refusal(err) from None


def ask(
    task: Task[Answer],
    seconds: float,
    *,
    address: str = "",
    player: str = "",
    lane: str = PAGE,
) -> Answer:
    """Run ``task`` in ``lane``'s solver processes and wait for its answer
    (cooperatively: under gevent only this request waits). ``address`` and ``player``
    say whose fair share of the lane it uses (by default each kind shares one)."""
    with _refusals():
        return current_app.extensions["jobs"].page_task(
            task, seconds, address=address, player=player, lane_name=lane
        )


def judge(game: str, options: dict, before: str, after: object, player: str = "") -> Judged:
    """The move from ``before`` to ``after`` (as sent) judged in the replay lane within
    ``REPLAY_SECONDS``, on this request's address and ``player``'s share
    (:func:`webapp.jobs.judging.judge`)."""
    with _refusals():
        return judge_move(
            current_app.extensions["jobs"],
            game,
            options,
            before,
            after,
            float(current_app.config["REPLAY_SECONDS"]),
            request.remote_addr or "",
            player,
        )
