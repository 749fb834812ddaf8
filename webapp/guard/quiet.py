"""Refusals, logged at most once a minute per client, with a count of the rest.

A client that floods a refused request (a comparison the long lane has no room for, a
race it may not open) must not write a line a request: 593 WARNING lines a second
from one address filled the log and hid everything else. :class:`RefusalLog` writes
the first refusal of a client, then counts the next ones quietly and, at the first
refusal after :data:`EVERY` seconds, writes one line saying how many it left out.
The table of clients is bounded, so a flood of new addresses cannot grow memory.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable

#: a client's refusals are logged at most this often
EVERY = 60.0
#: clients remembered at most (the longest quiet go first)
MAX_CLIENTS = 10_000


class RefusalLog:
    """One line per client (an address, else a session) and :data:`EVERY` seconds."""

    def __init__(
        self,
        logger: logging.Logger,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
        level: int = logging.WARNING,
    ):
        self._log = logger
        self.level = level
        self.every = every
        self._clock = clock
        self._lock = threading.Lock()
        # client -> (when its last line was written, refusals left out since)
        self._seen: collections.OrderedDict[str, tuple[float, int]] = collections.OrderedDict()

    def __call__(self, client: str, message: str, *args: object) -> bool:
        """Log ``message % args`` for ``client`` unless it had a line within
        :attr:`every` seconds (then only counted); True when a line was written."""
        now = self._clock()
        with self._lock:
            last, left_out = self._seen.get(client, (None, 0))
            if last is not None and now - last < self.every:
                self._seen[client] = (last, left_out + 1)
                return False
            self._seen[client] = (now, 0)
            self._seen.move_to_end(client)
            while len(self._seen) > MAX_CLIENTS:
                self._seen.popitem(last=False)
        if left_out:
            message += " (and %d more refusals of this client in the last %g s)"
            args = (*args, left_out, self.every)
        self._log.log(self.level, message, *args)
        return True
