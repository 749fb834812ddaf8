"""One Redis connection per URL and process, with every command bounded in time.

A hung Redis must not hang a thread or a greenlet: every command gives up after
:data:`REDIS_TIMEOUT` seconds and is never retried by the client itself (its callers
retry, with back-off, or answer the player). ``redis`` is imported when first used: it
is an optional dependency (the ``cluster`` extra), needed only in a cluster.
"""

from __future__ import annotations

from typing import Any

from ..config import from_environment

#: every Redis command gives up after this long (a hung Redis must not hang a thread)
REDIS_TIMEOUT = 2.0

_clients: dict[str, Any] = {}


def redis_client(url: str | None = None) -> Any:
    """One Redis connection per URL and process (default: ``ARCADE_MESSAGE_QUEUE``);
    its commands time out after :data:`REDIS_TIMEOUT` seconds (blocking reads wait
    less than that)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    url = url or from_environment()["MESSAGE_QUEUE"]
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(
            url,
            socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT,
            health_check_interval=5,
            # redis-py retries a timed-out command 3 times with back-off by default: a
            # hung Redis would hold each call for 4 timeouts; the callers retry instead
            retry=Retry(NoBackoff(), 0),
        )
    return _clients[url]
