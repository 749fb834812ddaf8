"""The one way an HTTP route asks the solver processes, and what their refusals answer.

Every route that runs a page task (a replayed result, a run's judged move, the
editor's check, a state space's graph and visits, a generated level) asks through
:func:`ask`, or runs the domain code that asks under :func:`solver_refusals`: a
full or slow lane is a 503 with ``Retry-After``, a state space over its limit a 413
and a request the solver refuses a 400, each a
:class:`~webapp.puzzle_request.RequestRefused` answered ``{"error", "template",
"params"}``. :func:`refusal` is the one mapping, which the pages' error handler
uses too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import current_app

from solver.core.errors import BoardError
from solver.core.space import SpaceTooLarge

from ..jobs.model import PAGE, TaskRefused, TaskRequest
from ..puzzle_request import RequestRefused

#: how long a refused page task's client is asked to wait before sending again
RETRY_SECONDS = 5


def refusal(err: TaskRefused | BoardError) -> RequestRefused:
    """The HTTP refusal a page task's failure is: busy or slow 503, too large 413,
    a bad request 400 (the solver's words kept, for the page to translate)."""
    if isinstance(err, TaskRefused):
        return RequestRefused(str(err), 503, {"Retry-After": str(RETRY_SECONDS)})
    if isinstance(err, SpaceTooLarge):
        return RequestRefused(err, 413)
    return RequestRefused(err)


@contextmanager
def solver_refusals() -> Iterator[None]:
    """Turn a page task's failure inside the block into its :func:`refusal`."""
    try:
        yield
    except (TaskRefused, BoardError) as err:
        raise refusal(err) from None


def ask(
    kind: str,
    task: TaskRequest,
    seconds: float,
    *,
    address: str = "",
    player: str = "",
    lane: str = PAGE,
) -> dict[str, Any]:
    """Run a page task of ``kind`` in ``lane``'s solver processes and wait for its answer
    (cooperatively: under gevent only this request waits). ``address`` and ``player``
    say whose fair share of the lane it uses (by default each kind shares one)."""
    with solver_refusals():
        return current_app.extensions["jobs"].page_task(
            kind, task, seconds, address=address, player=player, lane_name=lane
        )
