"""Per-client job slots over worker pools: at most one job per client, newest wins.

Each connected client (Socket.IO ``sid``) owns one :class:`Slot`. A new request
bumps the slot's *generation*, cancels the job the client had queued or running
and submits the new one to a pool: ``analyse`` jobs to the analysis pool (table
lookups, so hints stay fast), ``solve`` jobs to the solve pool (long searches).
Every answer goes through :meth:`JobRunner._deliver`, which emits under the
slot's lock only while the job is still the client's newest, uncancelled
request, so a superseded job never speaks, not even a progress line.

A pool whose queue is full raises :class:`~webapp.pool.PoolBusy`; the client is
answered ``error`` "server busy, try again" at once.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Optional

from .answers import error_payload
from .pool import PoolBusy, PoolJob, WorkerPool
from .runner import ANALYSE, BUSY_MESSAGE, CLOSING_MESSAGE, SOLVE
from .validation import JobRequest
from .worker import Limits

log = logging.getLogger(__name__)


@dataclass
class Slot:
    """A client's single job slot."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    generation: int = 0
    job: Optional[PoolJob] = None
    pool: Optional[WorkerPool] = None


class JobRunner:
    """Schedules analyse/solve jobs per client on the pools and delivers their answers
    (a :class:`~webapp.runner.Runner`).

    ``emit(event, payload, to=sid)`` sends to one client (``socketio.emit``);
    ``pools`` maps ``analyse``/``solve`` to a :class:`WorkerPool`; ``limits``
    maps them to each job's :class:`~webapp.worker.Limits`.
    """

    def __init__(self, emit: Callable[..., Any], pools: Dict[str, WorkerPool],
                 limits: Dict[str, Limits]):
        self._emit = emit
        self.pools = pools
        self.limits = limits
        self._slots: Dict[str, Slot] = {}
        self._lock = threading.Lock()
        self.closing = False

    # -- called from event handlers ------------------------------------------
    def submit(self, sid: str, kind: str, request: JobRequest, log_id: str = "") -> None:
        """Queue ``request`` for ``sid``, cancelling whatever the client had before."""
        slot = self._slot(sid)
        pool = self.pools[kind]
        with slot.lock:
            slot.generation += 1
            self._cancel_locked(slot)
            if self.closing:
                self._emit("error", error_payload(CLOSING_MESSAGE, kind, request.id, request.game),
                           to=sid)
                return
            self._submit_locked(sid, slot, kind, request, pool, self.limits[kind], log_id)

    def _submit_locked(self, sid: str, slot: Slot, kind: str, request: JobRequest,
                       pool: WorkerPool, limits: Limits, log_id: str = "") -> None:
        generation = slot.generation

        def on_event(event: str, payload: dict) -> None:
            if event == "escalate":
                self._escalate(sid, slot, generation, request, payload, log_id)
            else:
                self._deliver(sid, slot, generation, event, payload)
        job = PoolJob(kind, request, limits, owner=sid, on_event=on_event,
                      on_done=lambda: self._finished(slot, generation, job), log_id=log_id)
        try:
            pool.submit(job)
        except PoolBusy:
            log.warning("%s %s rejected: %s queue full", log_id, kind, pool.name)
            self._emit("error", error_payload(BUSY_MESSAGE, kind, request.id, request.game),
                       to=sid)
            return
        slot.job, slot.pool = job, pool

    def _escalate(self, sid: str, slot: Slot, generation: int, request: JobRequest,
                  payload: dict, log_id: str) -> None:
        """An analysis that needs a real search moves to the solve pool, full budget."""
        limits = replace(self.limits[ANALYSE], escalate_after=None,
                         skip_interim=bool(payload.get("interim_sent")))
        with slot.lock:
            if generation != slot.generation:
                return
            log.debug("%s analysis needs a search; moved to the solve pool", log_id)
            self._submit_locked(sid, slot, ANALYSE, request, self.pools[SOLVE], limits, log_id)

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
        for pool in self.pools.values():
            owners |= pool.owners()
        return len(owners)

    def clients(self) -> int:
        with self._lock:
            return len(self._slots)

    def health(self) -> dict:
        """Pool figures for ``/readyz``."""
        return {"clients": self.clients(), "busy_clients": self.busy_clients(),
                "pools": {kind: pool.stats() for kind, pool in self.pools.items()}}

    def start(self) -> None:
        """Start every pool's workers now (the server does; tests start them lazily)."""
        for pool in self.pools.values():
            pool.start()

    def shutdown(self, timeout: float = 5.0) -> int:
        """Refuse new jobs, tell clients with a job that it was stopped, stop the pools."""
        self.closing = True
        dropped = [job for pool in self.pools.values() for job in pool.close()]
        for job in dropped:
            self._emit("error", error_payload(CLOSING_MESSAGE, job.kind, job.request.id,
                                              job.request.game), to=job.owner)
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
