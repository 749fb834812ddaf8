"""Background loops that outlive a Redis or database outage.

Every background thread of the web process (the quick lane's sweeper, the cluster
lane's reply listener and watcher) runs its rounds through :class:`Backoff`: a
round that raises is logged once, with its error, not once per round, and the
loop waits longer and longer (up to a few seconds) before the next try; the first
round that works again says so and the pace is back to normal. A thread that died
on its first error would leave its part of the server silently stopped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class Backoff:
    """Pacing and logging for one background loop named ``what``."""

    def __init__(self, what: str, logger: logging.Logger, pause: float, most: float = 5.0) -> None:
        self.what, self.log = what, logger
        self.pause, self.most = pause, most
        self.wait = pause
        self.failing = False
        self.failures = 0

    def run(self, round_: Callable[[], object]) -> float:
        """Run one round; return how long to sleep before the next."""
        try:
            round_()
        except Exception as err:  # noqa: BLE001 - any error: log once, back off, retry
            self.failures += 1
            if not self.failing:
                self.log.warning("%s failed (%s: %s); retrying", self.what, type(err).__name__, err)
            self.failing = True
            self.wait = min(self.most, max(self.wait * 2, 0.1))
            return self.wait
        if self.failing:
            self.log.warning("%s works again after %d failed rounds", self.what, self.failures)
        self.failing, self.failures, self.wait = False, 0, self.pause
        return self.pause

    def loop(self, round_: Callable[[], object], until: Callable[[], bool]) -> None:
        """Rounds until ``until()`` is true, paced as :meth:`run` says."""
        while not until():
            time.sleep(self.run(round_))
