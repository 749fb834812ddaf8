"""A race's ``race_state`` to everyone in it: each racer their own, the spectators one.

Each racer's state carries their own puzzle, so it goes to their socket wherever it is
held: in a cluster the message queue's :meth:`LocalFirstManager.emit_each
<webapp.transport.message_queue.LocalFirstManager.emit_each>` sends this process's
racers theirs at once and the others in one publish; on one server each goes out
alone. Spectators share one room, which the queue carries to every process.
"""

from __future__ import annotations

import time

from flask_socketio import SocketIO

from ..protocol import RACE_STATE
from ..transport.message_queue import LocalFirstManager
from .model import Race, watch_room


class Broadcast:
    """``broadcast(race)``: the race as each of its racers and its spectators see it now."""

    def __init__(self, socketio: SocketIO) -> None:
        self._socketio = socketio

    def __call__(self, race: Race) -> None:
        now = time.time()
        states: list[tuple[str, dict]] = []
        for racer in race.racers.values():  # one state a racer, to each of their sockets
            if racer.sids:
                shown = race.state(now, racer)
                states.extend((sid, shown) for sid in racer.sids)
        manager = self._socketio.server.manager  # type: ignore[attr-defined]  # set by init_app
        if isinstance(manager, LocalFirstManager):  # a cluster: one publish for the others
            manager.emit_each(RACE_STATE, states)
        else:
            for to, state in states:
                self._socketio.emit(RACE_STATE, state, to=to)
        if race.watchers:
            self._socketio.emit(RACE_STATE, race.state(now, None), to=watch_room(race.id))
