"""Per-client job slots over worker pools: at most one job per client, newest wins.

Each connected client (Socket.IO ``sid``) owns one :class:`Slot`. A new request
bumps the slot's *generation*, cancels the job the client had queued or running
and submits the new one to a pool. Two lanes keep quick answers quick:

* the *quick lane* (the analysis pool) takes every analysis and every solve
  first, with a short time budget (``escalate_after``): table lookups, tiny
  search spaces and positions a quick test settles are answered there (a
  client's hints before solve tries, as a try may use the whole budget);
* a job over that budget sends ``escalate`` and moves to the *long lane* (the
  solve pool), whose queue is fair between clients' addresses and capped per
  address and overall, so minutes of other people's searches never stand in
  front of a quick job. A solve known to need the long lane (it escalated
  before) goes there at once instead of spending the quick lane's time again.
Every answer goes through :meth:`JobRunner._deliver`, which emits under the
slot's lock only while the job is still the client's newest, uncancelled
request, so a superseded job never speaks, not even a progress line.

A pool whose queue is full raises :class:`~webapp.jobs.pool.PoolBusy`; the client is
answered ``error`` "server busy, try again" at once.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..live.replies import error_payload
from ..live.validation import JobRequest
from .core import ANALYSE, BUSY_MESSAGE, CLOSING_MESSAGE, PAGE, SOLVE
from .pool import PoolBusy, PoolJob, WorkerPool
from .process import Limits
from .tasks import TASK_BUSY_MESSAGE, TASK_SLOW_MESSAGE, TaskRefused, TaskRequest, task_result

log = logging.getLogger(__name__)

#: how many boards known to need the long lane are remembered
KNOWN_LONG = 1024
#: a page waits this much longer than its task's budget before giving up
TASK_GRACE_SECONDS = 2.0


@dataclass
class Slot:
    """A client's single job slot."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    generation: int = 0
    job: PoolJob | None = None
    pool: WorkerPool | None = None
    group: str = ""  # the client's address: its share of the long lane


class JobRunner:
    """Schedules analyse/solve jobs per client on the pools and delivers their answers
    (a :class:`~webapp.jobs.core.Runner`).

    ``emit(event, payload, to=sid)`` sends to one client (``socketio.emit``);
    ``pools`` maps ``analyse``/``solve`` (and ``page``, for :meth:`run_task`) to a
    :class:`WorkerPool`; ``limits`` maps them to each job's
    :class:`~webapp.jobs.process.Limits` (``analyse``'s ``escalate_after`` is the
    quick lane's budget for solves too).
    """

    def __init__(
        self, emit: Callable[..., Any], pools: dict[str, WorkerPool], limits: dict[str, Limits]
    ):
        self._emit = emit
        self.pools = pools
        self.limits = limits
        self._slots: dict[str, Slot] = {}
        self._lock = threading.Lock()
        self._known_long: collections.OrderedDict[tuple, None] = collections.OrderedDict()
        self.closing = False

    # -- called from event handlers ------------------------------------------
    def submit(
        self, sid: str, kind: str, request: JobRequest, log_id: str = "", group: str | None = None
    ) -> None:
        """Queue ``request`` for ``sid``, cancelling whatever the client had before.

        ``group`` (the client's address; default ``sid``) is whose share of the
        long lane the job uses.
        """
        slot = self._slot(sid)
        slot.group = group or slot.group or sid
        pool, limits = self._lane(kind, request)
        with slot.lock:
            slot.generation += 1
            self._cancel_locked(slot)
            if self.closing:
                self._emit(
                    "error", error_payload(CLOSING_MESSAGE, kind, request.id, request.game), to=sid
                )
                return
            self._submit_locked(sid, slot, kind, request, pool, limits, log_id)

    def _lane(self, kind: str, request: JobRequest):
        """(pool, limits) a new request starts in: the quick lane (the analysis pool) when
        its limits give it a quick try (``escalate_after``) and it is not known to be long."""
        limits = self.limits[kind]
        if kind == ANALYSE:
            return self.pools[ANALYSE], limits
        if limits.escalate_after is None or self._is_known_long(request):
            return self.pools[SOLVE], replace(limits, escalate_after=None)
        if limits.escalate_after < limits.seconds:
            self.pools[SOLVE].start()  # ready by the time a try escalates
        return self.pools[ANALYSE], limits

    def _submit_locked(
        self,
        sid: str,
        slot: Slot,
        kind: str,
        request: JobRequest,
        pool: WorkerPool,
        limits: Limits,
        log_id: str = "",
    ) -> None:
        generation = slot.generation

        def on_event(event: str, payload: dict) -> None:
            if event == "escalate":
                self._escalate(sid, slot, generation, kind, request, payload, log_id)
            else:
                self._deliver(sid, slot, generation, event, payload)

        # a solve's quick try may use the whole quick budget: hints (lookups) go first
        try_first = kind == SOLVE and limits.escalate_after is not None
        job = PoolJob(
            kind,
            request,
            limits,
            owner=sid,
            on_event=on_event,
            on_done=lambda: self._finished(slot, generation, job),
            log_id=log_id,
            group=slot.group,
            priority=1 if try_first else 0,
        )
        try:
            pool.submit(job)
        except PoolBusy:
            log.warning("%s %s rejected: %s queue full", log_id, kind, pool.name)
            self._emit("error", error_payload(BUSY_MESSAGE, kind, request.id, request.game), to=sid)
            return
        slot.job, slot.pool = job, pool

    def _escalate(
        self,
        sid: str,
        slot: Slot,
        generation: int,
        kind: str,
        request: JobRequest,
        payload: dict,
        log_id: str,
    ) -> None:
        """A job that needs a real search moves to the long lane, full budget."""
        if kind == ANALYSE:
            limits = replace(
                self.limits[ANALYSE],
                escalate_after=None,
                skip_interim=bool(payload.get("interim_sent")),
            )
        else:
            limits = replace(self.limits[SOLVE], escalate_after=None)
            self._remember_long(request)
        with slot.lock:
            if generation != slot.generation:
                return
            log.debug("%s %s needs a long search; moved to the solve pool", log_id, kind)
            self._submit_locked(sid, slot, kind, request, self.pools[SOLVE], limits, log_id)

    @staticmethod
    def _board_key(request: JobRequest) -> tuple:
        return request.game, request.board, tuple(sorted(request.options.items()))

    def _is_known_long(self, request: JobRequest) -> bool:
        with self._lock:
            return self._board_key(request) in self._known_long

    def _remember_long(self, request: JobRequest) -> None:
        with self._lock:
            self._known_long[self._board_key(request)] = None
            while len(self._known_long) > KNOWN_LONG:
                self._known_long.popitem(last=False)

    # -- called from page views ------------------------------------------------
    def run_task(self, kind: str, request: TaskRequest, seconds: float) -> dict:
        """Run a page's search (:mod:`webapp.jobs.tasks`) in the page pool and wait for it.

        Returns the result; raises BoardError for a bad request (:func:`task_result`) and
        :class:`~webapp.jobs.tasks.TaskRefused` when the pool is full or the task
        overran ``seconds``, so the page answers 503 instead of holding its thread.
        """
        pool = self.pools[PAGE]
        finished = threading.Event()
        answers = []
        job = PoolJob(
            kind,
            request,
            Limits(seconds),
            owner="",
            group=kind,
            on_event=lambda event, payload: answers.append((event, payload)),
            on_done=finished.set,
        )
        try:
            if self.closing:
                raise PoolBusy(pool.name)
            pool.submit(job)
        except PoolBusy:
            raise TaskRefused(TASK_BUSY_MESSAGE) from None
        if not finished.wait(seconds + TASK_GRACE_SECONDS):
            pool.cancel(job)
            raise TaskRefused(TASK_SLOW_MESSAGE)
        return task_result(answers[-1] if answers else None)

    def cancel(self, sid: str, job_id: Any = None) -> bool:
        """Cancel the client's job (only the one with ``job_id`` when given)."""
        slot = self._slots.get(sid)
        if slot is None:
            return False
        with slot.lock:
            job = slot.job
            if job is None or job.cancelled or (job_id is not None and job.request.id != job_id):
                return False
            slot.generation += 1
            self._cancel_locked(slot)
            return True

    def drop(self, sid: str) -> None:
        """The client left: cancel its job and forget its slot."""
        with self._lock:
            slot = self._slots.pop(sid, None)
        if slot is not None:
            with slot.lock:
                slot.generation += 1
                self._cancel_locked(slot)

    def busy_clients(self) -> int:
        """Clients with a job queued or still running in a worker (cancelled ones included)."""
        owners = set()
        for kind in (ANALYSE, SOLVE):
            owners |= self.pools[kind].owners()
        return len(owners)

    def clients(self) -> int:
        with self._lock:
            return len(self._slots)

    def health(self) -> dict:
        """Pool figures for ``/readyz``."""
        return {
            "clients": self.clients(),
            "busy_clients": self.busy_clients(),
            "pools": {kind: pool.stats() for kind, pool in self.pools.items()},
        }

    def start(self) -> None:
        """Start every pool's workers now (the server does; tests start them lazily)."""
        for pool in self.pools.values():
            pool.start()

    def shutdown(self, timeout: float = 5.0) -> int:
        """Refuse new jobs, tell clients with a job that it was stopped, stop the pools."""
        self.closing = True
        dropped = [job for pool in self.pools.values() for job in pool.close()]
        for job in dropped:
            if not job.owner:  # a page's task: its view answers 503
                continue
            self._emit(
                "error",
                error_payload(CLOSING_MESSAGE, job.kind, job.request.id, job.request.game),
                to=job.owner,
            )
        for pool in self.pools.values():
            pool.shutdown(timeout)
        return len(dropped)

    # -- internals -----------------------------------------------------------------
    def _slot(self, sid: str) -> Slot:
        with self._lock:
            return self._slots.setdefault(sid, Slot())

    @staticmethod
    def _cancel_locked(slot: Slot) -> None:
        if slot.job is not None and slot.pool is not None:
            slot.pool.cancel(slot.job)
        slot.job, slot.pool = None, None

    @staticmethod
    def _finished(slot: Slot, generation: int, job: PoolJob) -> None:
        with slot.lock:
            if generation == slot.generation and slot.job is job:
                slot.job, slot.pool = None, None

    def _deliver(self, sid: str, slot: Slot, generation: int, event: str, payload: dict) -> bool:
        """Emit only while the job's generation is still the client's newest."""
        with slot.lock:
            if generation != slot.generation:
                return False
            self._emit(event, payload, to=sid)
            return True
