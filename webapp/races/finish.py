"""The one place a race ends.

:func:`finish` runs once per race, in whichever web process claimed the race's end
from the store's clock (:meth:`webapp.races.store.RaceStore.due`), when its time is
up; its status is already ``finished`` for every process (a function of the stored
deadline), so nothing a racer does can change the results from here on. Whatever
a race's end decides (results, ratings) belongs here, called once, in an app context.
"""

from __future__ import annotations

from .model import Race
from .store import RaceStore


def finish(store: RaceStore, race_id: str) -> Race | None:
    """End the race ``race_id``: no longer the lobby; the race as it finished (None if it
    expired or was dropped meanwhile), for the caller to tell its racers."""
    store.close_lobby(race_id)
    return store.load(race_id)
