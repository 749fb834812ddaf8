"""The player's page: a rating's history per game, strengths and weaknesses, the race
rating and its history, the dailies' calendar and streaks, the levels solved and the
recent results.

Both read the player's scored ladder games, each a first attempt (:mod:`.ladder`
scores a puzzle once per player), along ``ix_ladder_games_open`` (player, game):
a few hundred rows of one player at most, never a scan of everyone's.

Strengths and weaknesses follow lichess's puzzle dashboard: the player's last
:data:`WINDOW` first attempts, grouped by game and size (the game's
:meth:`~solver.core.game.Game.size_label`); a group's performance is its mean score
(``shortest / length``, 0 when assisted or abandoned). Groups of at least
:data:`MIN_ATTEMPTS` above the player's own mean are strengths, best first; those
below are weaknesses, worst first.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from functools import cache
from typing import Any

from sqlalchemy import func, select

from solver import catalogue

from ..storage import Database
from ..storage.models import Best, LadderGame, LadderPuzzle, RaceEntry, RaceRating, Result
from .challenges import level_challenge

#: the most recent first attempts a history or the strengths read
WINDOW = 500
#: a group needs this many first attempts before it says anything
MIN_ATTEMPTS = 3
#: strengths and weaknesses shown, each
SHOWN = 3


def history(db: Database, player_id: int, game: str) -> dict:
    """The player's rating in ``game`` before their first scored ladder game, then
    after each (the last :data:`WINDOW`), oldest first, with the day it was handed out."""
    query = (
        select(LadderGame.rating_before, LadderGame.rating_after, LadderGame.opened)
        .where(
            LadderGame.player_id == player_id,
            LadderGame.game == game,
            LadderGame.score.is_not(None),
        )
        .order_by(LadderGame.id.desc())
        .limit(WINDOW)
    )
    with db.session() as session:
        rows = session.execute(query).all()[::-1]
    return {
        "game": game,
        "start": round(rows[0].rating_before) if rows else None,
        "points": [
            {"rating": round(row.rating_after), "day": row.opened.date().isoformat()}
            for row in rows
        ],
    }


def _group(game: str, board: str, options: str) -> tuple[str, str]:
    declared = catalogue.games().get(game)
    size = declared.size_label(board, json.loads(options)) if declared else ""
    return game, size


def strengths(db: Database, player_id: int) -> dict:
    """Every group of the player's recent first attempts with its ``attempts`` and mean
    ``score``; ``strengths`` and ``weaknesses`` from those with enough attempts."""
    query = (
        select(LadderGame.game, LadderPuzzle.board, LadderPuzzle.options, LadderGame.score)
        .join(LadderPuzzle, LadderPuzzle.puzzle == LadderGame.puzzle)
        .where(LadderGame.player_id == player_id, LadderGame.score.is_not(None))
        .order_by(LadderGame.id.desc())
        .limit(WINDOW)
    )
    with db.session() as session:
        rows = session.execute(query).all()
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    for row in rows:
        scores[_group(row.game, row.board, row.options)].append(row.score)
    games = catalogue.games()
    groups: list[dict[str, Any]] = [
        {
            "game": game,
            "title": games[game].title if game in games else game,
            "size": size,
            "attempts": len(values),
            "score": round(sum(values) / len(values), 3),
        }
        for (game, size), values in sorted(scores.items())
    ]
    counted = [group for group in groups if group["attempts"] >= MIN_ATTEMPTS]
    enough = [s for key, values in scores.items() if len(values) >= MIN_ATTEMPTS for s in values]
    mean = sum(enough) / len(enough) if enough else 0.0
    best_first = sorted(counted, key=lambda group: -group["score"])
    return {
        "groups": groups,
        "strengths": [g for g in best_first if g["score"] > mean][:SHOWN],
        "weaknesses": [g for g in reversed(best_first) if g["score"] < mean][:SHOWN],
        "min_attempts": MIN_ATTEMPTS,
        "window": WINDOW,
    }


def race_rating(db: Database, player_id: int) -> dict[str, Any] | None:
    """The player's race rating (:mod:`webapp.races.rating`) for ``GET /api/player``;
    None: never in a rated race."""
    with db.session() as session:
        row = session.get(RaceRating, player_id)
        if row is None:
            return None
        return {"rating": round(row.rating), "deviation": round(row.deviation), "races": row.races}


# -- the page's other figures: dailies, levels, races, recent results -----------------

#: days of each game's streak calendar (twelve weeks), and the most days a streak reads
CALENDAR_DAYS = 84
STREAK_DAYS = 400
#: the most level bests, race ratings and recent results the page reads
MAX_LEVELS = 500
MAX_RECENT = 20


@cache
def _levels_by_key() -> dict[str, tuple[str, dict, Any]]:
    """Every shipped level under each value of its progress option (Klotski's metrics
    are three puzzles), by puzzle key: (game, level, value). Made once per process: the
    levels change only with a deploy."""
    found: dict[str, tuple[str, dict, Any]] = {}
    for name, game in catalogue.games().items():
        for level in game.distinct_levels():
            own = game.full_options(level.get("options"))
            progress = game.progress_option
            for value in list(level["moves"]) if progress else [None]:
                options = own if progress is None else {**own, progress: value}
                puzzle = level_challenge(game, level, options)
                found.setdefault(puzzle.key, (name, level, value))
    return found


def level_of(puzzle: str) -> tuple[str, dict, Any] | None:
    """The shipped level a puzzle key names, with its progress value; None for any other."""
    return _levels_by_key().get(puzzle)


def dailies(db: Database, player_id: int, today: dt.date) -> dict[str, dict]:
    """Per game: the days of the last :data:`CALENDAR_DAYS` the player solved its daily
    unaided (their best line's length, seconds, start and whether its line was kept, and
    the game's shortest), and the streak
    up to today. One range of ``ix_bests_streak`` per game, :data:`STREAK_DAYS` rows at most."""
    found: dict[str, dict] = {}
    first = today - dt.timedelta(days=CALENDAR_DAYS - 1)
    with db.session() as session:
        for game in catalogue.games():
            rows = session.execute(
                select(
                    Best.day,
                    Best.length,
                    Best.seconds,
                    Best.result_id,
                    Result.shortest,
                    Result.board,
                    Result.options,
                    (func.length(Result.line) > 0).label("replayable"),
                )
                .join(Result, Result.id == Best.result_id)
                .where(
                    Best.player_id == player_id,
                    Best.game == game,
                    Best.day.is_not(None),
                    Best.day <= today,
                )
                .order_by(Best.day.desc())
                .limit(STREAK_DAYS)
            ).all()
            if not rows:
                continue
            days = {row.day for row in rows}
            day = today if today in days else today - dt.timedelta(days=1)
            run = 0
            while day in days:
                run += 1
                day -= dt.timedelta(days=1)
            found[game] = {
                "streak": run,
                "days": [
                    {
                        "day": row.day.isoformat(),
                        "length": row.length,
                        "shortest": row.shortest,
                        "seconds": row.seconds,
                        "result": row.result_id,
                        "board": row.board,
                        "options": json.loads(row.options),
                        "replayable": bool(row.replayable),
                    }
                    for row in rows
                    if row.day >= first
                ],
            }
    return found


def levels_solved(db: Database, player_id: int) -> list[dict]:
    """The shipped levels the player solved ranked: their best line's length against the
    level's fewest moves, game by game in the lobby's order. The player's bests not on a
    daily, :data:`MAX_LEVELS` at most, kept when their puzzle is a shipped level's."""
    with db.session() as session:
        rows = session.execute(
            select(Best.puzzle, Best.game, Best.length, Best.seconds, Best.result_id)
            .where(Best.player_id == player_id, Best.day.is_(None))
            .order_by(Best.result_id.desc())
            .limit(MAX_LEVELS)
        ).all()
    solved = []
    for row in rows:
        named = level_of(row.puzzle)
        if named is None:
            continue  # a ladder's generated board
        game, level, value = named
        solved.append(
            {
                "game": game,
                "level": level,
                "value": value,
                "length": row.length,
                "shortest": level["moves"].get(value),
                "seconds": row.seconds,
                "result": row.result_id,
            }
        )
    return solved


def race_history(db: Database, player_id: int) -> list[dict]:
    """The player's race rating after each rated race, oldest first (the last
    :data:`WINDOW`), along ``ix_race_entries_open`` (player, ends)."""
    with db.session() as session:
        rows = session.execute(
            select(RaceEntry.ends, RaceEntry.score, RaceEntry.rating_before, RaceEntry.rating_after)
            .where(RaceEntry.player_id == player_id, RaceEntry.rating_after.is_not(None))
            .order_by(RaceEntry.ends.desc())
            .limit(WINDOW)
        ).all()[::-1]
    return [
        {
            "rating": round(row.rating_after),
            "before": round(row.rating_before) if row.rating_before is not None else None,
            "score": row.score,
            "day": row.ends.date().isoformat(),
        }
        for row in rows
    ]


def recent_results(db: Database, player_id: int) -> list[dict]:
    """The player's last :data:`MAX_RECENT` results, newest first, without their lines
    (``replayable`` says whether one was kept)."""
    query = (
        select(
            Result.id,
            Result.game,
            Result.puzzle,
            Result.board,
            Result.options,
            Result.day,
            Result.length,
            Result.shortest,
            Result.seconds,
            Result.ranked,
            Result.assisted,
            Result.created,
            (func.length(Result.line) > 0).label("replayable"),
        )
        .where(Result.player_id == player_id)
        .order_by(Result.id.desc())
        .limit(MAX_RECENT)
    )
    with db.session() as session:
        rows = session.execute(query).all()
    return [
        {
            "id": row.id,
            "game": row.game,
            "puzzle": row.puzzle,
            "board": row.board,
            "options": json.loads(row.options),
            "day": row.day.isoformat() if row.day else None,
            "length": row.length,
            "shortest": row.shortest,
            "seconds": row.seconds,
            "ranked": row.ranked,
            "assisted": row.assisted,
            "created": row.created.isoformat(timespec="minutes"),
            "replayable": bool(row.replayable),
        }
        for row in rows
    ]


def result_line(db: Database, player_id: int, result_id: int) -> dict | None:
    """One of the player's own results with its line (the positions, start first), for
    its replay; None when it is not theirs, not there, or kept without its line."""
    with db.session() as session:
        row = session.execute(
            select(Result.game, Result.board, Result.options, Result.line, Result.length).where(
                Result.id == result_id, Result.player_id == player_id
            )
        ).first()
    if row is None or not row.line:
        return None
    return {
        "id": result_id,
        "game": row.game,
        "board": row.board,
        "options": json.loads(row.options),
        "length": row.length,
        "states": row.line.split("\n"),
    }
