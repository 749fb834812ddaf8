"""Ranked attempts: the server's clock and the server's record of help decide a ranking.

Contract ("Ranked play"). A ranked attempt opens when the server hands a ranked
puzzle (today's daily, a shipped level opened by its own link, a ladder puzzle) to a
player: its play page (:func:`page_puzzle`), ``GET /api/daily/<game>`` or the ladder. The first open counts; reopening the page
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

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from solver import catalogue
from solver.core.errors import BoardError

from ..puzzle_request import RequestRefused, game_named
from ..storage import Database
from ..storage.models import Attempt
from .challenges import Challenge, DailyMaker, identify, ladder_challenge


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
class AttemptRanking:
    """How a submission ranks: ``ranked``, the ``seconds`` to store (the server's
    when it ended an open attempt, else the client's) and ``assisted``."""

    ranked: bool
    seconds: float
    assisted: bool


MAX_SECONDS = 7 * 24 * 3600


def rank_attempt(
    session: Session,
    player_id: int,
    puzzle: Challenge,
    client_seconds: float,
    client_assisted: bool,
    now: dt.datetime,
) -> AttemptRanking:
    """Rank a verified line for ``puzzle`` and end the player's open attempt at it, in
    ``session`` (the transaction that stores the result: both happen or neither).

    Ending is one conditional UPDATE (``finished IS NULL``), so two submissions sent
    at once cannot both end the attempt: at most one of them is ranked.
    """
    if not puzzle.rankable:
        return AttemptRanking(False, client_seconds, client_assisted)
    row = session.scalars(
        select(Attempt).where(Attempt.player_id == player_id, Attempt.puzzle == puzzle.key)
    ).first()
    if row is None or row.finished is not None:
        return AttemptRanking(False, client_seconds, client_assisted)
    ending = update(Attempt).where(Attempt.id == row.id, Attempt.finished.is_(None))
    ended = cast(CursorResult, session.execute(ending.values(finished=now))).rowcount
    assisted = bool(row.assisted or client_assisted)
    seconds = min(MAX_SECONDS, max(0.0, (now - row.opened).total_seconds()))
    return AttemptRanking(bool(ended) and not assisted, round(seconds, 2), assisted)


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


def page_puzzle(db: Database, config: dict, today: dt.date, daily: DailyMaker) -> Challenge | None:
    """The ranked puzzle a play page (its ``config``) was opened as: None for free play
    (see :func:`ranked_link`), a page in error, or a board nobody ranks. Its attempt
    opens when the page is served to a player (:func:`open_attempt`)."""
    if config.get("error") or not ranked_link(config):
        return None
    game = game_named(config["game"])
    puzzle, _domain = identify(game, config["board"], config["options"], today, daily)
    if config.get("ladder") == "play":  # a board the ladder served is ranked; another is not
        puzzle = ladder_challenge(db, puzzle)
    return puzzle if puzzle.rankable else None
