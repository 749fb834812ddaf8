"""The player's page: a rating's history per game, strengths and weaknesses, the race rating.

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

import json
from collections import defaultdict
from typing import Any

from sqlalchemy import select

from solver import catalogue

from ..storage import Database
from ..storage.models import LadderGame, LadderPuzzle, RaceRating

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
