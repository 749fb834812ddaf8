"""The one place a race ends.

:func:`finish` runs once per race, in whichever web process claimed the race's end
from the store's clock (:meth:`webapp.races.store.RaceStore.due`), when its time is
up; its status is already ``finished`` for every process (a function of the stored
deadline), so nothing a racer does can change the results from here on. Whatever
a race's end decides belongs here: the public race's ratings
(:func:`webapp.races.ranking.rate`, which itself rates a race once even if finished
twice), kept in the stored race so every process shows them.
"""

from __future__ import annotations

import time

from . import ranking
from .model import Race
from .store import RaceStore


def finish(store: RaceStore, players: ranking.Players, race_id: str) -> Race | None:
    """End the race ``race_id``: no longer the lobby; rated when public. The race with
    its ratings when there are any to show (None otherwise, or if it expired)."""
    store.close_lobby(race_id)
    race = store.load(race_id)
    if race is None or not ranking.rate(players, race):
        return None
    ratings = race.ratings

    def keep(stored: Race) -> None:
        stored.ratings = ratings

    rated, _ = store.change(race_id, keep, time.time())
    return rated
