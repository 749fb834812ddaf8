"""Storing results: a verified line, ranked against its attempt, and each player's best.

The line has already been replayed (:func:`solver.core.replay.replay_line`) and the
puzzle identified (:mod:`webapp.players.challenges`). :func:`submit` does what a
submitted result asks, in order and in one transaction: the ranked attempt ends and
is ranked (:func:`~webapp.players.attempts.rank_attempt`), a ladder game is scored
(:func:`~webapp.players.ladder.score_attempt`), the result is stored, the player's best
on the board kept (a worse retry never replaces a better one) with the count of
players per length, and an unassisted line's moves counted
(:mod:`webapp.players.choices`). The boards read those (:mod:`webapp.players.leaderboards`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from solver.core.replay import Replay

from ..storage import Database
from ..storage.derived import insert_for, score
from ..storage.models import Best, BoardLength, BoardVersion, Result
from .attempts import AttemptRanking, rank_attempt
from .challenges import Challenge
from .choices import record as record_choices
from .ladder import score_attempt


@dataclass(frozen=True)
class BestChange:
    """A stored result that moved its player's best on the board: ``old`` score (None:
    their first) to ``new``. :meth:`~webapp.players.leaderboards.BoardViews.stored` patches
    the kept scores with it."""

    old: int | None
    new: int


@dataclass(frozen=True)
class Stored:
    result: Result
    created: bool  # False: the same line was stored before
    change: BestChange | None = None  # None: the player's best did not move


def line_hash(replay: Replay) -> str:
    return hashlib.sha256("\n".join(replay.states).encode()).hexdigest()


def submit(
    db: Database,
    player_id: int,
    puzzle: Challenge,
    replay: Replay,
    seconds: float,
    assisted: bool,
    now: dt.datetime,
) -> Stored:
    """Store a replayed line its player submitted, with the client's ``seconds`` and
    ``assisted``, in one transaction: end and rank the player's attempt, score a
    ladder game's first result, then :func:`add` the result. A store the database
    turns back (a 503, the page sends it again) leaves the attempt open, so the retry
    is ranked as the first send was. The same line sent again by the same player for
    the same puzzle is the result already stored (idempotent: ``created`` False)."""
    digest = line_hash(replay)
    try:
        with db.writing() as session:
            ranking = rank_attempt(session, player_id, puzzle, seconds, assisted, now)
            score_attempt(session, player_id, puzzle, ranking, replay.length, now)
            return add(session, player_id, puzzle, replay, ranking, now)
    except IntegrityError:
        with db.session() as session:
            found = session.scalars(
                select(Result).where(
                    Result.player_id == player_id,
                    Result.puzzle == puzzle.key,
                    Result.line_hash == digest,
                )
            ).one()
        return Stored(found, False)


def add(
    session: Session,
    player_id: int,
    puzzle: Challenge,
    replay: Replay,
    ranking: AttemptRanking,
    now: dt.datetime,
) -> Stored:
    """Add the result ``ranking`` says, in ``session``'s transaction: the row, the
    player's best on the board when it is ranked and better, an unassisted line's
    moves. A line the player stored before for the puzzle fails the flush
    (IntegrityError)."""
    row = Result(
        player_id=player_id,
        game=puzzle.game,
        puzzle=puzzle.key,
        board=puzzle.board,
        options=puzzle.options_json,
        day=puzzle.day,
        length=replay.length,
        shortest=puzzle.shortest,
        seconds=ranking.seconds,
        assisted=ranking.assisted,
        ranked=ranking.ranked,
        line_hash=line_hash(replay),
        line="\n".join(replay.states),
        created=now,
    )
    session.add(row)
    session.flush()  # the row's id, and a resubmitted line fails here
    connection = session.connection()
    change = _keep_best(connection, row) if row.ranked else None
    if puzzle.rankable and not row.assisted:  # only rankable boards are asked about
        record_choices(connection, row.puzzle, player_id, replay.states)
    return Stored(row, True, change)


def _keep_best(connection: Connection, row: Result) -> BestChange | None:
    """Make ``row`` the player's best on its board when it beats the one kept, and move
    the player between the length counts (returns the move, None when it did not beat).
    Safe under concurrent writers: the insert waits for another transaction inserting
    the same row, the update locks it."""
    mine = score(row.length, row.seconds)
    values = {
        "puzzle": row.puzzle,
        "player_id": row.player_id,
        "game": row.game,
        "day": row.day,
        "score": mine,
        "length": row.length,
        "seconds": row.seconds,
        "result_id": row.id,
    }
    first = insert_for(connection, Best.__table__).values(values).on_conflict_do_nothing()
    if connection.execute(first.returning(Best.player_id)).first() is not None:
        _count_length(connection, row.puzzle, row.length, 1)
        _move_version(connection, row.puzzle)
        return BestChange(None, mine)
    where = (Best.puzzle == row.puzzle, Best.player_id == row.player_id)
    kept = connection.execute(select(Best.score, Best.length).where(*where).with_for_update()).one()
    if mine >= kept.score:
        return None
    connection.execute(update(Best).where(*where).values(values))
    if kept.length != row.length:
        _count_length(connection, row.puzzle, kept.length, -1)
        _count_length(connection, row.puzzle, row.length, 1)
    _move_version(connection, row.puzzle)
    return BestChange(int(kept.score), mine)


def _move_version(connection: Connection, puzzle: str) -> None:
    """The board's bests changed: move its :func:`board_version` (made at 1)."""
    moved = insert_for(connection, BoardVersion.__table__).values(puzzle=puzzle, version=1)
    connection.execute(
        moved.on_conflict_do_update(
            index_elements=["puzzle"], set_={"version": BoardVersion.__table__.c.version + 1}
        )
    )


def _count_length(connection: Connection, puzzle: str, length: int, change: int) -> None:
    counted = insert_for(connection, BoardLength.__table__).values(
        puzzle=puzzle, length=length, players=change
    )
    connection.execute(
        counted.on_conflict_do_update(
            index_elements=["puzzle", "length"],
            set_={"players": BoardLength.__table__.c.players + change},
        )
    )
