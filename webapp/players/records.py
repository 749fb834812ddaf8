"""Results and standings: store a verified line, keep each player's best, read ranks.

Everything here is plain storage work on a :class:`~webapp.storage.Database`;
the line has already been replayed (:func:`solver.core.replay.replay_line`) and
the puzzle identified (:mod:`webapp.players.puzzles`). Reads run on the web
process's one event loop, so none of them may scale with the players: the
result's transaction also keeps the player's best on that board (``bests``, a
worse retry never replaces a better one) and the count of players per length
(``board_lengths``). A leaderboard is then the first rows of an index, a rank
the count of an index range, the distribution a handful of rows.
"""

from __future__ import annotations

import collections
import datetime as dt
import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from solver.core.replay import Replay

from ..storage import Database
from ..storage.derived import insert_for, score
from ..storage.models import Best, BoardLength, Player, Result
from .attempts import Verdict
from .choices import record as record_choices
from .identity import shown_name
from .puzzles import Puzzle

LEADERBOARD_SIZE = 100


@dataclass(frozen=True)
class Entry:
    rank: int
    player_id: int
    name: str
    length: int
    seconds: float


def line_hash(replay: Replay) -> str:
    return hashlib.sha256("\n".join(replay.states).encode()).hexdigest()


def store(
    db: Database,
    player_id: int,
    puzzle: Puzzle,
    replay: Replay,
    now: dt.datetime,
    judging: Callable[[Session], Verdict],
) -> tuple[Result, bool]:
    """Store a replayed line; returns (result, created). The same line sent again by
    the same player for the same puzzle is the result already stored (idempotent).

    ``judging`` (:func:`webapp.players.attempts.judge`) ends the player's ranked attempt
    in the same transaction: a store the database turns back (a 503, the page sends it
    again) leaves the attempt open, so the retry is judged as the first send was."""
    digest = line_hash(replay)
    try:
        with db.writing() as session:
            verdict = judging(session)
            row = Result(
                player_id=player_id,
                game=puzzle.game,
                puzzle=puzzle.key,
                board=puzzle.board,
                options=puzzle.options_json,
                day=puzzle.day,
                length=replay.length,
                shortest=puzzle.shortest,
                seconds=verdict.seconds,
                assisted=verdict.assisted,
                ranked=verdict.ranked,
                line_hash=digest,
                line="\n".join(replay.states),
                created=now,
            )
            session.add(row)
            session.flush()  # the row's id, and a resubmitted line fails here
            connection = session.connection()
            if row.ranked:
                _keep_best(connection, row)
            if puzzle.rankable and not row.assisted:  # only rankable boards are asked about
                record_choices(connection, row.puzzle, player_id, replay.states)
        return row, True
    except IntegrityError:
        with db.session() as session:
            found = session.scalars(
                select(Result).where(
                    Result.player_id == player_id,
                    Result.puzzle == puzzle.key,
                    Result.line_hash == digest,
                )
            ).one()
        return found, False


def _keep_best(connection: Connection, row: Result) -> None:
    """Make ``row`` the player's best on its board when it beats the one kept, and move
    the player between the length counts. Safe under concurrent writers: the insert
    waits for another transaction inserting the same row, the update locks it."""
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
        return
    where = (Best.puzzle == row.puzzle, Best.player_id == row.player_id)
    kept = connection.execute(select(Best.score, Best.length).where(*where).with_for_update()).one()
    if mine >= kept.score:
        return
    connection.execute(update(Best).where(*where).values(values))
    if kept.length != row.length:
        _count_length(connection, row.puzzle, kept.length, -1)
        _count_length(connection, row.puzzle, row.length, 1)


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


def _let_others_run() -> None:
    """Between two statements of one read: under gevent (``time`` is monkey-patched)
    the loop serves other requests, so a read of several short statements never holds
    the loop for more than one of them; with threads it only offers the GIL."""
    time.sleep(0)


def board_view(db: Database, puzzle_key: str) -> dict:
    """A board's part of its leaderboard, the same for every reader: ``players``, the
    first :data:`LEADERBOARD_SIZE` ``entries`` (equal results share a rank) and the
    ``distribution`` of lengths: a few indexed reads whatever the number of players."""
    top = (
        select(Best.player_id, Player.name, Best.length, Best.seconds, Best.score)
        .join(Player, Player.id == Best.player_id)
        .where(Best.puzzle == puzzle_key)
        .order_by(Best.score, Best.result_id)
        .limit(LEADERBOARD_SIZE)
    )
    lengths = (
        select(BoardLength.length, BoardLength.players)
        .where(BoardLength.puzzle == puzzle_key, BoardLength.players > 0)
        .order_by(BoardLength.length)
    )
    with db.session() as session:
        rows = session.execute(top).all()
        _let_others_run()
        spread = session.execute(lengths).all()
    _let_others_run()
    entries: list[Entry] = []
    for index, (pid, name, length, seconds, best) in enumerate(rows):
        same = index > 0 and rows[index - 1].score == best
        rank = entries[-1].rank if same else index + 1
        entries.append(Entry(rank, pid, shown_name(pid, name), length, seconds))
    return {
        "players": sum(n for _length, n in spread),
        "entries": entries,
        "distribution": [{"length": length, "players": n} for length, n in spread],
    }


class BoardViews:
    """Each board's :func:`board_view`, kept for :data:`FRESH_SECONDS`: a crowd reading
    one leaderboard at once costs the database (and the event loop) one read, not one
    each. A result stored by this process forgets its board at once; another web
    process's shows within the freshness."""

    FRESH_SECONDS = 1.0
    KEPT = 256

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._kept: collections.OrderedDict[str, tuple[float, dict]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, db: Database, puzzle_key: str) -> dict:
        now = self._clock()
        with self._lock:
            kept = self._kept.get(puzzle_key)
            if kept is not None and now - kept[0] < self.FRESH_SECONDS:
                return kept[1]
        view = board_view(db, puzzle_key)
        with self._lock:
            self._kept[puzzle_key] = (now, view)
            self._kept.move_to_end(puzzle_key)
            while len(self._kept) > self.KEPT:
                self._kept.popitem(last=False)
        return view

    def forget(self, puzzle_key: str | None = None) -> None:
        """A result for ``puzzle_key`` was stored here, or (None) a player's name changed,
        which any board may show: read them again next time."""
        with self._lock:
            if puzzle_key is None:
                self._kept.clear()
            else:
                self._kept.pop(puzzle_key, None)


def leaderboard(
    db: Database, puzzle_key: str, player_id: int | None, views: BoardViews | None = None
) -> dict:
    """:func:`board_view` (from ``views`` when given) and ``me`` (:func:`standing`, None
    without a player)."""
    view = views.get(db, puzzle_key) if views is not None else board_view(db, puzzle_key)
    me = standing(db, player_id, puzzle_key) if player_id is not None else None
    return {**view, "me": me}


def standing(db: Database, player_id: int, puzzle_key: str) -> dict:
    """``rank`` (None when not ranked), ``players`` and ``beat``: the share of the other
    ranked players with a worse result, in percent (None when nobody else played);
    ``best`` ({length, seconds}) when ranked: key lookups and index range counts."""
    with db.session() as session:
        players = int(
            session.scalar(
                select(func.coalesce(func.sum(BoardLength.players), 0)).where(
                    BoardLength.puzzle == puzzle_key
                )
            )
            or 0
        )
        mine = session.execute(
            select(Best.score, Best.length, Best.seconds).where(
                Best.puzzle == puzzle_key, Best.player_id == player_id
            )
        ).first()
        reply: dict[str, Any] = {"rank": None, "players": players, "beat": None}
        if mine is None:
            return reply
        _let_others_run()
        # two plain index range counts: SQLite counts index entries without reading
        # them when nothing else is asked (a CASE over the range is several times slower)
        ranked = select(func.count()).select_from(Best).where(Best.puzzle == puzzle_key)
        better = session.scalar(ranked.where(Best.score < mine.score)) or 0
        _let_others_run()
        equal = session.scalar(ranked.where(Best.score == mine.score)) or 0
    reply["rank"] = better + 1
    if players > 1:
        reply["beat"] = round(100 * (players - better - equal) / (players - 1))
    reply["best"] = {"length": mine.length, "seconds": mine.seconds}
    return reply


def streak(db: Database, player_id: int, game: str, today: dt.date) -> int:
    """UTC days in a row, up to today (or up to yesterday while today is not yet
    solved), on which the player solved ``game``'s daily without help."""
    with db.session() as session:
        days = set(
            session.scalars(
                select(Best.day).where(
                    Best.player_id == player_id,
                    Best.game == game,
                    Best.day.is_not(None),
                    Best.day <= today,
                )
            )
        )
    day = today if today in days else today - dt.timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def puzzle_counts(db: Database, keys: list[str]) -> dict[str, dict]:
    """Per puzzle key: ``players`` (with any result), ``solved`` (without help) and
    ``optimal`` (without help, in the fewest moves), each counted once per player."""
    unaided = Result.assisted.is_(False)
    solved = case((unaided, Result.player_id))
    optimal = case((unaided & (Result.length <= Result.shortest), Result.player_id))
    query = (
        select(
            Result.puzzle,
            func.count(Result.player_id.distinct()),
            func.count(solved.distinct()),
            func.count(optimal.distinct()),
        )
        .where(Result.puzzle.in_(keys))
        .group_by(Result.puzzle)
    )
    with db.session() as session:
        return {
            key: {"players": players, "solved": won, "optimal": best}
            for key, players, won, best in session.execute(query)
        }
