"""Races on the socket: ``race_join``, ``race_start``, ``race_move``; ``race_state`` out.

Handlers only check the payload and record what the solver processes judged
(:func:`webapp.players.judged.judge`, which waits cooperatively) through the race
store (:mod:`webapp.races.store`: this process's memory, or Redis in a cluster), so
a race's racers may be connected to different web processes. Each racer gets their
own ``race_state`` (their puzzle) right after every change, sent to their socket
wherever it is held (the message queue carries it to another web process);
spectators share one room. A race's clock is stored deadlines: a ticker greenlet in
each process asks the store for the transitions due, and the one process handed a
transition broadcasts it (and, at the end, calls :func:`webapp.races.finish.finish`).
A racer is keyed by the player's cookie identity, so a racer who reconnects within
the race, to any web process, resumes; a socket without one is its own racer. A
named player races under their name; the payload's name is for the others.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from flask import Flask, current_app, request
from flask_socketio import SocketIO, join_room, leave_room

from solver.core.text import N_

from ..jobs.model import TaskRefused
from ..live.message_queue import LocalFirstManager
from ..players.identity import find_player
from ..players.judged import judge
from ..protocol import RACE_JOIN, RACE_MOVE, RACE_START, RACE_STATE
from ..puzzle_request import RequestRefused
from . import ranking
from .draw import race_puzzles
from .finish import finish
from .model import (
    FINISHED,
    QUORUM,
    RACING,
    WAITING,
    Race,
    clean_name,
    new_id,
    watch_room,
)
from .store import FINISHED_NOW, RaceStore, make_store

log = logging.getLogger(__name__)

#: how often each web process asks the store for the clock's transitions due
TICK_SECONDS = 0.1
#: the longest race id taken to the store (ids are 8 characters)
MAX_ID = 32

#: (event, payload) -> whether the client's rate limit lets it through (it answers if not)
Admit = Callable[[str, object], bool]
#: (message, event, payload) -> the ``error`` answer
Reply = Callable[[str | RequestRefused, str, object], None]


class Races:
    """This web process's side of the races: the store (made on first use, from the
    app's ``MESSAGE_QUEUE``), which race each of its sockets is in (and whether as a
    spectator), the sockets with a move being judged; ``leave`` (set by
    :func:`register_race_events`) takes a socket out of its race."""

    leave: Callable[[str], None]

    def __init__(self) -> None:
        self.store: RaceStore | None = None
        self.joined: dict[str, tuple[str, bool]] = {}  # sid -> (race id, watching)
        self.judging: set[str] = set()


def register_race_events(socketio: SocketIO, admitted: Admit, reply_error: Reply) -> Races:
    """Attach the race handlers to ``socketio``; the returned :class:`Races` is told
    of disconnects by the caller (``leave``)."""
    races = Races()

    def sid() -> str:
        return request.sid  # type: ignore[attr-defined]  # Flask-SocketIO sets it

    def store() -> RaceStore:
        if races.store is None:
            races.store = make_store(current_app.config["MESSAGE_QUEUE"])
            app = current_app._get_current_object()  # type: ignore[attr-defined]  # a proxy
            socketio.start_background_task(tick, app, races.store)
        return races.store

    def broadcast(race: Race) -> None:
        now = time.time()
        states = [(r.sid, race.state(now, r)) for r in race.racers.values() if r.sid]
        manager = socketio.server.manager  # type: ignore[attr-defined]  # set by init_app
        if isinstance(manager, LocalFirstManager):  # a cluster: one publish for the others
            manager.emit_each(RACE_STATE, states)
        else:
            for to, state in states:
                socketio.emit(RACE_STATE, state, to=to)
        if race.watchers:
            socketio.emit(RACE_STATE, race.state(now, None), to=watch_room(race.id))

    def tick(app: Flask, kept: RaceStore) -> None:
        """The clock: each transition due, broadcast by the one process handed it; at a
        race's start its rating opens first, at its end it is finished (both off the
        ticker)."""
        failing = False
        players = app.extensions["players"]
        with app.app_context():
            while True:
                socketio.sleep(TICK_SECONDS)  # type: ignore[arg-type]  # any number of seconds
                try:
                    for race_id, what in kept.due(time.time()):
                        race = kept.load(race_id)
                        if race is None:
                            continue
                        if what == FINISHED_NOW:
                            broadcast(race)
                            socketio.start_background_task(ended, app, kept, race_id)
                        else:
                            socketio.start_background_task(begun, players, race)
                except Exception as err:  # noqa: BLE001 - the clock outlives a Redis outage
                    if not failing:
                        log.warning("the races' clock cannot reach its store: %s", err)
                    failing = True
                    continue
                if failing:
                    log.warning("the races' clock reaches its store again")
                failing = False

    def begun(players: ranking.Players, race: Race) -> None:
        """The race is on: its rating opened (help is on record from here), then told."""
        if race.starts is not None and race.ends is not None:
            ranking.open_race(players, race, race.ends - race.starts)
        broadcast(race)

    def ended(app: Flask, kept: RaceStore, race_id: str) -> None:
        """The race's end, once: :func:`~webapp.races.finish.finish`; its ratings, if
        any, follow the results in a second ``race_state``."""
        with app.app_context():
            try:
                rated = finish(kept, app.extensions["players"], race_id)
            except RequestRefused as err:  # the store out of reach: the results stand unrated
                log.warning("race %s could not be finished: %s", race_id, err)
                return
            if rated is not None:
                broadcast(rated)

    def start_clock(race: Race, now: float) -> None:
        race.start(
            now,
            float(current_app.config["RACE_COUNTDOWN_SECONDS"]),
            float(current_app.config["RACE_SECONDS"]),
        )

    def make(public: bool, owner: str | None) -> Race:
        try:
            puzzles = race_puzzles(int(current_app.config["RACE_PUZZLES"]))
        except TaskRefused as err:  # the page lane is full: making puzzles must wait
            raise RequestRefused(str(err), 503, {"Retry-After": "5"}) from None
        return Race(new_id(), public, owner, puzzles)

    def key() -> str:
        owner = current_app.extensions["players"].helps.token(sid())
        return f"p:{owner}" if owner else f"s:{sid()}"

    def chosen_name() -> str | None:
        """The name the socket's player chose, if any: a named player races under it,
        as on the leaderboards (a payload's ``name`` is for a player without one, and
        cannot pass for someone else's)."""
        players = current_app.extensions["players"]
        token = players.helps.token(sid())
        if token is None:
            return None
        with players.db.session() as session:
            player = find_player(session, token)
            return player.name if player is not None else None

    def payload_of(event: str, args: tuple) -> dict:
        if len(args) > 1:
            raise RequestRefused(N_("%(event)s takes one payload"), event=event)
        payload = args[0] if args else {}
        if not isinstance(payload, dict):
            raise RequestRefused(N_("%(event)s payload must be an object"), event=event)
        return payload

    def handled(event: str, args: tuple, work: Callable[[dict], None]) -> None:
        payload = args[0] if args else None
        if not admitted(event, payload):
            return
        try:
            work(payload_of(event, args))
        except RequestRefused as err:
            reply_error(err, event, payload)

    def entering(me: str, named: object, public_only: bool = False) -> Callable[[Race], bool]:
        """A change that puts ``me`` in the race (True) or among its spectators (False);
        the lobby's third racer starts its countdown. ``public_only``: refuse (409) a race
        that is no longer a waiting public one, so the joiner goes to a new lobby."""
        now = time.time()

        def enter(race: Race) -> bool:
            waiting = race.status(now) == WAITING
            if public_only and not (race.public and waiting and me not in race.racers):
                raise RequestRefused(N_("this race is full or under way; you are watching it"), 409)
            try:
                race.join(me, sid(), clean_name(named, f"Racer {len(race.racers) + 1}"), now)
            except RequestRefused:
                race.watchers += 1
                return False
            if race.public and waiting and len(race.racers) >= QUORUM:
                start_clock(race, now)
            return True

        return enter

    def lobby(me: str, named: object) -> tuple[Race, bool]:
        """Into the filling public race, or a new one that becomes the lobby."""
        kept = store()
        for _ in range(5):
            lobby_id = kept.lobby()
            if lobby_id is None:
                fresh = make(True, None)
                kept.add(fresh, time.time())
                if not kept.open_lobby(fresh.id):  # another process opened one first
                    kept.change(fresh.id, _drop, time.time())
                continue
            try:
                race, racing = kept.change(lobby_id, entering(me, named, True), time.time())
            except RequestRefused as err:
                if err.status not in (404, 409):
                    raise
                kept.close_lobby(lobby_id)  # gone or under way: the next joiner opens one
                continue
            if race.starts is not None:
                kept.close_lobby(race.id)
            return race, racing
        raise RequestRefused(N_("the lobby is busy; try again"), 503)

    def join(payload: dict) -> None:
        wanted = payload.get("race")
        me, named = key(), chosen_name() or payload.get("name")
        leave(sid())
        kept = store()
        if wanted is None:
            race, racing = lobby(me, named)
        elif wanted == "new":
            race = make(False, me)
            racing = entering(me, named)(race)
            kept.add(race, time.time())
            before = payload.get("from")
            if isinstance(before, str) and 0 < len(before) <= MAX_ID:
                try:
                    kept.change(before, _rematch(race.id), time.time())
                except RequestRefused as err:
                    if err.status != 404:
                        raise
        elif isinstance(wanted, str) and 0 < len(wanted) <= MAX_ID:
            race, racing = kept.change(wanted, entering(me, named), time.time())
        else:
            raise RequestRefused(N_("no such race"), 404)
        races.joined[sid()] = (race.id, not racing)
        if not racing:
            join_room(watch_room(race.id))
        broadcast(race)

    def start(_payload: dict) -> None:
        race_id, _ = races.joined.get(sid(), ("", True))
        me = sid()

        def begin(race: Race) -> None:
            racer = race.racer_on(me)
            if racer is None or race.owner != racer.key:
                raise RequestRefused(N_("only the race's owner starts it"), 403)
            if race.status(time.time()) != WAITING:
                raise RequestRefused(N_("this race has started already"), 409)
            start_clock(race, time.time())

        if not race_id:
            raise RequestRefused(N_("only the race's owner starts it"), 403)
        race, _ = store().change(race_id, begin, time.time())
        broadcast(race)

    def move(payload: dict) -> None:
        me = sid()
        race_id, _ = races.joined.get(me, ("", True))
        race = store().load(race_id) if race_id else None
        racer = race.racer_on(me) if race else None
        if race is None or racer is None or race.status(time.time()) != RACING:
            raise RequestRefused(N_("you are in no race under way"), 409)
        if racer.puzzle >= len(race.puzzles):
            raise RequestRefused(N_("you solved every puzzle of this race"), 409)
        if me in races.judging:
            raise RequestRefused(N_("one move at a time: the last is being judged"), 409)
        index, before = racer.puzzle, racer.board
        puzzle = race.puzzles[index]
        races.judging.add(me)
        try:
            judged = judge(
                puzzle.game,
                puzzle.options,
                before,
                payload.get("board"),
                request.remote_addr or "",
                racer.key,
            )
        finally:
            races.judging.discard(me)

        def record(race: Race) -> None:
            if race.status(time.time()) != RACING:
                raise RequestRefused(N_("the race ended before that move was judged"), 409)
            now_racer = race.racer_on(me)
            if now_racer is None or (now_racer.puzzle, now_racer.board) != (index, before):
                raise RequestRefused(N_("the race moved on before that move was judged"), 409)
            race.record(now_racer, judged.board, judged.closer, judged.solved)

        race, _ = store().change(race_id, record, time.time())
        broadcast(race)

    def leave(gone: str) -> None:
        joined = races.joined.pop(gone, None)
        races.judging.discard(gone)
        if joined is None or races.store is None:
            return
        race_id, watching = joined
        now = time.time()

        def out(race: Race) -> None:
            racer = race.racer_on(gone)
            if watching:
                race.watchers = max(0, race.watchers - 1)
            elif racer is not None:
                racer.sid = None
                if race.public and race.status(now) == WAITING:
                    del race.racers[racer.key]  # a lobby keeps only those waiting in it
            if race.status(now) == WAITING and not race.sids():
                race.dropped = True  # nobody left to start or join it: it holds no slot

        if watching:
            leave_room(watch_room(race_id), sid=gone)
        try:
            race, _ = races.store.change(race_id, out, now)
            if race.dropped:
                races.store.close_lobby(race_id)
                return
        except RequestRefused as err:  # the race expired, or the store is out of reach
            log.info("race %s: %s left unrecorded: %s", race_id, gone[:8], err)
            return
        broadcast(race)

    @socketio.on(RACE_JOIN)
    def on_join(*args: object) -> None:
        handled(RACE_JOIN, args, join)

    @socketio.on(RACE_START)
    def on_start(*args: object) -> None:
        handled(RACE_START, args, start)

    @socketio.on(RACE_MOVE)
    def on_move(*args: object) -> None:
        handled(RACE_MOVE, args, move)

    races.leave = leave
    return races


def _drop(race: Race) -> None:
    race.dropped = True


def _rematch(to: str) -> Callable[[Race], None]:
    """A change that links a finished race to its rematch ``to`` (the first one only)."""

    def link(race: Race) -> None:
        if race.status(time.time()) == FINISHED and race.rematch is None:
            race.rematch = to

    return link
