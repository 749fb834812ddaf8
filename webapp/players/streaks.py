"""Streaks: the days in a row a player solved a game's daily without help.

Read from the player's bests (:mod:`webapp.players.results` keeps one per puzzle
ranked, a daily's with its day): a few rows of ``ix_bests_streak``, never everyone's.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from ..storage import Database
from ..storage.models import Best


def streak(db: Database, player_id: int, game: str, today: dt.date) -> int:
    """UTC days in a row, up to today (or up to yesterday while today is not yet
    solved), on which the player solved ``game``'s daily without help."""
    with db.session() as session:
        days = set(
            session.connection().scalars(
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
