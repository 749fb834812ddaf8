"""Checking Socket.IO payloads before any work is queued.

Anything a browser (or an attacker) sends arrives here first. A payload that is
not exactly what the protocol allows raises :class:`~webapp.puzzle_request.RequestRefused`
with one line saying what is wrong; the event handler turns it into an ``error``
event and the server carries on. The game, board and options are read by the one
parser every request goes through (:class:`~webapp.puzzle_request.PuzzleRequest`);
deeper checks of the board itself are the solver's job, in a solver process.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from solver.comparison import check_algorithms
from solver.core.errors import BoardError
from solver.core.text import N_

from ..jobs.model import JobRequest
from ..protocol import RequestId
from ..puzzle_request import PuzzleRequest, RequestRefused

MAX_ID_CHARS = 100


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def request_id(payload: Any) -> RequestId:
    """The payload's ``id`` when it is a usable one, else None (for echoing in errors)."""
    if isinstance(payload, dict):
        value = payload.get("id")
        if (isinstance(value, str) and len(value) <= MAX_ID_CHARS) or (
            _is_int(value) and abs(value) < 2**53
        ):
            return value
    return None


def _check_id(payload: dict) -> RequestId:
    if payload.get("id") is None:
        return None
    checked = request_id(payload)
    if checked is None:
        raise RequestRefused(
            N_("id must be text up to %(chars)s characters or a number"), chars=MAX_ID_CHARS
        )
    return checked


def one_payload(event: str, args: tuple) -> Any:
    """The single payload of an event's arguments (None when there is none)."""
    if len(args) > 1:
        raise RequestRefused(
            N_("%(event)s takes one payload object, not %(count)s arguments"),
            event=event,
            count=len(args),
        )
    return args[0] if args else None


def parse_job_request(payload: Any) -> JobRequest:
    """Check an ``analyse``/``solve`` payload ``{game, board, id?, ...options}``; raise
    :class:`RequestRefused` if malformed (an option the game does not declare included)."""
    if not isinstance(payload, dict):
        raise RequestRefused(N_("payload must be an object like {game, board}"))
    job_id = _check_id(payload)
    asked = PuzzleRequest.from_fields(payload, reserved=("id",))
    return JobRequest(game=asked.game, board=asked.board, id=job_id, options=asked.options)


def parse_lab_request(payload: Any) -> JobRequest:
    """Check a ``lab_run`` payload ``{game, board, algorithms, id?, ...options}``: the
    board as for ``solve``, and 2-4 distinct algorithms that can all search the game."""
    if not isinstance(payload, dict):
        raise RequestRefused(N_("payload must be an object like {game, board, algorithms}"))
    job_id = _check_id(payload)
    asked = PuzzleRequest.from_fields(payload, reserved=("id", "algorithms"))
    try:
        algorithms = check_algorithms(asked.game, payload.get("algorithms"), **asked.options)
    except BoardError as err:
        raise RequestRefused(err) from None
    return JobRequest(
        game=asked.game,
        board=asked.board,
        id=job_id,
        options=asked.options,
        algorithms=tuple(algorithms),
    )


def parse_cancel(payload: Any) -> RequestId | None:
    """Check a ``cancel`` payload (nothing, ``{}`` or ``{id}``); return the id or None."""
    if payload is None:
        return None
    if not isinstance(payload, dict):
        raise RequestRefused(N_("cancel payload must be an object like {} or {id}"))
    return _check_id(payload)
