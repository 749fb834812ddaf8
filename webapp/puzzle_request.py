"""One parser for every request about a puzzle, from a socket or over HTTP.

A request names a game, a board and the game's options. It arrives in three
wire shapes: a Socket.IO ``analyse``/``solve`` sends the options beside the
board (``{game, board, id, metric}``), an HTTP body in its ``options`` object
(``{game, board, options: {metric}}``), a page in its query string. Each shape
is read into a :class:`PuzzleRequest` by :meth:`PuzzleRequest.parse`, under one
policy:

* ``game`` is one of the catalogue's games;
* ``board`` is text within the size limits (:data:`~solver.engine.MAX_BOARD_CHARS`
  and the game's cheap :meth:`~solver.core.game.Game.check_size`); parsing it
  properly is the solver's job, later, off the event loop;
* ``options`` are the game's declared options, typed; a value of ``None`` or
  ``""`` means the default; **an option the game does not declare is an error**,
  whichever game declares it.

Every refusal is one :class:`RequestRefused`, whose message names what is wrong:
HTTP answers it with its status and ``{"error": message, "template", "params"}``,
Socket.IO with an ``error`` event carrying the same (the page translates the template).
Nothing here imports Flask: the players' domain raises these refusals too, and the
one reader of HTTP bodies (:func:`webapp.http.bodies.read_json_body`) builds on
:func:`strict_json`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.game import Game
from solver.core.text import N_
from solver.engine import MAX_BOARD_CHARS


class RequestRefused(ValueError):
    """A request the server refuses: ``status`` (400 unless said) with the message.

    Like :class:`~solver.core.errors.BoardError` it keeps its words as data too: the
    ``template`` (marked with :func:`~solver.core.text.N_`, ``%(name)s`` fields) and its
    ``params``, which every reply carrying the refusal sends beside the English message
    for the page to say it in the player's language. A solver's error passes through
    with its own template.
    """

    def __init__(
        self,
        message: str | BoardError,
        status: int = 400,
        headers: dict[str, str] | None = None,
        **params: object,
    ):
        if isinstance(message, BoardError):
            template, params = message.template, dict(message.params)
        else:
            template = message
        super().__init__(template % params if params else template)
        self.template = template
        self.params = params
        self.status = status
        self.headers = headers or {}


def game_named(name: object) -> type[Game]:
    """The declaration of the game called ``name``; RequestRefused for any other value."""
    if name is None:
        raise RequestRefused(N_("missing game"))
    if not isinstance(name, str):
        raise RequestRefused(N_("game must be text"))
    known = catalogue.games()
    if name not in known:
        raise RequestRefused(
            N_("unknown game %(name)s; choose one of %(games)s"),
            name=repr(name[:40]),
            games=", ".join(known),
        )
    return known[name]


@dataclass(frozen=True)
class PuzzleRequest:
    """A checked (game, board, options): the game exists, the board is text of a size
    the game allows, the options are the game's own, typed (defaults left out)."""

    game: str
    board: str
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, game: object, board: object, options: object = None) -> PuzzleRequest:
        """Check one request; raises :class:`RequestRefused` naming the first problem."""
        declared = game_named(game)
        if board is None:
            raise RequestRefused(N_("missing board"))
        if not isinstance(board, str):
            raise RequestRefused(N_("board must be text"))
        if len(board) > MAX_BOARD_CHARS:
            raise RequestRefused(
                N_("board is %(chars)s characters long; the limit is %(limit)s"),
                chars=len(board),
                limit=MAX_BOARD_CHARS,
            )
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RequestRefused(N_("options must be an object"))
        try:
            declared.check_size(board)
            checked = declared.check_options(dict(options))
        except BoardError as err:
            raise RequestRefused(err) from None
        return cls(declared.name, board, checked)

    @classmethod
    def from_fields(
        cls, fields: Mapping[str, Any], reserved: Collection[str] = ()
    ) -> PuzzleRequest:
        """From one flat mapping, as Socket.IO and query strings carry it: ``game``,
        ``board``, and every other key an option, but the caller's ``reserved`` ones."""
        skip = {"game", "board", *reserved}
        options = {key: value for key, value in fields.items() if key not in skip}
        return cls.parse(fields.get("game"), fields.get("board"), options)


#: no numeric field of any endpoint needs more digits (a week in hundredths of a second has 8)
MAX_DIGITS = 20


class BadNumber(BoardError):
    """A JSON number no endpoint accepts; the message says why."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadNumber(N_("numbers may have at most %(digits)s digits"), digits=MAX_DIGITS)
    return int(text)


def _float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise BadNumber(N_("numbers may have at most %(digits)s digits"), digits=MAX_DIGITS)
    value = float(text)
    if not math.isfinite(value):
        raise BadNumber(N_("the number %(number)s is too large"), number=text[:20])
    return value


def _constant(name: str) -> Any:
    raise BadNumber(f"{name} is not a number JSON allows")


def strict_json(data: bytes | str) -> Any:
    """``json.loads`` refusing what no browser sends: ``NaN``, ``Infinity``, ``1e400``
    (read as ``inf``) and integers of many digits, which later fail far from the parser
    (``math.isfinite(10**400)`` raises OverflowError, ``str()`` of a 5,000-digit int
    ValueError). Raises :class:`BadNumber` for those, ValueError for broken JSON."""
    return json.loads(data, parse_int=_int, parse_float=_float, parse_constant=_constant)
