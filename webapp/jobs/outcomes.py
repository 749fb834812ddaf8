"""What a page task's outcome means: its answer, or a refusal with its HTTP status and
its socket ``error``.

The one place for both halves. :func:`answer_of` turns what a solver process
reported (:class:`~webapp.jobs.contract.Outcome`) into the answer, or raises:
BoardError for a bad request, SpaceTooLarge for a state space over its limit,
:class:`~webapp.jobs.model.TaskRefused` (503, ``Retry-After``) when it failed or
never answered. :func:`refusal` turns any of those (or a
:class:`~webapp.puzzle_request.RequestRefused`) into the RequestRefused an HTTP
reply answers with its status (400, 413, 503) and headers; :func:`socket_error`
into the ``error`` payload a socket gets.
"""

from __future__ import annotations

from typing import Any

from solver.core.errors import BoardError
from solver.core.space import SpaceTooLarge

from ..protocol import ErrorEvent, RequestId
from ..puzzle_request import RequestRefused
from .contract import Failure, Outcome
from .model import TASK_SLOW_MESSAGE, TaskRefused
from .replies import error_payload

#: what a page task may raise: catch these, answer with :func:`refusal`
REFUSALS = (RequestRefused, TaskRefused, BoardError)
#: a state space over its limit: the request is fine, the answer too big to give
TOO_LARGE_STATUS = 413


def answer_of(reported: tuple[str, Any] | None) -> Any:
    """The answer a task's last report carries; raises as the module says."""
    if reported is None:
        raise TaskRefused(TASK_SLOW_MESSAGE)
    outcome, payload = reported
    if outcome == Outcome.DONE:
        return payload
    failure: Failure = payload
    if outcome == Outcome.REFUSED:
        raise BoardError(failure.template or failure.message, **failure.params)
    if outcome == Outcome.TOO_LARGE:
        raise SpaceTooLarge(failure.template or failure.message, **failure.params)
    raise TaskRefused(failure.message or TASK_SLOW_MESSAGE)


def refusal(err: RequestRefused | TaskRefused | BoardError) -> RequestRefused:
    """``err`` as the web tier's refusal: a bad board 400, a state space over its limit
    413, a task that could not run now 503 with ``Retry-After`` (its words kept as data)."""
    if isinstance(err, RequestRefused):
        return err
    if isinstance(err, TaskRefused):
        return RequestRefused(err.template, err.status, dict(err.headers), **err.params)
    if isinstance(err, SpaceTooLarge):
        return RequestRefused(err, TOO_LARGE_STATUS)
    return RequestRefused(err)


def socket_error(
    err: RequestRefused | TaskRefused | BoardError,
    event: str,
    job_id: RequestId = None,
    game: str | None = None,
) -> ErrorEvent:
    """``err`` as the ``error`` payload answering ``event`` on a socket."""
    return error_payload(refusal(err), event, job_id, game)
