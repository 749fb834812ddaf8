"""The cluster's Socket.IO message queue, kept off the quick path.

python-socketio's :class:`~socketio.RedisManager` delivers an emit on this
process at once, then publishes it on Redis for the other web processes, and the
emit returns only when Redis took it: with Redis hung, every answer's sender
waits with it, so quick answers stalled with Redis (measured: 2 of them in a 15 s
freeze). :class:`LocalFirstManager` sends an emit to a client connected to this
process itself and never touches Redis for it; the queue carries only traffic
that may concern other processes (rooms such as races, notices, clients held
elsewhere). Publishing gives up after a few seconds, logged once per outage,
instead of waiting for Redis forever.

:meth:`LocalFirstManager.emit_each` sends one event to many clients, each with its
own data (a race's racers, each with their own puzzle): those held here at once,
the others in one message on the queue rather than one per client. That message's
method is ``emit_each``, which python-socketio's own listener ignores (a process
without this manager drops it rather than misread it).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable
from typing import Any

import socketio

from . import wire

log = logging.getLogger(__name__)

#: a publish waits this long for Redis at most
PUBLISH_TIMEOUT = 2.0
CHANNEL = "flask-socketio"  # Flask-SocketIO's own channel name
EMIT_EACH = "emit_each"


class LocalFirstManager(socketio.RedisManager):
    """A Redis client manager whose emits to a local client stay local."""

    def __init__(self, url: str):
        super().__init__(url, channel=CHANNEL, json=wire.JSON)
        self._publisher: Any = None
        self._failing = False

    def emit(self, event, data, namespace=None, room=None, skip_sid=None, callback=None, **kwargs):
        room = kwargs.pop("to", None) or room
        local = (
            room is not None
            and callback is None
            and not skip_sid
            and self.is_connected(room, namespace or "/")
        )
        if local:
            kwargs["ignore_queue"] = True
        return super().emit(
            event,
            data,
            namespace=namespace,
            room=room,
            skip_sid=skip_sid,
            callback=callback,
            **kwargs,
        )

    def emit_each(self, event: str, items: Iterable[tuple[str, Any]], namespace: str = "/"):
        """``event`` to each client ``sid`` with its ``data``, in one publish at most."""
        away = []
        for sid, data in items:
            if self.is_connected(sid, namespace):
                super().emit(event, data, namespace=namespace, room=sid, ignore_queue=True)
            else:
                away.append([sid, data])
        if away:
            message = {"method": EMIT_EACH, "event": event, "namespace": namespace}
            self._publish({**message, "each": away, "host_id": self.host_id})

    def _listen(self):
        """The queue's messages, less the ``emit_each`` ones, which are delivered here."""
        for message in super()._listen():
            data = None
            raw = message.encode() if isinstance(message, str) else message
            if isinstance(raw, bytes) and b'"emit_each"' in raw:  # rare elsewhere: checked
                with contextlib.suppress(ValueError):
                    data = self.json.loads(message)
            if isinstance(data, dict) and data.get("method") == EMIT_EACH:
                self._deliver_each(data)
            else:
                yield message

    def _deliver_each(self, data: dict) -> None:
        if data.get("host_id") == self.host_id:
            return  # sent from here: its own clients had theirs
        try:
            namespace = data["namespace"]
            for sid, payload in data["each"]:
                if self.is_connected(sid, namespace):
                    super().emit(
                        data["event"], payload, namespace=namespace, room=sid, ignore_queue=True
                    )
        except Exception:  # noqa: BLE001 - one bad message must not stop the listener
            log.exception("an emit_each message could not be delivered")

    def _publish(self, data):
        """One try, bounded by :data:`PUBLISH_TIMEOUT`; a failure is logged, not raised."""
        try:
            if self._publisher is None:
                import redis
                from redis.backoff import NoBackoff
                from redis.retry import Retry

                self._publisher = redis.Redis.from_url(
                    self.redis_url,
                    socket_timeout=PUBLISH_TIMEOUT,
                    socket_connect_timeout=PUBLISH_TIMEOUT,
                    retry=Retry(NoBackoff(), 0),  # one try: a hung Redis costs one timeout
                )
            result = self._publisher.publish(self.channel, self.json.dumps(data))
        except Exception as err:  # noqa: BLE001 - Redis out of reach: other processes miss it
            if not self._failing:
                log.warning("the Socket.IO message queue is out of reach: %s", err)
            self._failing = True
            return None
        if self._failing:
            log.warning("the Socket.IO message queue works again")
        self._failing = False
        return result
