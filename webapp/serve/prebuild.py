"""Warm the solver's tables at startup, off the web process, so first hints are instant.

Some analyses look positions up in tables (a Klotski level's distance table,
the N-puzzle's pattern databases); each game says which through
:meth:`~solver.core.game.Game.warm`. Building them in a child process at startup
means players rarely wait, and startup itself never does. Failures are logged
and forgotten: tables are only a speed-up, the solver builds them on demand.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import wait

from solver.catalogue import warm_tables

log = logging.getLogger(__name__)


def _warm_and_report() -> None:
    started = time.monotonic()
    count = warm_tables()
    log.info("prebuilt %d tables in %.1f s", count, time.monotonic() - started)


def start_prebuild(then: Callable[[], None] | None = None) -> threading.Thread:
    """Build the tables into the disk cache in a child process, then call ``then``.

    A child process, so the web process never holds the tables itself (the
    solver workers do) and a cold build never competes with it for the GIL.
    Workers started afterwards (``then``) load every table from disk in a
    fraction of a second instead of each building them again.
    """

    def run():
        process = multiprocessing.get_context("spawn").Process(
            target=_warm_and_report, name="prebuild-tables", daemon=True
        )
        try:
            process.start()
            # wait on the sentinel first: under gevent a plain join() is a blocking
            # waitpid that would stop the whole web process for the build's length
            wait([process.sentinel])
            process.join()
        except Exception:  # tables are only a speed-up
            log.exception("prebuild process failed")
        if then is not None:
            then()

    thread = threading.Thread(target=run, name="prebuild-tables", daemon=True)
    thread.start()
    return thread
