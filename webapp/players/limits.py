"""The write guard: same-site writes only, and a rate limit per address and per player.

Writes are JSON POSTs. A browser names the page's site in ``Origin``; another
site's page is refused (403), on top of the SameSite=Lax cookie. Scripts send
no ``Origin`` and keep working. The limits are sliding windows of one minute
(over them: 429 with ``Retry-After``); the window table is bounded, so a flood
of new addresses cannot grow memory.
"""

from __future__ import annotations

import collections
import math
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

WINDOW = 60.0
MAX_KEYS = 50_000


class WriteLimits:
    """At most ``limit`` writes per key in any minute; ``retry_after(key)`` is None while
    allowed (and counts the write), else the seconds to wait."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._seen: collections.OrderedDict[str, collections.deque] = collections.OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, keys: dict[str, int]) -> int | None:
        """Check every ``{key: limit}`` at once; count the write only when all allow it."""
        now = self._clock()
        with self._lock:
            waits = []
            for key, limit in keys.items():
                times = self._seen.get(key)
                if times is None:
                    continue
                while times and times[0] <= now - WINDOW:
                    times.popleft()
                if limit > 0 and len(times) >= limit:
                    waits.append(times[0] + WINDOW - now)
            if waits:
                return max(1, math.ceil(max(waits)))
            for key in keys:
                times = self._seen.setdefault(key, collections.deque())
                times.append(now)
                self._seen.move_to_end(key)
            while len(self._seen) > MAX_KEYS:
                self._seen.popitem(last=False)
            return None


def same_site(origin: str | None, host_url: str, allowed: list[str] | None) -> bool:
    """True when a request's ``Origin`` is absent, this site, or an allowed origin."""
    if origin is None:
        return True
    if origin in (allowed or ()):
        return True
    mine, theirs = urlsplit(host_url), urlsplit(origin)
    return (theirs.scheme, theirs.netloc) == (mine.scheme, mine.netloc)
