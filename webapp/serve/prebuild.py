"""Warm the solver's tables at startup, off the web process, in two stages.

Some analyses look positions up in tables (a Klotski level's distance table,
the N-puzzle's pattern databases); each game says which through
:meth:`~solver.core.game.Game.warm`. The biggest take a minute to build on a fresh
machine, and a new player should not wait for them: the first stage builds what a
first minute needs (:meth:`~solver.core.game.Game.warm_first`: the 8-puzzle's
table, the classic Klotski level's; seconds), then the solver processes start; the
second stage builds the rest behind them and then raises :attr:`Prebuild.built`,
which tells the idle solver processes to load them (:mod:`webapp.jobs.process`).
Both stages run in a child process, so the web process never holds the tables
itself and a cold build never competes with it for the GIL. Failures are logged
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

_SPAWN = multiprocessing.get_context("spawn")


def _warm_and_report(first: bool) -> None:
    started = time.monotonic()
    count = warm_tables(first=first)
    what = "first-minute tables" if first else "tables"
    log.info("prebuilt %d %s in %.1f s", count, what, time.monotonic() - started)


class Prebuild:
    """The two stages' progress, shared with the solver processes."""

    def __init__(self) -> None:
        #: set once every table is on disk (shared memory: solver processes read it)
        self.built = _SPAWN.RawValue("b", 0)
        self._child: multiprocessing.process.BaseProcess | None = None
        self._stopped = False

    def _run_child(self, first: bool) -> None:
        if self._stopped:
            return
        process = _SPAWN.Process(
            target=_warm_and_report, args=(first,), name="prebuild-tables", daemon=True
        )
        try:
            process.start()
            self._child = process
            # wait on the sentinel first: under gevent a plain join() is a blocking
            # waitpid that would stop the whole web process for the build's length
            wait([process.sentinel])
            process.join()
        except Exception:  # tables are only a speed-up
            log.exception("prebuild process failed")
        finally:
            self._child = None

    def start(
        self, then: Callable[[], None] | None = None, done: Callable[[], None] | None = None
    ) -> threading.Thread:
        """Build the first minute's tables, call ``then`` (start the solver processes),
        build the rest, then raise :attr:`built` and call ``done``."""

        def run():
            self._run_child(first=True)
            if then is not None:
                then()
            self._run_child(first=False)
            self.built.value = 1
            if done is not None and not self._stopped:
                done()

        thread = threading.Thread(target=run, name="prebuild-tables", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """End a build still running (a server shutting down, a test's teardown)."""
        self._stopped = True
        child = self._child
        if child is not None and child.is_alive():
            child.terminate()
