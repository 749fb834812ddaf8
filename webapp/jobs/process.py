"""What runs inside a solver process: a loop of jobs, each under budgets.

The web process keeps the sockets; CPU-bound searches run here, in separate
processes, so the GIL never lets one long search stall other players.
:func:`perform` runs one job and reports what the search found as it is (the
core, :mod:`webapp.jobs.escalation`, decides what that means for the player); an
RQ worker in a cluster runs the same function. A solver process of this machine:

* caps its own address space (``RLIMIT_AS``) so a runaway search raises
  ``MemoryError`` (answered with ``error``) instead of eating the machine;
* warms the tables it will look up (each game's :meth:`warm`; cheap from the
  disk cache) before taking its first job; while the server's prebuild is still
  building the biggest, only the first minute's (:meth:`warm_first`), and the rest
  when idle once they are on disk (:mod:`webapp.serve.prebuild`);
* reads jobs ``[(seq, kind, request, limits), ...]`` from its pipe (one, or a few
  analyses to run back to back) and writes back ``("event", seq, name, payload)``
  messages, then ``("done", seq, last_events)``: a job's last event rides with its end;
* stops a job when the shared ``cancel_flag`` holds that job's ``seq``: the
  solver polls it every few hundred positions, well inside 100 ms.

Nothing here knows about sockets or lanes: answers are shaped by :mod:`webapp.jobs.replies`.
"""

from __future__ import annotations

import logging
import os
import resource
import time
from typing import Any

from solver.catalogue import warm_tables
from solver.core.tables import TablesBuilding, leave_builds_while
from solver.engine import warm_judging

from ..protocol import ANALYSIS, ERROR, PROGRESS
from .contract import Failure, Outcome
from .lab import run_lab
from .model import (
    ANALYSE,
    INTERNAL_MESSAGE,
    LAB,
    MEMORY_MESSAGE,
    WARMING_MESSAGE,
    Limits,
    Payload,
    Request,
    Task,
    WorkerSettings,
)
from .replies import analysis_events, job_error, solve_reply
from .tasks import page_search

log = logging.getLogger(__name__)


class _Flag:
    """``is_set()`` over a shared integer: True while it holds this job's number."""

    def __init__(self, shared, seq: int):
        self._shared = shared
        self._seq = seq

    def is_set(self) -> bool:
        return self._shared.value == self._seq

    __call__ = is_set


def _search(kind: str, request: Request, limits: Limits, cancel, send) -> None:
    if isinstance(request, Task):
        send(*page_search(request, limits.seconds, cancel.is_set))
        return
    if kind == ANALYSE:
        for event, payload in analysis_events(request, cancel.is_set, limits):
            send(event, payload)
        return
    if kind == LAB:
        run_lab(request, cancel, limits, send)
        return
    last = [0.0]

    def progress(report) -> None:
        now = time.monotonic()
        if now - last[0] >= limits.progress_interval:
            last[0] = now
            payload = {
                "id": request.id,
                "game": request.game,
                "nodes": report.nodes,
                "depth": report.depth,
                "elapsed": round(report.elapsed, 3),
            }
            for name in ("stage", "best", "lower_bound"):  # a table build, an anytime search
                value = getattr(report, name)
                if value not in (None, ""):
                    payload[name] = value
            send(PROGRESS, payload)

    reply = solve_reply(
        request,
        cancel,
        limits.seconds,
        progress=None if limits.quick else progress,
        max_nodes=limits.max_nodes,
    )
    if reply is not None:
        send(*reply)


def perform(kind: str, request: Request, limits: Limits, cancel, send) -> None:
    """Run one job, calling ``send(event, payload)`` for each outcome or progress line.

    The same in a solver process of this machine and in an RQ worker: a search
    that runs out of memory or hits a bug answers ``error`` and the process lives on.
    """
    try:
        _search(kind, request, limits, cancel, send)
    except MemoryError:
        send(*failed(kind, request, MEMORY_MESSAGE))
    except TablesBuilding:  # the server's prebuild is building them: a minute at most
        send(*failed(kind, request, WARMING_MESSAGE))
    except Exception:  # a bug answers, the process lives on
        log.exception("job %s failed", kind)
        send(*failed(kind, request, INTERNAL_MESSAGE))


def failed(kind: str, request: Request, message: str) -> tuple[str, Any]:
    """What a job that could not finish reports: a page task's failure, a client's
    ``error``."""
    if isinstance(request, Task):
        return Outcome.FAILED, Failure(message)
    return ERROR, job_error(message, kind, request)


#: how often an idle process that warmed only the first minute's tables looks whether
#: the rest are built
IDLE_POLL_SECONDS = 0.5


def limit_memory(memory_mb: int | None) -> None:
    """Cap this process's address space, so a runaway search raises MemoryError."""
    if not memory_mb:
        return
    limit = int(memory_mb) * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # a lower hard limit is already in force
        log.warning("could not cap worker memory at %s MB", memory_mb)


def warm_process(judging: bool = False, first: bool = False) -> None:
    """Load (or build) every game's tables before the first job (with ``judging``, what
    a judged move loads instead; with ``first``, the first minute's tables only), and
    log how long it took."""
    started = time.monotonic()
    if judging:
        count, what = warm_judging(), "games' judging"
    else:
        count, what = warm_tables(first=first), "first-minute tables" if first else "tables"
    log.info(
        "solver process %d warmed %d %s in %.2f s",
        os.getpid(),
        count,
        what,
        time.monotonic() - started,
    )


def process_main(conn, cancel_flag, settings: WorkerSettings) -> None:
    """The solver process: set up, then answer jobs until the pipe closes or says stop."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # one core per process
        os.environ.setdefault(name, "1")
    if settings.nice:
        os.nice(settings.nice)
    limit_memory(settings.memory_mb)
    built: Any = settings.tables_built if settings.warm_tables else None  # a shared flag
    rest = built is not None and not built.value  # the rest is loaded once built
    if rest:  # the prebuild builds the biggest tables once; an answer needing one waits
        leave_builds_while(lambda: not built.value)
    if settings.warm_tables or settings.warm_judging:
        warm_process(judging=not settings.warm_tables, first=rest)
    try:
        conn.send(("ready", int(not rest)))  # 1: warmed all it will
    except OSError:  # the pool shut down while we warmed up
        return
    while True:
        try:
            while rest and not conn.poll(IDLE_POLL_SECONDS):
                if built.value:  # idle, and the server's prebuild has put them on disk
                    warm_process()
                    rest = False
                    conn.send(("warmed", 0))
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):  # the web process went away
            return
        if message is None:
            return
        for seq, kind, request, limits in message:  # a few analyses back to back, or one job
            run_one(conn, cancel_flag, seq, kind, request, limits)


def run_one(conn, cancel_flag, seq: int, kind: str, request: Request, limits: Limits) -> None:
    """One job, its events sent as they come but an answer, which rides with the job's
    end: ``("done", seq, [(event, payload)])`` (one message, one wake of the web process).
    Progress, an analysis's interim hint and a comparison's figures go at once; a job
    cancelled before its turn ends at once."""
    cancel = _Flag(cancel_flag, seq)
    held: list[tuple[str, Payload]] = []

    def send(event: str, payload: Payload) -> None:
        if held:
            conn.send(("event", seq, *held.pop()))
        if kind == LAB or event == PROGRESS or (event == ANALYSIS and not payload.get("final")):
            conn.send(("event", seq, event, payload))
        else:
            held.append((event, payload))

    if not cancel.is_set():
        perform(kind, request, limits, cancel, send)
    conn.send(("done", seq, held))
