"""Ranked attempts: the server's clock and the server's record of help decide a ranking.

Contract ("Ranked play"). A ranked attempt opens when the server hands a ranked
puzzle (today's daily, a shipped level opened by its own link) to a player: its
play page or ``GET /api/daily/<game>``. The first open counts; reopening the page
does not restart the clock. A result ends the attempt, and it is ranked only when

- the attempt exists and was still open (one ranked result per player and puzzle:
  a retry after the coach opened on the finished game is never ranked),
- no socket of the player asked ``analyse`` or ``solve`` about it while it was open
  (:class:`webapp.players.helps.HelpLedger` records that), and
- the client does not say it had help either (Hint, Solve, the opened coach).

Its seconds are the server's, from the open to the submission; the client's own
count is only shown to the player.

**Which requests are help.** The page's coach analyses every position after every
move, so a request about *any* position counts, not only the start: an ``analyse``
or ``solve`` from the player's socket whose game and options (all of them, defaults
filled in) are those of one of the player's open attempts marks that attempt
assisted, whatever the board. Telling whether a board is reachable from the start
would cost a search per request, and the looser rule only errs one way: free play
of the same game and rules while a ranked attempt is open makes that attempt
unranked (the page says so before the player opens the coach).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import cast

from flask import current_app, request
from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from solver import catalogue
from solver.core.errors import BoardError

from ..puzzle_request import RequestRefused, game_named
from ..storage import Database
from ..storage.models import Attempt
from .challenges import Challenge, identify, ladder_challenge
from .identity import TooManyPlayers, address_key, find_player, new_player
from .sessions import cookie_player, session_cookie


def family(game: str, options_json: str) -> str:
    """The key a socket request is matched on: the game and its full options."""
    return hashlib.sha256(f"{game}|{options_json}".encode()).hexdigest()


def request_family(game: str, options: dict) -> str | None:
    """:func:`family` of an ``analyse``/``solve`` request (None: options no puzzle has)."""
    try:
        full = catalogue.get(game).full_options(options)
    except (BoardError, RequestRefused):
        return None
    # the same text as Challenge.options_json
    return family(game, Challenge(game, "", full, None, None).options_json)


@dataclass(frozen=True)
class AttemptView:
    """What the play page is told about its attempt."""

    opened: dt.datetime
    assisted: bool
    finished: bool

    def page(self, now: dt.datetime) -> dict:
        """``seconds``: the attempt's clock at ``now``, the one the page shows (the server's)."""
        return {
            "ranked": not (self.assisted or self.finished),
            "assisted": self.assisted,
            "finished": self.finished,
            "seconds": round(max(0.0, (now - self.opened).total_seconds()), 2),
        }


def open_attempt(db: Database, player_id: int, puzzle: Challenge, now: dt.datetime) -> AttemptView:
    """The player's attempt at ``puzzle``, opened now unless it was opened before."""
    found = _find(db, player_id, puzzle)
    if found is not None:
        return found
    try:
        with db.writing() as session:
            session.add(
                Attempt(
                    player_id=player_id,
                    puzzle=puzzle.key,
                    family=family(puzzle.game, puzzle.options_json),
                    opened=now,
                    assisted=False,
                    finished=None,
                )
            )
    except IntegrityError:  # opened at the same moment by another request: that one counts
        pass
    found = _find(db, player_id, puzzle)
    assert found is not None  # just written, by this request or a concurrent one
    return found


def _find(db: Database, player_id: int, puzzle: Challenge) -> AttemptView | None:
    with db.session() as session:
        row = session.scalars(
            select(Attempt).where(Attempt.player_id == player_id, Attempt.puzzle == puzzle.key)
        ).first()
        if row is None:
            return None
        return AttemptView(row.opened, row.assisted, row.finished is not None)


@dataclass(frozen=True)
class Verdict:
    """How a submission is judged: ``ranked``, the ``seconds`` to store (the server's
    when it ended an open attempt, else the client's) and ``assisted``."""

    ranked: bool
    seconds: float
    assisted: bool


MAX_SECONDS = 7 * 24 * 3600


def judge(
    session: Session,
    player_id: int,
    puzzle: Challenge,
    client_seconds: float,
    client_assisted: bool,
    now: dt.datetime,
) -> Verdict:
    """Judge a verified line for ``puzzle`` and end the player's open attempt at it, in
    ``session`` (the transaction that stores the result: both happen or neither).

    Ending is one conditional UPDATE (``finished IS NULL``), so two submissions sent
    at once cannot both end the attempt: at most one of them is ranked.
    """
    if not puzzle.rankable:
        return Verdict(False, client_seconds, client_assisted)
    row = session.scalars(
        select(Attempt).where(Attempt.player_id == player_id, Attempt.puzzle == puzzle.key)
    ).first()
    if row is None or row.finished is not None:
        return Verdict(False, client_seconds, client_assisted)
    ending = update(Attempt).where(Attempt.id == row.id, Attempt.finished.is_(None))
    ended = cast(CursorResult, session.execute(ending.values(finished=now))).rowcount
    assisted = bool(row.assisted or client_assisted)
    seconds = min(MAX_SECONDS, max(0.0, (now - row.opened).total_seconds()))
    return Verdict(bool(ended) and not assisted, round(seconds, 2), assisted)


# -- the play page ---------------------------------------------------------------


def ranked_link(config: dict) -> bool:
    """True when the page was opened as a ranked puzzle: ``?daily=1``, ``?level=`` or a
    ladder puzzle's ``?ladder=1&board=``."""
    generated = config.get("generated")
    return bool(
        (generated and generated.get("daily"))
        or config.get("level_link")
        or config.get("ladder") == "play"
    )


def open_for_page(config: dict) -> tuple[dict | None, str | None]:
    """Open the attempt of a play page opened as a ranked puzzle (see :func:`ranked_link`).

    Returns the page's ``attempt`` ({ranked, assisted, finished, seconds}; None when the page is
    free play) and the cookie to set, if any (a player made now, or an old cookie's
    new session).
    """
    if config.get("error") or not ranked_link(config):
        return None, None
    state = current_app.extensions["players"]
    game = game_named(config["game"])
    today = state.now().date()
    puzzle, _domain = identify(game, config["board"], config["options"], today, state.daily)
    if config.get("ladder") == "play":  # a board the ladder served is ranked; another is not
        puzzle = ladder_challenge(state.db, puzzle)
    if not puzzle.rankable:
        return None, None
    secret = str(current_app.secret_key)
    token = cookie_player(state, secret)  # an old cookie becomes a session here
    made = None
    if token is None:
        try:  # a new player within the address's hourly share, else the page is unranked
            with state.db.writing() as session:
                made = new_player(
                    session,
                    state.now(),
                    address_key(secret, request.remote_addr),
                    current_app.config["NEW_PLAYERS_PER_ADDRESS"],
                ).token
        except TooManyPlayers:
            return None, None
    with state.db.session() as session:
        player = find_player(session, token or made)
        assert player is not None  # found by its cookie, or made just now
        player_id = player.id
    view = open_attempt(state.db, player_id, puzzle, state.now())
    return view.page(state.now()), session_cookie(state, secret, made)
