"""A bounded pool of solver worker processes with a bounded queue in front of it.

``submit`` puts a :class:`PoolJob` in the queue (or raises :class:`PoolBusy` when
the queue is full, or holds ``max_per_group`` jobs of the job's group already, so
a flood is answered at once instead of waiting forever). Queued jobs are served
fairly, round robin between groups (clients' addresses): an idle worker takes
the oldest job of the group with the fewest jobs running and, among those, the
one served least recently, so one client asking for many searches never keeps
everyone else's waiting. One dispatcher thread waits on every
worker's pipe and process sentinel and:

* hands each event a worker sends to the job's ``on_event`` (never for a
  cancelled job), then ``on_done`` when the job ends;
* answers ``error`` and starts a fresh worker when a worker dies mid-job (killed
  over its memory cap, crashed) or overruns its job's time budget by a margin
  (a search that stopped checking its clock), so no job is ever lost silently.

Cancelling writes the job's number into the worker's shared cancel flag; the
search polls it every few hundred positions. Workers start on first use, so an
app that never searches never spawns a process.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import itertools
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from ..live.replies import error_payload
from ..live.validation import JobRequest
from .process import Limits, WorkerSettings, worker_main

log = logging.getLogger(__name__)

_SPAWN = multiprocessing.get_context("spawn")  # safe with the server's threads
_seq = itertools.count(1)

#: a job may overrun its time budget by this factor plus GRACE_SECONDS before its
#: worker is killed; the solver normally stops itself long before that
OVERRUN_FACTOR = 1.5
GRACE_SECONDS = 3.0
#: longest pause before restarting a worker that keeps dying before it is ready,
#: and after how many such deaths in a row the queued jobs are answered ``error``
MAX_BACKOFF = 10.0
STRANDED_AFTER = 3


class PoolBusy(Exception):
    """The queue is full: the caller answers "server busy, try again"."""


@dataclass(eq=False)
class PoolJob:
    """One request on its way through the pool; callbacks run on the dispatcher thread."""

    kind: str
    request: JobRequest
    limits: Limits
    owner: str
    on_event: Callable[[str, dict], None]
    on_done: Callable[[], None] = lambda: None
    seq: int = field(default_factory=lambda: next(_seq))
    cancelled: bool = False
    queued_at: float = field(default_factory=time.monotonic)
    log_id: str = ""  # the request id the log lines carry
    group: str = ""  # whose share it uses (a client's address)
    priority: int = 0  # within a group's turn, lower goes first


class _Worker:
    """The web process's handle on one worker process."""

    def __init__(self, index: int, settings: WorkerSettings, name: str):
        self.index = index
        self.cancel_flag = _SPAWN.RawValue("q", 0)
        self.conn, child_end = _SPAWN.Pipe()
        self.process = _SPAWN.Process(
            target=worker_main,
            name=f"{name}-worker-{index}",
            args=(child_end, self.cancel_flag, settings),
            daemon=True,
        )
        self.process.start()
        child_end.close()
        self.ready = False
        self.job: PoolJob | None = None
        self.deadline = 0.0
        self.restart_at: float | None = None  # set while dead, waiting to restart
        self.send_lock = threading.Lock()

    def send(self, message) -> None:
        with self.send_lock:
            self.conn.send(message)

    def ask_to_stop(self) -> None:
        with contextlib.suppress(OSError):
            self.send(None)

    def stop(self, deadline: float) -> None:
        """Wait until ``deadline`` (monotonic) for the process to end, then kill it."""
        self.process.join(max(0.0, deadline - time.monotonic()))
        if self.process.is_alive():
            self.process.kill()
            self.process.join(1.0)
        self.conn.close()


class WorkerPool:
    """``size`` worker processes behind a queue of at most ``max_queue`` jobs."""

    def __init__(
        self,
        name: str,
        size: int,
        max_queue: int,
        settings: WorkerSettings,
        max_per_group: int | None = None,
        reserved: int = 0,
    ):
        self.name = name
        self.size = max(1, int(size))
        self.max_queue = max(0, int(max_queue))
        self.max_per_group = max_per_group
        #: workers only priority-0 jobs may take (a quick lane keeps one for lookups)
        self.reserved = min(max(0, int(reserved)), self.size - 1)
        self.settings = settings
        self._lock = threading.RLock()
        self._queue: collections.deque[PoolJob] = collections.deque()
        self._workers: list[_Worker] = []
        self._dispatcher: threading.Thread | None = None
        self._closing = False
        self.completed = 0
        self.restarts = 0
        self.rejected = 0
        self._start_failures = 0  # workers in a row that died before getting ready
        self._served: dict[str, int] = {}  # group -> when it last got a worker
        self._turns = itertools.count()

    # -- used by the job runner ------------------------------------------------
    def submit(self, job: PoolJob) -> None:
        """Queue ``job``; raises :class:`PoolBusy` when the queue is full or closing."""
        with self._lock:
            if self._closing or len(self._queue) >= self.max_queue or self._group_full(job):
                self.rejected += 1
                raise PoolBusy(self.name)
            self._start_locked()
            self._queue.append(job)
            self._assign_locked()

    def cancel(self, job: PoolJob) -> None:
        """Stop ``job``: drop it from the queue, or flag its worker to stop searching."""
        with self._lock:
            job.cancelled = True
            with contextlib.suppress(ValueError):
                self._queue.remove(job)
            for worker in self._workers:
                if worker.job is job:
                    worker.cancel_flag.value = job.seq

    def owners(self) -> set:
        """Owners (client ids) with a job queued or still running in a worker."""
        with self._lock:
            running = {w.job.owner for w in self._workers if w.job is not None}
            return running | {job.owner for job in self._queue}

    def stats(self) -> dict:
        with self._lock:
            return {
                "workers": len(self._workers),
                "size": self.size,
                "alive": sum(w.process.is_alive() for w in self._workers),
                "ready": sum(w.ready for w in self._workers),
                "busy": sum(w.job is not None for w in self._workers),
                "queued": len(self._queue),
                "max_queue": self.max_queue,
                "completed": self.completed,
                "restarts": self.restarts,
                "rejected": self.rejected,
            }

    def start(self) -> None:
        """Start the workers now (otherwise they start with the first job)."""
        with self._lock:
            self._start_locked()

    def close(self) -> list[PoolJob]:
        """Stop taking jobs and cancel the queued and running ones; returns them, so the
        caller can tell their owners before the workers are stopped."""
        with self._lock:
            if self._closing:
                return []
            self._closing = True
            dropped = list(self._queue)
            self._queue.clear()
            for worker in self._workers:
                if worker.job is not None:
                    dropped.append(worker.job)
                    worker.cancel_flag.value = worker.job.seq
            dropped = [job for job in dropped if not job.cancelled]
            for job in dropped:
                job.cancelled = True
            return dropped

    def shutdown(self, timeout: float = 5.0) -> list[PoolJob]:
        """:meth:`close`, then stop the workers (killing any still busy at ``timeout``)."""
        dropped = self.close()
        with self._lock:
            workers, self._workers = self._workers, []
        deadline = time.monotonic() + timeout
        for worker in workers:
            worker.ask_to_stop()
        for worker in workers:
            worker.stop(deadline)
        if self._dispatcher is not None:
            self._dispatcher.join(timeout)
        return dropped

    # -- internals ---------------------------------------------------------------
    def _start_locked(self) -> None:
        if self._workers or self._closing:
            return
        # runs before multiprocessing's own exit hook terminates the workers, so
        # the dispatcher never mistakes interpreter exit for lost workers
        atexit.register(self.shutdown, 1.0)
        self._workers = [_Worker(i, self.settings, self.name) for i in range(self.size)]
        self._dispatcher = threading.Thread(
            target=self._dispatch, name=f"{self.name}-dispatch", daemon=True
        )
        self._dispatcher.start()

    def _group_full(self, job: PoolJob) -> bool:
        if self.max_per_group is None:
            return False
        return sum(queued.group == job.group for queued in self._queue) >= self.max_per_group

    def _next_locked(self) -> PoolJob | None:
        """The oldest queued job of the group with the fewest jobs running, then of lower
        priority, then of the group served least recently (never served first); None
        when only lower-priority jobs wait and the free workers are reserved."""
        busy = [w.job for w in self._workers if w.job is not None]
        running = collections.Counter(job.group for job in busy)
        candidates = self._queue
        if sum(job.priority > 0 for job in busy) >= self.size - self.reserved:
            candidates = [queued for queued in self._queue if queued.priority == 0]
            if not candidates:
                return None
        job = min(
            candidates,
            key=lambda queued: (
                running[queued.group],
                queued.priority,
                self._served.get(queued.group, -1),
            ),
        )
        self._queue.remove(job)
        self._served[job.group] = next(self._turns)
        if len(self._served) > 4 * (self.max_queue + self.size):  # forget long-gone groups
            waiting = {queued.group for queued in self._queue} | set(running)
            self._served = {g: t for g, t in self._served.items() if g in waiting}
        return job

    def _assign_locked(self) -> None:
        for worker in self._workers:
            if not self._queue:
                return
            if worker.ready and worker.job is None and worker.process.is_alive():
                job = self._next_locked()
                if job is None:
                    return
                worker.job = job
                worker.deadline = (
                    time.monotonic() + job.limits.seconds * OVERRUN_FACTOR + GRACE_SECONDS
                )
                with contextlib.suppress(OSError):  # died just now: the sentinel reports it
                    worker.send((job.seq, job.kind, job.request, job.limits))

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if self._closing:
                    return
                workers = list(self._workers)
            waitables = {}
            for worker in workers:
                if worker.restart_at is not None:
                    continue
                waitables[worker.conn] = worker
                waitables[worker.process.sentinel] = worker
            try:
                ready = wait(list(waitables), timeout=0.2)
            except OSError:
                continue
            for handle in ready:
                worker = waitables[handle]
                if handle is worker.conn:
                    self._read(worker)
                elif not worker.process.is_alive():
                    self._lost(worker, "the solver worker stopped (out of memory?); try again")
            self._check_deadlines(workers)

    def _read(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            if not self._closing:
                self._lost(worker, "the solver worker stopped; try again")

    def _handle(self, worker: _Worker, message) -> None:
        kind = message[0]
        if kind == "ready":
            with self._lock:
                worker.ready = True
                self._assign_locked()
            return
        job = worker.job
        if job is None or message[1] != job.seq:
            return
        if kind == "event":
            if not job.cancelled:
                job.on_event(message[2], message[3])
        elif kind == "done":
            with self._lock:
                worker.job = None
                self.completed += 1
                self._assign_locked()
            job.on_done()

    def _check_deadlines(self, workers: list[_Worker]) -> None:
        now = time.monotonic()
        for worker in workers:
            if worker.restart_at is not None and now >= worker.restart_at:
                self._restart(worker)
            job = worker.job
            if job is not None and now > worker.deadline:
                log.warning(
                    "%s %s worker %d overran its budget; restarting it",
                    job.log_id,
                    self.name,
                    worker.index,
                )
                worker.process.kill()
                self._lost(worker, f"gave up after {job.limits.seconds:g} s (search stopped)")

    def _lost(self, worker: _Worker, message: str) -> None:
        """A worker died or was killed: answer its job with ``error``, start a fresh one."""
        with self._lock:
            if self._closing or worker not in self._workers:
                return
            if worker.restart_at is not None:
                return
            job, worker.job = worker.job, None
            worker.process.join(1.0)
            worker.conn.close()
            self._start_failures = 0 if worker.ready else self._start_failures + 1
            stranded = []
            if self._start_failures >= STRANDED_AFTER:  # workers cannot even start
                stranded, self._queue = list(self._queue), collections.deque()
            # a worker that dies before getting ready is restarted after a growing pause,
            # never in a tight loop
            delay = (
                min(MAX_BACKOFF, 0.25 * 2**self._start_failures) if self._start_failures else 0.0
            )
            worker.restart_at = time.monotonic() + delay
        log.warning(
            "%s %s worker %d lost (exit %s); restarting it in %.2g s",
            job.log_id if job else "-",
            self.name,
            worker.index,
            worker.process.exitcode,
            delay,
        )
        if delay == 0:
            self._restart(worker)
        if job is not None:
            self._fail(job, message)
        for queued in stranded:
            self._fail(queued, "the solver cannot start right now; try again later")

    def _restart(self, worker: _Worker) -> None:
        with self._lock:
            if self._closing or worker not in self._workers:
                return
            self._workers[self._workers.index(worker)] = _Worker(
                worker.index, self.settings, self.name
            )
            self.restarts += 1

    @staticmethod
    def _fail(job: PoolJob, message: str) -> None:
        if not job.cancelled:
            job.on_event(
                "error", error_payload(message, job.kind, job.request.id, job.request.game)
            )
        job.on_done()
