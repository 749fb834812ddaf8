"""Where races live: this process's memory, or Redis for every web process of a cluster.

Both stores keep the same small interface (:class:`RaceStore`) and the same data
(a race's :meth:`~webapp.races.model.Race.to_data` as JSON), so the handlers do
not know which one they use:

* a change is atomic and counts one more ``version``: :meth:`RaceStore.change` loads
  the race, applies a function and writes it back, or stores nothing when the function
  raises (Redis: a compare-and-set script, one round trip, retried when another
  process wrote the race meanwhile; a move judged in one process never overwrites
  another's);
* the clock's transitions (racing, finished) are scheduled with the change that
  started the countdown, and :meth:`RaceStore.due` hands each one to exactly one
  caller (Redis: whoever's ``ZREM`` removes it), so one process broadcasts it
  and one process finishes the race;
* a race expires on its own (:data:`WAITING_KEEP` after its last change while it
  waits, :data:`FINISHED_KEEP` after its end), so memory stays bounded;
* at most :data:`~webapp.races.model.MAX_RACES` are under way (waiting or running), and
  one address opens at most ``RACES_PER_ADDRESS`` of them (``limit``: counted by the
  race's ``opener``, the keyed hash of its address), so one address cannot fill the cap;
* the public lobby (the filling public race) is one shared id, and each racer's seat
  (the race a player races in, so a reload resumes it) is kept until the race ends.

Redis commands time out (:func:`webapp.transport.redis_client.redis_client`: 2 s, no
retries) and run on the gevent loop cooperatively; a failure is a 503
:class:`~webapp.puzzle_request.RequestRefused` for the player, never a hung loop.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

from solver.core.text import N_

from ..puzzle_request import RequestRefused
from .model import MAX_RACES, Race

T = TypeVar("T")

#: a waiting race nobody changed for this long is forgotten
WAITING_KEEP = 3600.0
#: a finished race (its results, its rematch link) is kept this long after its end
FINISHED_KEEP = 600.0
#: a change retried this often when other processes keep writing the race meanwhile
RETRIES = 20
RACING_NOW, FINISHED_NOW = "racing", "finished"

UNREACHABLE = N_("races are out of reach just now; try again")
NO_RACE = N_("no such race")
TOO_MANY = N_("too many races at once; try again soon")
TOO_MANY_HERE = N_(
    "this address has %(count)s races waiting or under way; join one, or try again when one ends"
)
BUSY = N_("the race is busy; try again")


class RaceStore(Protocol):
    """What the race handlers need of a store."""

    def add(self, race: Race, now: float, limit: int = 0) -> None:
        """Store a new race; a 503 when :data:`MAX_RACES` are under way, a 429 when its
        opener's address has ``limit`` under way (0: no limit)."""

    def load(self, race_id: str) -> Race | None: ...

    def seat(self, key: str, race_id: str, until: float) -> None:
        """Racer ``key`` races in ``race_id`` until ``until`` (wall-clock seconds)."""

    def seat_of(self, key: str) -> str | None:
        """The race racer ``key`` races in (None: none now)."""
        ...

    def change(self, race_id: str, how: Callable[[Race], T], now: float) -> tuple[Race, T]:
        """``how(race)`` applied atomically; the race as stored after it and what ``how``
        returned. A 404 when there is no such race; nothing is stored when ``how`` raises;
        the race is deleted when ``how`` set ``dropped``. A change that starts the clock
        schedules its transitions."""
        ...

    def lobby(self) -> str | None: ...

    def open_lobby(self, race_id: str) -> bool:
        """Make ``race_id`` the lobby unless there is one already (True if it became it)."""
        ...

    def close_lobby(self, race_id: str) -> None:
        """No lobby, if ``race_id`` is it."""

    def due(self, now: float) -> list[tuple[str, str]]:
        """The (race id, :data:`RACING_NOW` or :data:`FINISHED_NOW`) transitions due by
        ``now``, each handed to one caller only."""
        ...


def _keep_until(race: Race, now: float) -> float:
    return now + WAITING_KEEP if race.ends is None else race.ends + FINISHED_KEEP


def _under_way_until(race: Race, now: float) -> float:
    """Until when ``race`` counts against :data:`MAX_RACES`."""
    return now + WAITING_KEEP if race.ends is None else race.ends


def _too_many_here(count: int) -> RequestRefused:
    return RequestRefused(TOO_MANY_HERE, 429, {"Retry-After": "30"}, count=count)


class MemoryRaceStore:
    """One process's races (the default: no Redis). A lock makes each change atomic
    under threads too (the development server, the tests)."""

    def __init__(self) -> None:
        # id -> (JSON, kept until, under way until)
        self._races: dict[str, tuple[str, float, float]] = {}
        self._openers: dict[str, str] = {}  # id -> the opener's address key
        self._seats: dict[str, tuple[str, float]] = {}  # racer key -> (race id, until)
        self._clock: list[tuple[float, str, str]] = []
        self._lobby: str | None = None
        self._lock = threading.Lock()

    def _forget_expired(self, now: float) -> None:
        for race_id in [k for k, (_, until, _u) in self._races.items() if until <= now]:
            del self._races[race_id]
            self._openers.pop(race_id, None)
        for key in [k for k, (_, until) in self._seats.items() if until <= now]:
            del self._seats[key]

    def add(self, race: Race, now: float, limit: int = 0) -> None:
        with self._lock:
            self._forget_expired(now)
            under_way = [k for k, (*_, until) in self._races.items() if until > now]
            if len(under_way) >= MAX_RACES:
                raise RequestRefused(TOO_MANY, 503)
            if limit > 0 and race.opener:
                mine = sum(self._openers.get(k) == race.opener for k in under_way)
                if mine >= limit:
                    raise _too_many_here(mine)
            self._keep(race, now)
            self._openers[race.id] = race.opener

    def seat(self, key: str, race_id: str, until: float) -> None:
        with self._lock:
            self._seats[key] = (race_id, until)

    def seat_of(self, key: str) -> str | None:
        with self._lock:
            found = self._seats.get(key)
        return found[0] if found is not None and found[1] > time.time() else None

    def _keep(self, race: Race, now: float) -> None:
        data = json.dumps(race.to_data())
        self._races[race.id] = (data, _keep_until(race, now), _under_way_until(race, now))

    def load(self, race_id: str) -> Race | None:
        with self._lock:
            kept = self._races.get(race_id)
        return (
            None if kept is None or kept[1] <= time.time() else Race.from_data(json.loads(kept[0]))
        )

    def change(self, race_id: str, how: Callable[[Race], T], now: float) -> tuple[Race, T]:
        with self._lock:
            kept = self._races.get(race_id)
            if kept is None or kept[1] <= now:
                raise RequestRefused(NO_RACE, 404)
            race = Race.from_data(json.loads(kept[0]))
            started = race.starts
            result = how(race)
            race.version += 1
            if race.dropped:
                del self._races[race_id]
                self._openers.pop(race_id, None)
                return race, result
            self._keep(race, now)
            if started is None and race.starts is not None and race.ends is not None:
                self._clock += [
                    (race.starts, race_id, RACING_NOW),
                    (race.ends, race_id, FINISHED_NOW),
                ]
            return race, result

    def lobby(self) -> str | None:
        return self._lobby

    def open_lobby(self, race_id: str) -> bool:
        with self._lock:
            if self._lobby is not None:
                return False
            self._lobby = race_id
            return True

    def close_lobby(self, race_id: str) -> None:
        with self._lock:
            if self._lobby == race_id:
                self._lobby = None

    def due(self, now: float) -> list[tuple[str, str]]:
        with self._lock:
            ready = [(race_id, what) for at, race_id, what in self._clock if at <= now]
            self._clock = [entry for entry in self._clock if entry[0] > now]
        return ready


#: compare-and-set, one round trip: the race is written (or, with an empty new value,
#: deleted) only if it is still as it was read; then the count of races under way (all,
#: and its opener's address's) and the clock (pairs of when, what) follow. 0: another
#: process wrote it meanwhile.
_SWAP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[5])
  redis.call('ZREM', KEYS[4], ARGV[5])
  return 1
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
if redis.call('ZSCORE', KEYS[4], ARGV[5]) then
  redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
  if redis.call('TTL', KEYS[4]) < tonumber(ARGV[3]) then redis.call('EXPIRE', KEYS[4], ARGV[3]) end
end
for i = 6, #ARGV, 2 do redis.call('ZADD', KEYS[3], ARGV[i], ARGV[i + 1]) end
return 1
"""

#: a new race, checked and stored in one step (so openers at once, in any process, never
#: pass the caps together): {1, 0} stored; {0, 0} :data:`MAX_RACES` under way; {2, n}
#: its opener's address has ``n`` under way, its limit (ARGV[3]; 0: none)
_ADD = """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return {0, 0} end
if tonumber(ARGV[3]) > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
  local mine = redis.call('ZCARD', KEYS[3])
  if mine >= tonumber(ARGV[3]) then return {2, mine} end
end
redis.call('SET', KEYS[1], ARGV[4], 'EX', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[7])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[7])
if redis.call('TTL', KEYS[3]) < tonumber(ARGV[5]) then redis.call('EXPIRE', KEYS[3], ARGV[5]) end
return {1, 0}
"""

#: compare-and-delete: the lobby key goes only if it still names this race
_CLOSE_LOBBY = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisRaceStore:
    """Every web process's races, in Redis: ``arcade:race:<id>`` (the race, expiring),
    ``arcade:races`` (a sorted set: races by the time they stop counting against
    :data:`MAX_RACES`), ``arcade:races:by:<address key>`` (the same, for the races one
    address opened), ``arcade:races:clock`` (transitions by when they are due),
    ``arcade:races:lobby`` (the filling public race's id) and ``arcade:racer:<key>``
    (the race a racer races in, expiring with it)."""

    RACE, UNDER_WAY, CLOCK, LOBBY, OPENED, SEAT = (
        "arcade:race:{id}",
        "arcade:races",
        "arcade:races:clock",
        "arcade:races:lobby",
        "arcade:races:by:{address}",
        "arcade:racer:{key}",
    )

    def __init__(self, url: str) -> None:
        from ..transport.redis_client import redis_client  # the cluster extra: redis

        self.redis = redis_client(url)
        self._close_lobby = self.redis.register_script(_CLOSE_LOBBY)
        self._add = self.redis.register_script(_ADD)
        self._swap = self.redis.register_script(_SWAP)

    @contextlib.contextmanager
    def _reached(self) -> Iterator[None]:
        import redis

        try:
            yield
        except redis.RedisError as err:
            raise RequestRefused(UNREACHABLE, 503, {"Retry-After": "5"}) from err

    def add(self, race: Race, now: float, limit: int = 0) -> None:
        opened = self.OPENED.format(address=race.opener or "-")
        with self._reached():
            stored, mine = self._add(
                keys=[self.RACE.format(id=race.id), self.UNDER_WAY, opened],
                args=[
                    repr(now),
                    MAX_RACES,
                    limit if race.opener else 0,
                    json.dumps(race.to_data()),
                    max(1, int(_keep_until(race, now) - now) + 1),
                    repr(_under_way_until(race, now)),
                    race.id,
                ],
            )
        if stored == 0:
            raise RequestRefused(TOO_MANY, 503)
        if stored == 2:
            raise _too_many_here(int(mine))

    def seat(self, key: str, race_id: str, until: float) -> None:
        with self._reached():
            ttl = max(1, int(until - time.time()) + 1)
            self.redis.set(self.SEAT.format(key=key), race_id, ex=ttl)

    def seat_of(self, key: str) -> str | None:
        with self._reached():
            found = self.redis.get(self.SEAT.format(key=key))
        return None if found is None else found.decode()

    def load(self, race_id: str) -> Race | None:
        with self._reached():
            raw = self.redis.get(self.RACE.format(id=race_id))
        return None if raw is None else Race.from_data(json.loads(raw))

    def change(self, race_id: str, how: Callable[[Race], T], now: float) -> tuple[Race, T]:
        key = self.RACE.format(id=race_id)
        with self._reached():
            for _ in range(RETRIES):
                raw = self.redis.get(key)
                if raw is None:
                    raise RequestRefused(NO_RACE, 404)
                race = Race.from_data(json.loads(raw))
                started = race.starts
                result = how(race)
                race.version += 1
                clock: list[object] = []
                if started is None and race.starts is not None and race.ends is not None:
                    clock = [race.starts, f"{race_id} {RACING_NOW}"]
                    clock += [race.ends, f"{race_id} {FINISHED_NOW}"]
                opened = self.OPENED.format(address=race.opener or "-")
                written = self._swap(
                    keys=[key, self.UNDER_WAY, self.CLOCK, opened],
                    args=[
                        raw,
                        "" if race.dropped else json.dumps(race.to_data()),
                        max(1, int(_keep_until(race, now) - now) + 1),
                        _under_way_until(race, now),
                        race_id,
                        *clock,
                    ],
                )
                if written:
                    return race, result
        raise RequestRefused(BUSY, 503)

    def lobby(self) -> str | None:
        with self._reached():
            found = self.redis.get(self.LOBBY)
        return None if found is None else found.decode()

    def open_lobby(self, race_id: str) -> bool:
        with self._reached():
            return bool(self.redis.set(self.LOBBY, race_id, nx=True, ex=int(WAITING_KEEP)))

    def close_lobby(self, race_id: str) -> None:
        with self._reached():
            self._close_lobby(keys=[self.LOBBY], args=[race_id])

    def due(self, now: float) -> list[tuple[str, str]]:
        with self._reached():
            ready = self.redis.zrangebyscore(self.CLOCK, "-inf", now, start=0, num=100)
            claimed = []
            for member in ready:
                if self.redis.zrem(self.CLOCK, member):  # one process removes it
                    race_id, what = member.decode().split(" ", 1)
                    claimed.append((race_id, what))
        return claimed


def make_store(message_queue: str | None) -> RaceStore:
    """Redis's store in a cluster (``MESSAGE_QUEUE``), else this process's."""
    return RedisRaceStore(message_queue) if message_queue else MemoryRaceStore()
