"""Races on the socket: ``race_join``, ``race_start``, ``race_move``; ``race_state`` out.

Handlers only check the payload and record what the solver processes judged
(:func:`webapp.jobs.judging.judge`, which waits cooperatively) through the race
store (:mod:`webapp.races.store`: this process's memory, or Redis in a cluster),
with one of :mod:`webapp.races.changes`, so a race's racers may be connected to
different web processes; after every change each racer gets their own
``race_state`` (:mod:`webapp.races.broadcast`). The public lobby is
:mod:`webapp.races.lobby`'s, the clock :mod:`webapp.races.clock`'s (started with the
store, on first use). A racer is the player of the cookie (the race page makes a guest
player for a browser without one; whose each socket is:
:class:`webapp.live.connections.Connections`, handed in by the app factory), so a racer
who reloads, opens a second tab or reconnects to any web process resumes, in the race
their seat names, with their score; a socket without a cookie is its own racer. A
racer shows their registered name, else "Guest N": a ``name`` in ``race_join`` is
registered as the player's name by the players' rules (taken, look-alike or refused:
an ``error``), never shown unregistered. One address opens at most
``RACES_PER_ADDRESS`` races waiting or running.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from flask import current_app, request
from flask_socketio import SocketIO, join_room, leave_room
from sqlalchemy.exc import IntegrityError

from solver.core.text import N_

from ..jobs.judging import judge
from ..jobs.outcomes import REFUSALS, refusal
from ..players.identity import NameRefused, check_name, find_player, take_name
from ..protocol import RACE_JOIN, RACE_MOVE, RACE_START
from ..puzzle_request import RequestRefused
from .broadcast import Broadcast
from .changes import Entrant, Timing, entering, leaving, recording, rematching, starting
from .clock import RaceClock
from .draw import make_race
from .lobby import join_lobby
from .model import FINISHED, PLAYER_KEY, RACING, Race, watch_room
from .store import WAITING_KEEP, RaceStore, make_store

log = logging.getLogger(__name__)

#: the longest race id taken to the store (ids are 8 characters)
MAX_ID = 32

#: (event, payload) -> whether the client's rate limit lets it through (it answers if not)
Admit = Callable[[str, object], bool]
#: (message, event, payload) -> the ``error`` answer
Reply = Callable[[str | RequestRefused, str, object], None]


class Owners(Protocol):
    """Whose each socket is (:class:`webapp.live.connections.Connections`)."""

    def token(self, sid: str) -> str | None: ...


def _sid() -> str:
    return request.sid  # type: ignore[attr-defined]  # Flask-SocketIO sets it


def _payload_of(event: str, args: tuple) -> dict:
    if len(args) > 1:
        raise RequestRefused(N_("%(event)s takes one payload"), event=event)
    payload = args[0] if args else {}
    if not isinstance(payload, dict):
        raise RequestRefused(N_("%(event)s payload must be an object"), event=event)
    return payload


def _timing() -> Timing:
    config = current_app.config
    return Timing(float(config["RACE_COUNTDOWN_SECONDS"]), float(config["RACE_SECONDS"]))


class RacerSocket:
    """This web process's side of the races: the store (made on first use, from the app's
    ``MESSAGE_QUEUE``), which race each of its sockets is in (and whether as a
    spectator), the sockets with a move being judged. :meth:`register` attaches the
    handlers; :meth:`leave` takes a socket out of its race (the app factory calls it on
    every disconnect)."""

    def __init__(self, socketio: SocketIO, owners: Owners, admitted: Admit, reply: Reply):
        self._socketio = socketio
        self._owners = owners
        self._admitted = admitted
        self._reply = reply
        self.broadcast = Broadcast(socketio)
        self._clock = RaceClock(socketio, self.broadcast)
        self.store: RaceStore | None = None
        self.joined: dict[str, tuple[str, bool]] = {}  # sid -> (race id, watching)
        self.judging: set[str] = set()

    def register(self) -> None:
        """Attach ``race_join``, ``race_start`` and ``race_move`` to the Socket.IO server."""
        for event, work in (
            (RACE_JOIN, self._join),
            (RACE_START, self._start),
            (RACE_MOVE, self._move),
        ):
            self._socketio.on(event)(self._handler(event, work))

    def _handler(self, event: str, work: Callable[[dict], None]) -> Callable[..., None]:
        def handle(*args: object) -> None:
            payload = args[0] if args else None
            if not self._admitted(event, payload):
                return
            try:
                work(_payload_of(event, args))
            except REFUSALS as err:  # a bad payload, or the solver processes refused
                self._reply(refusal(err), event, payload)

        return handle

    # -- the store, made on first use ---------------------------------------------------
    def _store(self) -> RaceStore:
        if self.store is None:
            self.store = make_store(current_app.config["MESSAGE_QUEUE"])
            app = current_app._get_current_object()  # type: ignore[attr-defined]  # a proxy
            self._clock.start(app, self.store)
        return self.store

    # -- who races ------------------------------------------------------------------------
    def _entrant(self, payload: dict) -> Entrant:
        """Who joins on this socket: the cookie's player under their registered name (a
        ``name`` for a player without one is registered first, by the players' rules),
        else the socket itself, a guest; with the keyed hash of their address."""
        sid, token = _sid(), self._owners.token(_sid())
        players = current_app.extensions["players"]
        address = players.helps.holder_address(request.remote_addr)
        if token is None:
            return Entrant(f"s:{sid}", sid, None, address)
        wanted = payload.get("name")
        with players.db.session() as session:
            player = find_player(session, token)
            name = player.name if player is not None else None
        if name is None and wanted is not None and player is not None:
            name = self._register(token, wanted)
        return Entrant(f"{PLAYER_KEY}{token}", sid, name, address)

    @staticmethod
    def _register(token: str, wanted: object) -> str:
        """``wanted`` as the player's name, by the players' rules: the name registry is one."""
        try:
            name = check_name(wanted)
        except NameRefused as err:
            raise RequestRefused(err) from None
        players = current_app.extensions["players"]
        try:
            with players.db.writing() as session:
                player = find_player(session, token)
                if player is None:
                    raise RequestRefused(N_("no such race"), 404)
                take_name(player, name)
        except IntegrityError:
            raise RequestRefused(
                N_("that name, or one that looks like it, is taken"), 409
            ) from None
        players.boards.forget()
        return name

    def _resumed(self, me: Entrant, timing: Timing) -> tuple[Race, bool] | None:
        """The race the player's seat names, rejoined (a reload, a second tab); None
        when they hold no seat in a race still on."""
        if not me.key.startswith(PLAYER_KEY):
            return None
        store = self._store()
        seat = store.seat_of(me.key)
        if seat is None:
            return None
        race = store.load(seat)
        if race is None or me.key not in race.racers or race.status(time.time()) == FINISHED:
            return None
        return store.change(seat, entering(me, timing), time.time())

    # -- the handlers ---------------------------------------------------------------------
    def _join(self, payload: dict) -> None:
        wanted = payload.get("race")
        me = self._entrant(payload)
        sid = me.sid
        self.leave(sid)
        store, timing = self._store(), _timing()
        limit = int(current_app.config["RACES_PER_ADDRESS"])
        resumed = self._resumed(me, timing) if wanted is None else None
        if resumed is not None:
            race, racing = resumed
        elif wanted is None:
            race, racing = join_lobby(store, make_race, me, timing, limit)
        elif wanted == "new":
            race = make_race(False, me.key)
            race.opener = me.address
            racing = entering(me, timing)(race)
            store.add(race, time.time(), limit)
            before = payload.get("from")
            if isinstance(before, str) and 0 < len(before) <= MAX_ID:
                try:
                    store.change(before, rematching(race.id), time.time())
                except RequestRefused as err:
                    if err.status != 404:
                        raise
        elif isinstance(wanted, str) and 0 < len(wanted) <= MAX_ID:
            race, racing = store.change(wanted, entering(me, timing), time.time())
        else:
            raise RequestRefused(N_("no such race"), 404)
        self.joined[sid] = (race.id, not racing)
        if racing:  # a reload or a second tab finds this race again
            store.seat(me.key, race.id, race.ends or time.time() + WAITING_KEEP)
        else:
            join_room(watch_room(race.id))
        self.broadcast(race)

    def _start(self, _payload: dict) -> None:
        race_id, _ = self.joined.get(_sid(), ("", True))
        if not race_id:
            raise RequestRefused(N_("only the race's owner starts it"), 403)
        race, _ = self._store().change(race_id, starting(_sid(), _timing()), time.time())
        self.broadcast(race)

    def _move(self, payload: dict) -> None:
        me = _sid()
        race_id, _ = self.joined.get(me, ("", True))
        race = self._store().load(race_id) if race_id else None
        racer = race.racer_on(me) if race else None
        if race is None or racer is None or race.status(time.time()) != RACING:
            raise RequestRefused(N_("you are in no race under way"), 409)
        if racer.puzzle >= len(race.puzzles):
            raise RequestRefused(N_("you solved every puzzle of this race"), 409)
        if me in self.judging:
            raise RequestRefused(N_("one move at a time: the last is being judged"), 409)
        index, before = racer.puzzle, racer.board
        puzzle = race.puzzles[index]
        self.judging.add(me)
        try:
            judged = judge(
                current_app.extensions["jobs"],
                puzzle.game,
                puzzle.options,
                before,
                payload.get("board"),
                float(current_app.config["REPLAY_SECONDS"]),
                request.remote_addr or "",
                racer.key,
            )
        finally:
            self.judging.discard(me)
        race, _ = self._store().change(race_id, recording(me, index, before, judged), time.time())
        self.broadcast(race)

    def leave(self, gone: str) -> None:
        """Socket ``gone`` left its race (it disconnected, or joins another)."""
        joined = self.joined.pop(gone, None)
        self.judging.discard(gone)
        if joined is None or self.store is None:
            return
        race_id, watching = joined
        if watching:
            leave_room(watch_room(race_id), sid=gone)
        try:
            race, _ = self.store.change(race_id, leaving(gone, watching), time.time())
            if race.dropped:
                self.store.close_lobby(race_id)
                return
        except RequestRefused as err:  # the race expired, or the store is out of reach
            log.info("race %s: %s left unrecorded: %s", race_id, gone[:8], err)
            return
        self.broadcast(race)
