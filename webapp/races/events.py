"""Races on the socket: ``race_join``, ``race_start``, ``race_move``; ``race_state`` out.

Handlers only check the payload and record what the solver processes judged
(:func:`webapp.players.judged.judge`, which waits cooperatively); a race's clock is a
greenlet (``start_background_task`` and ``sleep``) that never blocks the loop. Each
racer gets their own ``race_state`` (their puzzle), spectators the race without one,
right after every change. A racer is keyed by the player's cookie identity, so a
racer who reconnects within the race resumes; a socket without one is its own racer.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from flask import current_app, request
from flask_socketio import SocketIO, join_room, leave_room

from solver.core.text import N_

from ..players.judged import judge
from ..protocol import RACE_JOIN, RACE_MOVE, RACE_START, RACE_STATE
from ..puzzle_request import BadRequest
from . import ranking
from .draw import race_puzzles
from .model import (
    COUNTDOWN,
    FINISHED,
    MAX_RACES,
    QUORUM,
    RACING,
    WAITING,
    Race,
    clean_name,
    new_id,
)

#: (event, payload) -> whether the client's rate limit lets it through (it answers if not)
Admit = Callable[[str, object], bool]
#: (message, event, payload) -> the ``error`` answer
Reply = Callable[[str | BadRequest, str, object], None]


class Races:
    """This web process's races, by id, and which race each socket is in; ``leave``
    (set by :func:`register_race_events`) takes a socket out of its race."""

    leave: Callable[[str], None]

    def __init__(self) -> None:
        self.races: dict[str, Race] = {}
        self.joined: dict[str, str] = {}  # sid -> race id
        self.lobby: str | None = None  # the public race that is filling up

    def of(self, sid: str) -> Race | None:
        race_id = self.joined.get(sid)
        return None if race_id is None else self.races.get(race_id)

    def forget_finished(self) -> None:
        """Drop finished races no socket is in (keeps memory bounded)."""
        in_use = set(self.joined.values())
        for race_id in [k for k, r in self.races.items() if r.status == FINISHED]:
            if race_id not in in_use:
                del self.races[race_id]


def register_race_events(socketio: SocketIO, admitted: Admit, reply_error: Reply) -> Races:
    """Attach the race handlers to ``socketio``; the returned :class:`Races` is told
    of disconnects by the caller (``leave``)."""
    races = Races()

    def sid() -> str:
        return request.sid  # type: ignore[attr-defined]  # Flask-SocketIO sets it

    def broadcast(race: Race) -> None:
        now = time.monotonic()
        for racer in race.racers.values():
            if racer.sid:
                socketio.emit(RACE_STATE, race.state(now, racer), to=racer.sid)
        for watcher in sorted(race.spectators):
            socketio.emit(RACE_STATE, race.state(now, None), to=watcher)

    def clock(race: Race, countdown: float, seconds: float, players) -> None:
        socketio.sleep(countdown)  # type: ignore[arg-type]
        race.status, race.starts = RACING, None
        race.ends = time.monotonic() + seconds
        broadcast(race)
        socketio.start_background_task(ranking.open_race, players, race, seconds)
        socketio.sleep(seconds)  # type: ignore[arg-type]
        race.status, race.ends = FINISHED, None
        if races.lobby == race.id:
            races.lobby = None
        broadcast(race)
        if ranking.rate(players, race):  # rated once; the ratings follow the results
            broadcast(race)

    def count_down(race: Race) -> None:
        countdown = float(current_app.config["RACE_COUNTDOWN_SECONDS"])
        seconds = float(current_app.config["RACE_SECONDS"])
        race.status, race.starts = COUNTDOWN, time.monotonic() + countdown
        if races.lobby == race.id:
            races.lobby = None  # the next joiner fills a new one
        players = current_app.extensions["players"]
        socketio.start_background_task(clock, race, countdown, seconds, players)

    def make(public: bool, owner: str | None) -> Race:
        races.forget_finished()
        if len(races.races) >= MAX_RACES:
            raise BadRequest(N_("too many races at once; try again soon"), 503)
        race = Race(new_id(), public, owner, race_puzzles(int(current_app.config["RACE_PUZZLES"])))
        races.races[race.id] = race
        return race

    def open_lobby() -> Race | None:
        lobby = races.races.get(races.lobby or "")
        return lobby if lobby is not None and lobby.status == WAITING else None

    def key() -> str:
        owner = current_app.extensions["players"].helps.token(sid())
        return f"p:{owner}" if owner else f"s:{sid()}"

    def payload_of(event: str, args: tuple) -> dict:
        if len(args) > 1:
            raise BadRequest(N_("%(event)s takes one payload"), event=event)
        payload = args[0] if args else {}
        if not isinstance(payload, dict):
            raise BadRequest(N_("%(event)s payload must be an object"), event=event)
        return payload

    def handled(event: str, args: tuple, work: Callable[[dict], None]) -> None:
        payload = args[0] if args else None
        if not admitted(event, payload):
            return
        try:
            work(payload_of(event, args))
        except BadRequest as err:
            reply_error(err, event, payload)

    def join(payload: dict) -> None:
        wanted = payload.get("race")
        me = key()
        leave(sid())
        if wanted is None:
            race = open_lobby()
            if race is None:
                made = make(True, None)
                # its puzzles took a wait: another joiner may have opened a lobby meanwhile
                race = open_lobby() or made
                if race is not made:
                    del races.races[made.id]
            races.lobby = race.id
        elif wanted == "new":
            before = races.races.get(str(payload.get("from", "")))
            race = make(False, me)
            if before is not None and before.status == FINISHED and before.rematch is None:
                before.rematch = race.id
        elif isinstance(wanted, str) and wanted in races.races:
            race = races.races[wanted]
        else:
            raise BadRequest(N_("no such race"), 404)
        name = clean_name(payload.get("name"), f"Racer {len(race.racers) + 1}")
        try:
            race.join(me, sid(), name)
        except BadRequest:
            race.spectators.add(sid())
        races.joined[sid()] = race.id
        join_room(race.id)
        if race.public and race.status == WAITING and len(race.racers) >= QUORUM:
            count_down(race)
        broadcast(race)

    def start(_payload: dict) -> None:
        race = races.of(sid())
        racer = race.racer_on(sid()) if race else None
        if race is None or racer is None or race.owner != racer.key:
            raise BadRequest(N_("only the race's owner starts it"), 403)
        if race.status != WAITING:
            raise BadRequest(N_("this race has started already"), 409)
        count_down(race)
        broadcast(race)

    def move(payload: dict) -> None:
        race = races.of(sid())
        racer = race.racer_on(sid()) if race else None
        if race is None or racer is None or race.status != RACING:
            raise BadRequest(N_("you are in no race under way"), 409)
        if racer.puzzle >= len(race.puzzles):
            raise BadRequest(N_("you solved every puzzle of this race"), 409)
        if racer.judging:
            raise BadRequest(N_("one move at a time: the last is being judged"), 409)
        puzzle, before = race.puzzles[racer.puzzle], racer.board
        racer.judging = True
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
            racer.judging = False
        if race.status != RACING:
            raise BadRequest(N_("the race ended before that move was judged"), 409)
        race.record(racer, judged.board, judged.closer, judged.solved)
        broadcast(race)

    def leave(gone: str) -> None:
        race = races.of(gone)
        races.joined.pop(gone, None)
        if race is None:
            return
        race.spectators.discard(gone)
        racer = race.racer_on(gone)
        if racer is not None:
            racer.sid = None
            if race.status == WAITING and race.public:
                del race.racers[racer.key]  # a lobby keeps only those waiting in it
        leave_room(race.id, sid=gone)
        if race.status == WAITING and not race.sids():
            del races.races[race.id]  # nobody left to start or join it: it holds no slot
            if races.lobby == race.id:
                races.lobby = None
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
