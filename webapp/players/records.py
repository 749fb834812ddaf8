"""Results and standings: store a verified line, rank the best per player, count streaks.

Everything here is plain storage work on a :class:`~webapp.storage.Database`;
the line has already been replayed (:func:`solver.core.replay.replay_line`) and
the puzzle identified (:mod:`webapp.players.puzzles`). A player's best per
puzzle is read, not written: the leaderboard takes each player's fewest moves,
then fewest seconds, over every ranked result, so a worse retry never hides a
better one and concurrent writers never race on a "best" row.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, case, cast, func, select
from sqlalchemy.exc import IntegrityError

from solver.core.replay import Replay

from ..storage import Database
from ..storage.models import Player, Result
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
    seconds: float,
    assisted: bool,
    now: dt.datetime,
    ranked: bool | None = None,
) -> tuple[Result, bool]:
    """Store a replayed line; returns (result, created). The same line sent again by
    the same player for the same puzzle is the result already stored (idempotent).
    ``ranked`` is the ranked attempt's verdict (:func:`webapp.players.attempts.judge`)."""
    digest = line_hash(replay)
    row = Result(
        player_id=player_id,
        game=puzzle.game,
        puzzle=puzzle.key,
        board=puzzle.board,
        options=puzzle.options_json,
        day=puzzle.day,
        length=replay.length,
        shortest=puzzle.shortest,
        seconds=seconds,
        assisted=assisted,
        ranked=puzzle.rankable and not assisted if ranked is None else ranked,
        line_hash=digest,
        line="\n".join(replay.states),
        created=now,
    )
    try:
        with db.writing() as session:
            session.add(row)
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


def _ranked_where(game: str, day: dt.date | None, puzzle_key: str | None):
    """A daily's board (by game and day) or one puzzle's (by its key)."""
    if day is not None:
        return (Result.ranked.is_(True), Result.game == game, Result.day == day)
    return (Result.ranked.is_(True), Result.puzzle == puzzle_key)


def standings(
    db: Database, game: str, day: dt.date | None = None, puzzle_key: str | None = None
) -> list[Entry]:
    """Every ranked player's best (fewest moves, then seconds), best first, ranked
    (equal results share a rank)."""
    order = (Result.length, Result.seconds, Result.id)
    number = func.row_number().over(partition_by=Result.player_id, order_by=order).label("n")
    best = (
        select(Result.id, Result.player_id, Result.length, Result.seconds, number)
        .where(*_ranked_where(game, day, puzzle_key))
        .subquery()
    )
    query = (
        select(best.c.player_id, Player.name, best.c.length, best.c.seconds)
        .join(Player, Player.id == best.c.player_id)
        .where(best.c.n == 1)
        .order_by(best.c.length, best.c.seconds, best.c.id)
    )
    entries: list[Entry] = []
    with db.session() as session:
        for index, (player_id, name, length, seconds) in enumerate(session.execute(query)):
            previous = entries[-1] if entries else None
            same = previous is not None and (previous.length, previous.seconds) == (length, seconds)
            rank = previous.rank if previous is not None and same else index + 1
            entries.append(Entry(rank, player_id, shown_name(player_id, name), length, seconds))
    return entries


def place(entries: list[Entry], player_id: int) -> dict:
    """``rank`` (None when not ranked), ``players`` and ``beat``: the share of the other
    ranked players with a worse result, in percent (None when nobody else played)."""
    mine = next((e for e in entries if e.player_id == player_id), None)
    reply: dict[str, Any] = {"rank": None, "players": len(entries), "beat": None}
    if mine is None:
        return reply
    worse = sum(1 for e in entries if (e.length, e.seconds) > (mine.length, mine.seconds))
    reply["rank"] = mine.rank
    if len(entries) > 1:
        reply["beat"] = round(100 * worse / (len(entries) - 1))
    reply["best"] = {"length": mine.length, "seconds": mine.seconds}
    return reply


#: one number ordering results as the leaderboard does: moves first, then hundredths of
#: a second (at most a week: under 10**8), so a player's best is a plain MIN
SCORE_SCALE = 100_000_000


def standing(
    db: Database,
    player_id: int,
    game: str,
    day: dt.date | None = None,
    puzzle_key: str | None = None,
) -> dict:
    """:func:`place` for one player without listing everyone: aggregates in the database
    (what every submission answers, so it must stay cheap as players come)."""
    score = cast(Result.length, BigInteger) * SCORE_SCALE + func.round(Result.seconds * 100)
    bests = (
        select(Result.player_id, func.min(score).label("score"))
        .where(*_ranked_where(game, day, puzzle_key))
        .group_by(Result.player_id)
        .subquery()
    )
    mine = select(bests.c.score).where(bests.c.player_id == player_id).scalar_subquery()
    query = select(
        func.count(),
        func.coalesce(func.sum(case((bests.c.score < mine, 1), else_=0)), 0),
        func.coalesce(func.sum(case((bests.c.score > mine, 1), else_=0)), 0),
        mine,
    ).select_from(bests)
    with db.session() as session:
        players, better, worse, best = session.execute(query).one()
    reply = {"rank": None, "players": players, "beat": None}
    if best is None:
        return reply
    best = round(best)
    reply["rank"] = better + 1
    if players > 1:
        reply["beat"] = round(100 * worse / (players - 1))
    reply["best"] = {"length": best // SCORE_SCALE, "seconds": (best % SCORE_SCALE) / 100}
    return reply


def distribution(entries: list[Entry]) -> list[dict]:
    """How many players' best took each number of moves, fewest first."""
    counts: dict[int, int] = {}
    for entry in entries:
        counts[entry.length] = counts.get(entry.length, 0) + 1
    return [{"length": length, "players": n} for length, n in sorted(counts.items())]


def streak(db: Database, player_id: int, game: str, today: dt.date) -> int:
    """UTC days in a row, up to today (or up to yesterday while today is not yet
    solved), on which the player solved ``game``'s daily without help."""
    with db.session() as session:
        days = set(
            session.scalars(
                select(Result.day)
                .where(
                    Result.player_id == player_id,
                    Result.game == game,
                    Result.ranked.is_(True),
                    Result.day.is_not(None),
                    Result.day <= today,
                )
                .distinct()
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
