"""What runs inside one solver worker process: a loop of jobs, each under budgets.

The web process keeps the event loop and the sockets; CPU-bound searches run
here, in separate processes, so the GIL never lets one long search stall other
players. A worker:

* caps its own address space (``RLIMIT_AS``) so a runaway search raises
  ``MemoryError`` (answered with ``error``) instead of eating the machine;
* warms the tables it will look up (each game's :meth:`warm`; cheap from the
  disk cache) before taking its first job;
* reads jobs ``(seq, kind, request, limits)`` from its pipe and writes back
  ``("event", seq, name, payload)`` messages, then ``("done", seq)``;
* stops a job when the shared ``cancel_flag`` holds that job's ``seq``: the
  solver polls it every few hundred positions, well inside 100 ms.

Nothing here knows about sockets: answers are shaped by :mod:`webapp.live.replies`.
"""

from __future__ import annotations

import logging
import os
import resource
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from solver.core.errors import BoardError
from solver.core.results import Budget
from solver.engine import analyse_stages

from ..live.replies import error_payload, solve_reply
from ..live.validation import JobRequest
from ..serve.prebuild import warm_tables
from .core import ANALYSE
from .tasks import CHECK, GENERATE, run_task

log = logging.getLogger(__name__)

Event = tuple[str, dict]


@dataclass(frozen=True)
class Limits:
    """One job's budgets, from the app's configuration."""

    seconds: float
    max_nodes: int | None = None
    progress_interval: float = 0.25
    #: give up after this many seconds and ask to be moved to the solve pool (an
    #: ``escalate`` event) instead of answering ``error``: the quick lane's budget
    escalate_after: float | None = None
    #: analysis only: the interim hint was sent already (by the escalated try)
    skip_interim: bool = False


@dataclass(frozen=True)
class WorkerSettings:
    """How a worker process sets itself up (picklable: it crosses into the process)."""

    memory_mb: int | None = None
    warm_tables: bool = False
    nice: int = 0


def analysis_events(
    request: JobRequest, cancel: Callable[[], bool], limits: Limits
) -> Iterator[Event]:
    """Every ``analysis`` payload of :func:`solver.engine.analyse_stages`, or one ``error``.

    A quick interim hint (``final`` False) may come first, then the proven one.
    Nothing is yielded once the job is cancelled. With ``limits.escalate_after``
    an analysis that is not a quick lookup stops early and yields ``escalate``
    (``{interim_sent}``), so the analysis pool stays free for lookups; so does
    one whose moves could not all be rated in that time (its distance goes first),
    and one whose final answer is as unproven as the interim hint already sent.
    """
    fast = limits.escalate_after is not None and limits.escalate_after < limits.seconds
    seconds = limits.escalate_after if fast else limits.seconds
    budget = Budget(max_nodes=limits.max_nodes, max_seconds=seconds)
    interim_sent = False
    try:
        for payload in analyse_stages(
            request.game, request.board, budget=budget, cancel=cancel, **request.options
        ):
            if cancel():
                return
            if payload["final"] and fast and interim_sent and not payload["optimal"]:
                # an unproven hint again: the proof needs the longer budget of the solve pool
                yield "escalate", {"interim_sent": True}
                return
            gave_up = payload["distance"] is None and payload["solvable"] is not False
            if payload["final"] and gave_up:
                if fast and payload["solvable"] is None:
                    yield "escalate", {"interim_sent": interim_sent or limits.skip_interim}
                    return
                message = payload["message"] or "gave up before finding the distance"
                yield "error", error_payload(message, ANALYSE, request.id, request.game)
                return
            if payload["final"] and fast and not payload["options_complete"]:
                # the distance is proven but rating every move needs more time: send
                # what is known as an interim answer, and finish in the solve pool
                if not limits.skip_interim:
                    yield (
                        "analysis",
                        {"id": request.id, "game": request.game, **payload, "final": False},
                    )
                yield "escalate", {"interim_sent": True}
                return
            if not payload["final"]:
                if limits.skip_interim:
                    continue
                interim_sent = True
            yield "analysis", {"id": request.id, "game": request.game, **payload}
    except BoardError as err:
        yield "error", error_payload(str(err), ANALYSE, request.id, request.game)


class _Flag:
    """``is_set()`` over a shared integer: True while it holds this job's number."""

    def __init__(self, shared, seq: int):
        self._shared = shared
        self._seq = seq

    def is_set(self) -> bool:
        return self._shared.value == self._seq

    __call__ = is_set


def run_job(
    kind: str, request: JobRequest, limits: Limits, cancel, send: Callable[[str, dict], None]
) -> None:
    """Run one job, calling ``send(event, payload)`` for each answer or progress line.

    A solve with ``limits.escalate_after`` is a quick-lane try: over that budget it
    sends ``escalate`` and the runner moves it to the solve pool's fair queue.
    """
    if kind == ANALYSE:
        for event, payload in analysis_events(request, cancel.is_set, limits):
            send(event, payload)
        return
    if kind in (GENERATE, CHECK):
        send(*run_task(kind, request, limits.seconds))
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
            send("progress", payload)

    # a quick try reports no progress: it is over in a moment, and the long lane's
    # search, if it comes to that, reports its own from the start
    quick = limits.escalate_after is not None and limits.escalate_after < limits.seconds
    reply = solve_reply(
        request,
        cancel,
        limits.escalate_after if quick else limits.seconds,
        progress=None if quick else progress,
        max_nodes=limits.max_nodes,
        escalate=quick,
    )
    if reply is not None:
        send(*reply)


def limit_memory(memory_mb: int | None) -> None:
    """Cap this process's address space, so a runaway search raises MemoryError."""
    if not memory_mb:
        return
    limit = int(memory_mb) * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # a lower hard limit is already in force
        log.warning("could not cap worker memory at %s MB", memory_mb)


def warm_worker() -> None:
    """Load (or build) every game's tables before the first job, and log how long it took."""
    started = time.monotonic()
    count = warm_tables()
    log.info("worker %d warmed %d tables in %.2f s", os.getpid(), count, time.monotonic() - started)


def worker_main(conn, cancel_flag, settings: WorkerSettings) -> None:
    """The worker process: set up, then answer jobs until the pipe closes or says stop."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):  # one core per worker
        os.environ.setdefault(name, "1")
    if settings.nice:
        os.nice(settings.nice)
    limit_memory(settings.memory_mb)
    if settings.warm_tables:
        warm_worker()
    try:
        conn.send(("ready", 0))
    except OSError:  # the pool shut down while we warmed up
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):  # the web process went away
            return
        if message is None:
            return
        seq, kind, request, limits = message
        cancel = _Flag(cancel_flag, seq)

        def send(event: str, payload: dict, seq=seq) -> None:
            conn.send(("event", seq, event, payload))

        try:
            run_job(kind, request, limits, cancel, send)
        except MemoryError:
            send(
                "error",
                error_payload(
                    "this position needs more memory than the server allows per search",
                    kind,
                    request.id,
                    request.game,
                ),
            )
        except Exception:  # a bug answers, the worker lives on
            log.exception("job %s failed", kind)
            send(
                "error",
                error_payload("internal error while searching", kind, request.id, request.game),
            )
        conn.send(("done", seq))
