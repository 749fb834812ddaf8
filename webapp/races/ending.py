"""The one place a race ends.

:func:`end_race` runs once per race, in whichever web process claimed the race's end
from the store's clock (:meth:`webapp.races.store.RaceStore.due`), when its time is
up; its status is already ``finished`` for every process (a function of the stored
deadline), so nothing a racer does can change the results from here on. Whatever
a race's end decides belongs here: the public race's ratings
(:func:`webapp.races.rating.rate`, which itself rates a race once even if it ends
twice), kept in the stored race so every process shows them.
"""

from __future__ import annotations

import time

from . import rating
from .changes import keeping_ratings
from .model import Race
from .store import RaceStore


def end_race(store: RaceStore, players: rating.Players, race_id: str) -> Race | None:
    """End the race ``race_id``: no longer the lobby; rated when public. The race with
    its ratings when there are any to show (None otherwise, or if it expired)."""
    store.close_lobby(race_id)
    race = store.load(race_id)
    if race is None or not rating.rate(players, race):
        return None
    rated, _ = store.change(race_id, keeping_ratings(race.ratings), time.time())
    return rated
