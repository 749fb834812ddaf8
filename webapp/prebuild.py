"""Warm the solver's Klotski tables for the lobby's classic levels, off the main thread.

The first hint on a Klotski level may need a whole distance table; building
those at startup in a daemon thread means players rarely wait, and startup
itself never does. Failures are logged and forgotten: the tables are only a
speed-up, the solver builds them on demand anyway.
"""
from __future__ import annotations

import logging
import threading
import time

from solver.engine import analyse_board

log = logging.getLogger(__name__)


def warm_tables(boards: list[str], stop: threading.Event | None = None) -> int:
    """Analyse each board once so its tables are built and cached; returns how many."""
    done = 0
    for board in boards:
        if stop is not None and stop.is_set():
            break
        try:
            analyse_board("klotski", board, cancel=stop)
            done += 1
        except Exception:                         # a bad level must not stop the rest
            log.exception("could not prebuild tables for %s", board)
    return done


def start_prebuild(boards: list[str]) -> threading.Thread:
    """Start :func:`warm_tables` in a daemon thread and return it."""
    def run():
        started = time.monotonic()
        count = warm_tables(boards)
        log.info("prebuilt Klotski tables for %d levels in %.1f s",
                 count, time.monotonic() - started)
    thread = threading.Thread(target=run, name="prebuild-klotski", daemon=True)
    thread.start()
    return thread
