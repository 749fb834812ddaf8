"""Per-client job slots: searches run off the event handlers, newest request wins.

Each connected client (Socket.IO ``sid``) owns one :class:`Slot` and at most one
worker thread. A new request bumps the slot's *generation* and sets the running
job's cancel ``Event`` (the solver checks it every few hundred positions); the
worker then picks up only the newest pending request. Every emit happens under
the slot's lock after checking that the job's generation is still current, so a
superseded or cancelled job can never send its answer, not even a progress line.

One thread per busy client keeps one client's long solve from starving another
client's quick analysis, and bounds the threads a single client can occupy.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional

from .answers import analyse_reply, error_payload, solve_reply
from .validation import JobRequest

log = logging.getLogger(__name__)

ANALYSE = "analyse"
SOLVE = "solve"


@dataclass
class Job:
    """One queued or running request and the flag that stops its search."""

    kind: str
    request: JobRequest
    generation: int
    cancel: threading.Event = field(default_factory=threading.Event)


@dataclass
class Slot:
    """A client's single job slot."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    generation: int = 0
    pending: Optional[Job] = None
    current: Optional[Job] = None
    worker_running: bool = False


class JobRunner:
    """Schedules analyse/solve jobs per client and delivers their answers.

    ``emit(event, payload, to=sid)`` sends to one client (``socketio.emit``);
    ``start_task(fn, *args)`` starts a worker (``socketio.start_background_task``).
    """

    def __init__(self, emit: Callable[..., Any], start_task: Callable[..., Any], *,
                 analyse_seconds: float = 5.0, solve_seconds: float = 60.0,
                 progress_interval: float = 0.25):
        self._emit = emit
        self._start_task = start_task
        self.analyse_seconds = analyse_seconds
        self.solve_seconds = solve_seconds
        self.progress_interval = progress_interval
        self._slots: Dict[str, Slot] = {}
        self._lock = threading.Lock()

    # -- called from event handlers ------------------------------------------
    def submit(self, sid: str, kind: str, request: JobRequest) -> None:
        """Queue ``request`` for ``sid``, cancelling whatever the client had running."""
        slot = self._slot(sid)
        with slot.lock:
            slot.generation += 1
            self._cancel_locked(slot)
            slot.pending = Job(kind, request, slot.generation)
            if not slot.worker_running:
                slot.worker_running = True
                self._start_task(self._work, sid, slot)

    def cancel(self, sid: str, job_id: Any = None) -> bool:
        """Cancel the client's job (only the one with ``job_id`` when given)."""
        slot = self._slots.get(sid)
        if slot is None:
            return False
        with slot.lock:
            job = slot.pending or slot.current
            if job is None or (job_id is not None and job.request.id != job_id):
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
        """How many clients have a worker right now (for tests and health checks)."""
        with self._lock:
            slots = list(self._slots.values())
        return sum(1 for slot in slots if slot.worker_running)

    # -- internals -----------------------------------------------------------------
    def _slot(self, sid: str) -> Slot:
        with self._lock:
            return self._slots.setdefault(sid, Slot())

    @staticmethod
    def _cancel_locked(slot: Slot) -> None:
        for job in (slot.current, slot.pending):
            if job is not None:
                job.cancel.set()
        slot.pending = None

    def _work(self, sid: str, slot: Slot) -> None:
        """Worker loop: run the newest pending job until none is left."""
        while True:
            with slot.lock:
                job = slot.pending
                slot.pending = None
                slot.current = job
                if job is None:
                    slot.worker_running = False
                    return
            try:
                reply = self._run(sid, slot, job)
            except Exception:                       # a bug must not kill the worker
                log.exception("job %s failed", job.kind)
                reply = "error", error_payload("internal error while searching", job.kind,
                                               job.request.id, job.request.game)
            if reply is not None:
                self._deliver(sid, slot, job, *reply)
            with slot.lock:
                slot.current = None

    def _run(self, sid: str, slot: Slot, job: Job):
        if job.cancel.is_set():
            return None
        if job.kind == ANALYSE:
            return analyse_reply(job.request, job.cancel, self.analyse_seconds)
        return solve_reply(job.request, job.cancel, self.solve_seconds,
                           progress=self._progress_sender(sid, slot, job))

    def _deliver(self, sid: str, slot: Slot, job: Job, event: str, payload: dict) -> bool:
        """Emit only while ``job`` is still the client's newest, uncancelled request."""
        with slot.lock:
            if job.generation != slot.generation or job.cancel.is_set():
                return False
            self._emit(event, payload, to=sid)
            return True

    def _progress_sender(self, sid: str, slot: Slot, job: Job):
        """A progress callback sending at most one ``progress`` per interval."""
        last = [0.0]

        def send(progress) -> None:
            now = time.monotonic()
            if now - last[0] < self.progress_interval:
                return
            last[0] = now
            self._deliver(sid, slot, job, "progress", {
                "id": job.request.id, "game": job.request.game, "nodes": progress.nodes,
                "depth": progress.depth, "elapsed": round(progress.elapsed, 3)})
        return send
