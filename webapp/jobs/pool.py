"""A lane on this machine: a bounded pool of solver processes behind a fair queue.

The job core (:mod:`webapp.jobs.core`) hands a :class:`~webapp.jobs.model.Job` to
:meth:`WorkerPool.submit`; a full queue (overall, or the address's share) raises
:class:`~webapp.jobs.core.LaneBusy` at once. Waiting jobs are taken out by the
lane's :class:`~webapp.jobs.fairness.FairQueue`. One dispatcher thread waits on
every solver process's pipe and sentinel and:

* hands each event a process sends to the job's ``on_event`` (never for a
  cancelled job), then ``on_done`` when the job ends;
* reports the job lost (``on_lost``) and starts a fresh process when one dies
  mid-job (killed over its memory cap, crashed) or overruns its job's time
  budget by a margin (a search that stopped checking its clock), so no job is
  ever lost silently.

Cancelling writes the job's number into the worker's shared cancel flag; the
search polls it every few hundred positions. Processes start on first use, so an
app that never searches never spawns one.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from multiprocessing.connection import wait
from typing import Any

from .fairness import FairLane
from .model import Job, WorkerSettings
from .process import process_main

log = logging.getLogger(__name__)

_SPAWN = multiprocessing.get_context("spawn")  # safe with the server's threads

#: a job may overrun its time budget by this factor plus GRACE_SECONDS before its
#: worker is killed; the solver normally stops itself long before that
OVERRUN_FACTOR = 1.5
GRACE_SECONDS = 3.0
#: longest pause before restarting a worker that keeps dying before it is ready,
#: and after how many such deaths in a row the queued jobs are answered ``error``
MAX_BACKOFF = 10.0
STRANDED_AFTER = 3


class _SolverProcess:
    """The web process's handle on one solver process."""

    def __init__(self, index: int, settings: WorkerSettings, name: str):
        self.index = index
        self.cancel_flag = _SPAWN.RawValue("q", 0)
        self.conn, child_end = _SPAWN.Pipe()
        # under gevent the pipe is a patched socketpair, left non-blocking, and the
        # flag is shared with the child: each end reads whole messages, so blocking
        for end in (self.conn, child_end):
            os.set_blocking(end.fileno(), True)
        self.process = _SPAWN.Process(
            target=process_main,
            name=f"{name}-solver-{index}",
            args=(child_end, self.cancel_flag, settings),
            daemon=True,
        )
        self.process.start()
        child_end.close()
        self.ready = False
        self.job: Job | None = None
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


class WorkerPool(FairLane):
    """``size`` solver processes behind a :class:`~webapp.jobs.fairness.FairQueue` of at most ``max_queue`` jobs
    (and ``max_per_address`` of one address); a lane of the job core."""

    def __init__(
        self,
        name: str,
        size: int,
        max_queue: int,
        settings: WorkerSettings,
        max_per_address: int | None = None,
        reserved: int = 0,
    ):
        super().__init__(name, max_queue, max_per_address)
        self.size = max(1, int(size))
        #: processes only plain jobs may take (the quick lane keeps one for lookups)
        self.reserved = min(max(0, int(reserved)), self.size - 1)
        self.settings = settings
        self._workers: list[_SolverProcess] = []
        self._dispatcher: threading.Thread | None = None
        self.completed = 0
        self.restarts = 0
        self.lost = 0
        self._start_failures = 0  # processes in a row that died before getting ready

    # -- the lane, as the job core uses it ----------------------------------------
    def cancel(self, job: Job) -> None:
        """Stop ``job``: drop it from the queue, or flag its process to stop searching."""
        with self._lock:
            job.cancelled = True
            self._queue.remove(job)
            for worker in self._workers:
                if worker.job is job:
                    worker.cancel_flag.value = job.seq

    def running_jobs(self) -> list[Job]:
        with self._lock:
            return [w.job for w in self._workers if w.job is not None]

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
                "lost": self.lost,
            }

    def start(self) -> None:
        """Start the workers now (otherwise they start with the first job)."""
        with self._lock:
            self._start_locked()

    def close(self) -> list[Job]:
        """Stop taking jobs and cancel the queued and running ones; returns them, so the
        caller can tell their owners before the workers are stopped."""
        with self._lock:
            dropped = self._close_locked()
            for worker in self._workers:
                if worker.job in dropped:
                    worker.cancel_flag.value = worker.job.seq
            return dropped

    def shutdown(self, timeout: float = 5.0) -> list[Job]:
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
        self._workers = [_SolverProcess(i, self.settings, self.name) for i in range(self.size)]
        self._dispatcher = threading.Thread(
            target=self._dispatch, name=f"{self.name}-dispatch", daemon=True
        )
        self._dispatcher.start()

    def _next_locked(self) -> Job | None:
        """The fair queue's next job; only plain ones while the tries running hold every
        process but the reserved ones."""
        running = [w.job for w in self._workers if w.job is not None]
        tries = sum(job.trial for job in running)
        return self._queue.pop(running, plain_only=tries >= self.size - self.reserved)

    def _hand_out_locked(self) -> None:
        for worker in self._workers:
            if not self._queue:
                return
            if worker.ready and worker.job is None and worker.process.is_alive():
                job = self._next_locked()
                if job is None:
                    return
                worker.job = job
                worker.deadline = (
                    time.monotonic() + job.limits.runaway_after * OVERRUN_FACTOR + GRACE_SECONDS
                )
                with contextlib.suppress(OSError):  # died just now: the sentinel reports it
                    worker.send((job.seq, job.kind, job.request, job.limits))

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                if self._closing:
                    return
                workers = list(self._workers)
            waitables: dict[Any, _SolverProcess] = {}  # pipes and sentinels, as wait() gives them
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

    def _read(self, worker: _SolverProcess) -> None:
        try:
            while worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            if not self._closing:
                self._lost(worker, "the solver worker stopped; try again")

    def _handle(self, worker: _SolverProcess, message) -> None:
        kind = message[0]
        if kind == "ready":
            with self._lock:
                worker.ready = True
                self._hand_out_locked()
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
                self._hand_out_locked()
            job.on_done()

    def _check_deadlines(self, workers: list[_SolverProcess]) -> None:
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
                self._lost(worker, f"gave up after {job.limits.runaway_after:g} s (search stopped)")
        self.yield_labs()  # a lab run that ran its slice makes way for a waiting search

    def _lost(self, worker: _SolverProcess, message: str) -> None:
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
            if self._start_failures >= STRANDED_AFTER:  # processes cannot even start
                stranded = self._queue.clear()
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
            self.lost += 1
            self._fail(job, message)
        for queued in stranded:
            self._fail(queued, "the solver cannot start right now; try again later")

    def _restart(self, worker: _SolverProcess) -> None:
        with self._lock:
            if self._closing or worker not in self._workers:
                return
            self._workers[self._workers.index(worker)] = _SolverProcess(
                worker.index, self.settings, self.name
            )
            self.restarts += 1

    @staticmethod
    def _fail(job: Job, message: str) -> None:
        """Tell the core the job's process is gone (it decides what the player hears)."""
        if not job.cancelled and job.on_lost is not None:
            job.on_lost(message, False)
        job.on_done()
