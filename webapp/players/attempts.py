"""Ranked attempts: the server's clock and the server's record of help decide a ranking.

Contract ("Ranked play"). A ranked attempt opens when the server hands a ranked
puzzle (today's daily, a shipped level opened by its own link, a ladder puzzle) to a
player: its play page (:func:`page_puzzle`), ``GET /api/daily/<game>`` or the ladder. The first open counts; reopening the page
does not restart the clock. A result ends the attempt, and it is ranked only when

- the attempt exists and was still open (one ranked result per player and puzzle:
  a retry after the coach opened on the finished game is never ranked),
- no socket of the player asked ``analyse`` or ``solve`` about it while it was open
  (:class:`webapp.players.helps.HelpLedger` records that), and
- the client does not say it had help either (Hint, Solve, the opened coach), and
- it took at least ``MIN_SECONDS_PER_MOVE`` (0.1 s) a move by the server's clock: a
  person does not play faster (a human floor; a program does).

Its seconds are the server's, from the open to the submission; the client's own
count is only shown to the player. An unranked result says why (:data:`WHY`).

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
from solver.core.text import N_

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
    """What the play page is told about its attempt (``id``: its row, for the record
    of help)."""

    opened: dt.datetime
    assisted: bool
    finished: bool
    id: int = 0

    def page(self, now: dt.datetime) -> dict:
        """``seconds``: the attempt's clock at ``now``, the one the page shows (the server's)."""
        return {
            "ranked": not (self.assisted or self.finished),
            "assisted": self.assisted,
            "finished": self.finished,
            "seconds": round(max(0.0, (now - self.opened).total_seconds()), 2),
        }


def attempt_kind(puzzle: Challenge) -> str:
    """What the record of help calls the attempt (:mod:`webapp.players.helps`): a ladder
    puzzle's or a shipped level's board is the holder's alone; a daily's is everyone's."""
    return "ladder" if puzzle.ladder else "daily" if puzzle.day is not None else "level"


def open_attempt(
    db: Database,
    player_id: int,
    puzzle: Challenge,
    now: dt.datetime,
    address_key: str | None = None,
) -> AttemptView:
    """The player's attempt at ``puzzle``, opened now (handed out at ``address_key``, a
    keyed hash) unless it was opened before."""
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
                    address_key=address_key,
                    kind=attempt_kind(puzzle),
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
        return AttemptView(row.opened, row.assisted, row.finished is not None, row.id)


#: why a result is not ranked, by the code a result row keeps (``results.unranked``):
#: the words the reply's ``why`` carries (the page translates them)
FREE, NO_ATTEMPT, OVER, ASSISTED, FAST = "free", "no_attempt", "over", "assisted", "fast"
WHY = {
    FREE: N_("free play is never ranked: the daily, a level's own link and the ladder are"),
    NO_ATTEMPT: N_("this puzzle was not handed to you as a ranked attempt: open it from its link"),
    OVER: N_("your ranked attempt at this puzzle was over already"),
    ASSISTED: N_("help was used or asked about this puzzle while its attempt was open"),
    FAST: N_("faster than a person plays, by the server's clock: stored, not ranked"),
}


@dataclass(frozen=True)
class AttemptRanking:
    """How a submission ranks: ``ranked``, the ``seconds`` to store (the server's
    when it ended an open attempt, else the client's), ``assisted``, and when it is
    not ranked, ``why`` (a key of :data:`WHY`)."""

    ranked: bool
    seconds: float
    assisted: bool
    why: str | None = None
    attempt: int | None = None  # the attempt it ended


#: an attempt open this long is over (the record of help watches it no longer)
MAX_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Submission:
    """What a submission brings to its ranking: the line's ``length`` (moves), the
    client's ``seconds`` and ``assisted``, ``helped`` (help still on its way to the
    record: :meth:`webapp.players.helps.HelpLedger.settle` could not wait it out) and
    the human floor, ``floor`` seconds a move (``MIN_SECONDS_PER_MOVE``)."""

    length: int
    seconds: float
    assisted: bool
    helped: bool = False
    floor: float = 0.0


def rank_attempt(
    session: Session, player_id: int, puzzle: Challenge, sent: Submission, now: dt.datetime
) -> AttemptRanking:
    """Rank a verified line for ``puzzle`` and end the player's open attempt at it, in
    ``session`` (the transaction that stores the result: both happen or neither).

    Ending is one conditional UPDATE (``finished IS NULL``), so two submissions sent
    at once cannot both end the attempt: at most one of them is ranked. A line faster
    than the floor ends the attempt all the same (its time was what it was).
    """
    if not puzzle.rankable:
        return AttemptRanking(False, sent.seconds, sent.assisted, FREE)
    row = session.scalars(
        select(Attempt).where(Attempt.player_id == player_id, Attempt.puzzle == puzzle.key)
    ).first()
    if row is None or row.finished is not None:
        return AttemptRanking(
            False, sent.seconds, sent.assisted, NO_ATTEMPT if row is None else OVER
        )
    ending = update(Attempt).where(Attempt.id == row.id, Attempt.finished.is_(None))
    ended = cast(CursorResult, session.execute(ending.values(finished=now))).rowcount
    assisted = bool(row.assisted or sent.assisted or sent.helped)
    open_for = (now - row.opened).total_seconds()
    seconds = round(min(MAX_SECONDS, max(0.0, open_for)), 2)
    why = (
        OVER
        if not ended or open_for > MAX_SECONDS
        else ASSISTED
        if assisted
        else FAST
        if seconds < sent.floor * sent.length
        else None
    )
    return AttemptRanking(why is None, seconds, assisted, why, row.id)


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
