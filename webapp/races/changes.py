"""What each thing a racer does changes in a race: functions the store applies atomically.

Every handler of :mod:`webapp.races.socket` (and the race's end) changes a race only
through :meth:`RaceStore.change <webapp.races.store.RaceStore.change>`, which loads
the race, applies one of these and writes it back, or stores nothing when it raises
(a :class:`~webapp.puzzle_request.RequestRefused` the racer hears); a change made in
one web process never overwrites another's. Nothing here waits or reads a request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solver.core.text import N_

from ..jobs.contract import Judged
from ..puzzle_request import RequestRefused
from .model import FINISHED, GUEST, QUORUM, RACING, WAITING, Race


@dataclass(frozen=True)
class Timing:
    """A race's countdown and length, in seconds (``RACE_COUNTDOWN_SECONDS``,
    ``RACE_SECONDS``)."""

    countdown: float
    seconds: float


@dataclass(frozen=True)
class Entrant:
    """Who joins: the racer's key (``p:<token>``: a player; ``s:<sid>``: a socket with
    none), the socket, the name shown (the player's registered one, else ``None``: a
    guest, shown as "Guest N") and the keyed hash of their address."""

    key: str
    sid: str
    name: str | None
    address: str = ""


def entering(me: Entrant, timing: Timing, public_only: bool = False) -> Callable[[Race], bool]:
    """A change that puts racer ``me`` in the race (True) or among its spectators
    (False); the lobby's third racer starts its countdown. ``public_only``: refuse (409)
    a race that is no longer a waiting public one, so the joiner goes to a new lobby."""
    now = time.time()

    def enter(race: Race) -> bool:
        waiting = race.status(now) == WAITING
        if public_only and not (race.public and waiting and me.key not in race.racers):
            raise RequestRefused(N_("this race is full or under way; you are watching it"), 409)
        shown = me.name or _guest_name(race)
        try:
            race.join(me.key, me.sid, shown, now, me.address)
        except RequestRefused:
            race.watchers += 1
            return False
        if race.public and waiting and len(race.racers) >= QUORUM:
            race.start(now, timing.countdown, timing.seconds)
        return True

    return enter


def _guest_name(race: Race) -> str:
    """ "Guest N" with the lowest N no racer of the race is shown as (one who left a
    lobby frees theirs), so no guest is told apart by a suffix."""
    taken = {racer.name for racer in race.racers.values()}
    number = 1
    while GUEST % {"number": number} in taken:
        number += 1
    return GUEST % {"number": number}


def starting(sid: str, timing: Timing) -> Callable[[Race], None]:
    """A change that starts a private race's countdown, asked by its owner on ``sid``."""

    def begin(race: Race) -> None:
        racer = race.racer_on(sid)
        if racer is None or race.owner != racer.key:
            raise RequestRefused(N_("only the race's owner starts it"), 403)
        now = time.time()
        if race.status(now) != WAITING:
            raise RequestRefused(N_("this race has started already"), 409)
        race.start(now, timing.countdown, timing.seconds)

    return begin


def recording(sid: str, index: int, before: str, judged: Judged) -> Callable[[Race], None]:
    """A change that records the move judged from ``before`` on puzzle ``index``, unless
    the race or the racer moved on while it was being judged (409: nothing changes)."""

    def record(race: Race) -> None:
        if race.status(time.time()) != RACING:
            raise RequestRefused(N_("the race ended before that move was judged"), 409)
        racer = race.racer_on(sid)
        if racer is None or (racer.puzzle, racer.board) != (index, before):
            raise RequestRefused(N_("the race moved on before that move was judged"), 409)
        race.record(racer, judged.board, judged.after, judged.solved)

    return record


def leaving(sid: str, watching: bool) -> Callable[[Race], None]:
    """A change that takes socket ``sid`` out of the race: a spectator one fewer, a racer
    away (out of a waiting public race altogether); a waiting race nobody is left in is
    dropped, so it holds no slot."""
    now = time.time()

    def out(race: Race) -> None:
        racer = race.racer_on(sid)
        if watching:
            race.watchers = max(0, race.watchers - 1)
        elif racer is not None:
            racer.sids = [other for other in racer.sids if other != sid]
            if not racer.sids and race.public and race.status(now) == WAITING:
                del race.racers[racer.key]  # a lobby keeps only those waiting in it
        if race.status(now) == WAITING and not race.sids():
            race.dropped = True

    return out


def dropping(race: Race) -> None:
    """A change that deletes the race (a lobby opened twice: the second one goes)."""
    race.dropped = True


def rematching(to: str) -> Callable[[Race], None]:
    """A change that links a finished race to its rematch ``to`` (the first one only)."""

    def link(race: Race) -> None:
        if race.status(time.time()) == FINISHED and race.rematch is None:
            race.rematch = to

    return link


def keeping_ratings(ratings: dict[str, dict[str, Any]]) -> Callable[[Race], None]:
    """A change that keeps a rated race's ``ratings`` in the stored race, for every
    process to show."""

    def keep(race: Race) -> None:
        race.ratings = ratings

    return keep
