"""Checking Socket.IO payloads before any work is queued.

Anything a browser (or an attacker) sends arrives here first. A payload that is
not exactly what the protocol allows raises :class:`PayloadError` with one line
saying what is wrong; the event handler turns it into an ``error`` event and the
server carries on. Deeper checks of the board itself are the solver's job
(:class:`~solver.core.errors.BoardError`).
"""

from __future__ import annotations

from typing import Any, TypeGuard

from solver import catalogue
from solver.core.errors import BoardError
from solver.engine import MAX_BOARD_CHARS

from ..jobs.model import JobRequest
from ..protocol import RequestId

MAX_ID_CHARS = 100


class PayloadError(ValueError):
    """A Socket.IO payload that breaks the protocol (shape, types, sizes)."""


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
        raise PayloadError(f"id must be text up to {MAX_ID_CHARS} characters or a number")
    return checked


def _checked_options(game, payload: dict) -> dict:
    """The payload's options for ``game``, typed by the declarations.

    An option of another game is checked too (a page may send them all) and then
    dropped; keys no game declares are ignored.
    """
    options = {}
    for other in catalogue.games().values():
        for option in other.options:
            mine = game.option(option.name)
            value = (mine or option).coerce(payload.get(option.name))
            if value is not None and mine is not None:
                options[option.name] = value
    return options


def one_payload(event: str, args: tuple) -> Any:
    """The single payload of an event's arguments (None when there is none)."""
    if len(args) > 1:
        raise PayloadError(f"{event} takes one payload object, not {len(args)} arguments")
    return args[0] if args else None


def parse_job_request(payload: Any) -> JobRequest:
    """Check an ``analyse``/``solve`` payload; raise :class:`PayloadError` if malformed.

    Options known to any game are type-checked; those that do not apply to this
    game are dropped (a page may send them all), and unknown keys are ignored.
    """
    if not isinstance(payload, dict):
        raise PayloadError("payload must be an object like {game, board}")
    game = payload.get("game")
    if game is None:
        raise PayloadError("missing game")
    if not isinstance(game, str):
        raise PayloadError("game must be text")
    known = catalogue.games()
    if game not in known:
        raise PayloadError(f"unknown game {game[:40]!r}; choose one of {', '.join(known)}")
    board = payload.get("board")
    if board is None:
        raise PayloadError("missing board")
    if not isinstance(board, str):
        raise PayloadError("board must be text")
    if len(board) > MAX_BOARD_CHARS:
        raise PayloadError(f"board is {len(board)} characters long; the limit is {MAX_BOARD_CHARS}")
    job_id = _check_id(payload)
    try:
        known[game].check_size(board)
        options = _checked_options(known[game], payload)
    except BoardError as err:
        raise PayloadError(str(err)) from None
    return JobRequest(game=game, board=board, id=job_id, options=options)


def parse_cancel(payload: Any) -> RequestId | None:
    """Check a ``cancel`` payload (nothing, ``{}`` or ``{id}``); return the id or None."""
    if payload is None:
        return None
    if not isinstance(payload, dict):
        raise PayloadError("cancel payload must be an object like {} or {id}")
    return _check_id(payload)
