"""Per-client rate limits: a token bucket for each Socket.IO client.

A player sends an ``analyse`` per move, a few per second at most; a script
flooding the server is answered ``error`` for every event over the limit, and
its events never reach the job pools. The buckets live in the web process (each
web process limits the clients connected to it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """``allow(client)`` is True while the client stays within ``rate`` events per
    second on average, with bursts of up to ``burst`` events."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = float(rate)
        self.burst = max(1.0, float(burst))
        self._clock = clock
        self._buckets: dict[str, list] = {}
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        if self.rate <= 0:  # 0 switches limits off
            return True
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                bucket = self._buckets[client] = [self.burst, now]
            tokens = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
            if tokens < 1.0:
                bucket[0] = tokens
                return False
            bucket[0] = tokens - 1.0
            return True

    def forget(self, client: str) -> None:
        with self._lock:
            self._buckets.pop(client, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._buckets)
