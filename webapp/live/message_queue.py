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
"""

from __future__ import annotations

import logging
from typing import Any

import socketio

log = logging.getLogger(__name__)

#: a publish waits this long for Redis at most
PUBLISH_TIMEOUT = 2.0
CHANNEL = "flask-socketio"  # Flask-SocketIO's own channel name


class LocalFirstManager(socketio.RedisManager):
    """A Redis client manager whose emits to a local client stay local."""

    def __init__(self, url: str):
        super().__init__(url, channel=CHANNEL)
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
