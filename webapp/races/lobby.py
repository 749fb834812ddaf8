"""The public lobby: one filling public race for every web process, joined by id.

A racer who asks for no race in particular goes into the filling public race (the
store keeps its id: :meth:`RaceStore.lobby <webapp.races.store.RaceStore.lobby>`), or
into a new one that becomes it; the lobby's third racer starts its countdown
(:func:`webapp.races.changes.entering`), and a race that has begun is no longer the
lobby, so the next joiner opens another. Two processes opening a lobby at once: one
wins (the store's ``open_lobby``), the other's race is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from solver.core.text import N_

from ..puzzle_request import RequestRefused
from .changes import Timing, dropping, entering
from .model import Race
from .store import RaceStore

#: tries to find or open a lobby while other processes keep changing it
TRIES = 5


def join_lobby(
    store: RaceStore,
    make: Callable[[bool, str | None], Race],
    me: str,
    sid: str,
    named: object,
    timing: Timing,
) -> tuple[Race, bool]:
    """Racer ``me`` (on socket ``sid``, shown as ``named``) into the lobby: the race and
    whether they race in it (False: they watch it); ``make(public, owner)`` makes a race."""
    for _ in range(TRIES):
        lobby_id = store.lobby()
        if lobby_id is None:
            fresh = make(True, None)
            store.add(fresh, time.time())
            if not store.open_lobby(fresh.id):  # another process opened one first
                store.change(fresh.id, dropping, time.time())
            continue
        try:
            race, racing = store.change(
                lobby_id, entering(me, sid, named, timing, public_only=True), time.time()
            )
        except RequestRefused as err:
            if err.status not in (404, 409):
                raise
            store.close_lobby(lobby_id)  # gone or under way: the next joiner opens one
            continue
        if race.starts is not None:
            store.close_lobby(race.id)
        return race, racing
    raise RequestRefused(N_("the lobby is busy; try again"), 503)
