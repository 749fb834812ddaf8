"""Checking Socket.IO payloads before any work is queued.

Anything a browser (or an attacker) sends arrives here first. A payload that is
not exactly what the protocol allows raises :class:`PayloadError` with one line
saying what is wrong; the event handler turns it into an ``error`` event and the
server carries on. Deeper checks of the board itself are the solver's job
(:class:`~solver.errors.BoardError`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union

from solver.engine import MAX_BOARD_CHARS, OPTIONS, PUZZLES
from solver.klotski_board import MAX_PIECES as KLOTSKI_MAX_PIECES
from solver.klotski_board import MAX_SIDE as KLOTSKI_MAX_SIDE
from solver.npuzzle import MAX_SIDE as NPUZZLE_MAX_SIDE
from solver.watersort import MAX_CAPACITY
from solver.watersort import MAX_TUBES as WATERSORT_MAX_TUBES

MAX_ID_CHARS = 100
MAX_OPTION_CHARS = 100

RequestId = Union[str, int, None]


class PayloadError(ValueError):
    """A Socket.IO payload that breaks the protocol (shape, types, sizes)."""


@dataclass(frozen=True)
class JobRequest:
    """A checked ``analyse``/``solve`` request: what the job runner works on."""

    game: str
    board: str
    id: RequestId = None
    options: dict = field(default_factory=dict)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def request_id(payload: Any) -> RequestId:
    """The payload's ``id`` when it is a usable one, else None (for echoing in errors)."""
    if isinstance(payload, dict):
        value = payload.get("id")
        if (isinstance(value, str) and len(value) <= MAX_ID_CHARS) or \
                (_is_int(value) and abs(value) < 2 ** 53):
            return value
    return None


def _check_id(payload: dict) -> RequestId:
    value = payload.get("id")
    if value is None:
        return None
    if request_id(payload) is None:
        raise PayloadError(f"id must be text up to {MAX_ID_CHARS} characters or a number")
    return value


def _check_option(name: str, value: Any) -> Any:
    """Type-check one option; ``None`` means "use the default"."""
    if value is None:
        return None
    if name == "capacity":
        if not _is_int(value) or not 1 <= value <= MAX_CAPACITY:
            raise PayloadError(f"capacity must be a whole number from 1 to {MAX_CAPACITY}")
        return value
    if not isinstance(value, str) or len(value) > MAX_OPTION_CHARS:
        raise PayloadError(f"{name} must be text up to {MAX_OPTION_CHARS} characters")
    return value


def _check_size(game: str, board: str) -> None:
    """Cheap size checks before any work: tiles, tubes, rows and pieces.

    The solver checks everything again when it parses; these only make sure an
    oversized board is refused in the web process, never queued for a worker.
    """
    if game == "npuzzle":
        tiles = len(board.replace(",", " ").replace("/", " ").split())
        if tiles > NPUZZLE_MAX_SIDE ** 2:
            raise PayloadError(f"board has {tiles} tiles; the largest puzzle is "
                               f"{NPUZZLE_MAX_SIDE}x{NPUZZLE_MAX_SIDE}")
    elif game == "watersort":
        tubes = board.count(",") + 1
        if tubes > WATERSORT_MAX_TUBES:
            raise PayloadError(f"board has {tubes} tubes; the limit is {WATERSORT_MAX_TUBES}")
    elif game == "klotski":
        rows = board.split("/")
        if len(rows) > KLOTSKI_MAX_SIDE or max(len(row) for row in rows) > KLOTSKI_MAX_SIDE:
            raise PayloadError(f"board is larger than {KLOTSKI_MAX_SIDE}x{KLOTSKI_MAX_SIDE} cells")
        pieces = len(set(board) - {"/", "."})
        if pieces > KLOTSKI_MAX_PIECES:
            raise PayloadError(f"board has {pieces} pieces; at most {KLOTSKI_MAX_PIECES} "
                               "are allowed")


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
    if game not in PUZZLES:
        raise PayloadError(f"unknown game {game[:40]!r}; choose one of {', '.join(PUZZLES)}")
    board = payload.get("board")
    if board is None:
        raise PayloadError("missing board")
    if not isinstance(board, str):
        raise PayloadError("board must be text")
    if len(board) > MAX_BOARD_CHARS:
        raise PayloadError(f"board is {len(board)} characters long; the limit is {MAX_BOARD_CHARS}")
    _check_size(game, board)
    job_id = _check_id(payload)
    every_option = set().union(*OPTIONS.values())
    options = {}
    for name in sorted(every_option):
        value = _check_option(name, payload.get(name))
        if value is not None and name in OPTIONS[game]:
            options[name] = value
    return JobRequest(game=game, board=board, id=job_id, options=options)


def parse_cancel(payload: Any) -> Optional[RequestId]:
    """Check a ``cancel`` payload (nothing, ``{}`` or ``{id}``); return the id or None."""
    if payload is None:
        return None
    if not isinstance(payload, dict):
        raise PayloadError("cancel payload must be an object like {} or {id}")
    return _check_id(payload)
