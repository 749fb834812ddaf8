"""Warm the solver's tables at startup, off the web process, so first hints are instant.

The first hint on a Klotski level needs that level's whole distance table, and
the first 8- or 15-puzzle analysis needs its table or pattern databases. Building
them in a daemon thread at startup means players rarely wait, and startup itself
never does. Failures are logged and forgotten: tables are only a speed-up, the
solver builds them on demand anyway.
"""
from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from typing import Callable, Optional

from solver.engine import analyse_board

log = logging.getLogger(__name__)

#: positions whose analysis loads the N-puzzle tables (3x3 table, 4x4 pattern databases)
NPUZZLE_WARMERS = ["1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"]


def _warm_klotski(board: str, stop: Optional[threading.Event]) -> None:
    """Build (or load from disk) the distance table of ``board``'s level."""
    try:
        from solver.klotski import warm_table
    except ImportError:                          # an older solver: analysing builds it too
        analyse_board("klotski", board, cancel=stop)
        return
    warm_table(board, cancel=stop)


def warm_tables(klotski_boards: list[str], stop: Optional[threading.Event] = None) -> int:
    """Warm each Klotski level's table and the N-puzzle tables; returns how many worked."""
    jobs = [(_warm_klotski, board) for board in klotski_boards]
    jobs += [(lambda board, _stop: analyse_board("npuzzle", board), board)
             for board in NPUZZLE_WARMERS]
    done = 0
    for warm, board in jobs:
        if stop is not None and stop.is_set():
            break
        try:
            warm(board, stop)
            done += 1
        except Exception:                         # one bad table must not stop the rest
            log.exception("could not prebuild tables for %s", board)
    return done


def _warm_and_report(klotski_boards: list[str]) -> None:
    started = time.monotonic()
    count = warm_tables(klotski_boards)
    log.info("prebuilt %d tables in %.1f s", count, time.monotonic() - started)


def start_prebuild(klotski_boards: list[str],
                   then: Optional[Callable[[], None]] = None) -> threading.Thread:
    """Build the tables into the disk cache in a child process, then call ``then``.

    A child process, so the web process never holds the tables itself (the
    solver workers do) and a cold build never competes with it for the GIL.
    Workers started afterwards (``then``) load every table from disk in a
    fraction of a second instead of each building them again.
    """
    def run():
        process = multiprocessing.get_context("spawn").Process(
            target=_warm_and_report, args=(klotski_boards,), name="prebuild-tables",
            daemon=True)
        try:
            process.start()
            process.join()
        except Exception:                         # tables are only a speed-up
            log.exception("prebuild process failed")
        if then is not None:
            then()
    thread = threading.Thread(target=run, name="prebuild-tables", daemon=True)
    thread.start()
    return thread
