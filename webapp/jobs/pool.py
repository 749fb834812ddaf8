"""A lane on this machine: a bounded pool of solver processes behind a fair queue.

The job core (:mod:`webapp.jobs.core`) hands a :class:`~webapp.jobs.model.Job` to
:meth:`WorkerPool.submit`; a full queue (overall, or the address's share) raises
:class:`~webapp.jobs.core.LaneBusy` at once. Waiting jobs are taken out by the
lane's :class:`~webapp.jobs.fairness.FairQueue`. Each solver process has one
reader (a greenlet under gevent, :mod:`webapp.jobs.pipe`) that waits on its pipe
alone and:

* hands each event the process sends to the job's ``on_event`` (never for a
  cancelled job), then ``on_done`` when the job ends (a job's last events ride
  in the same message as its end);
* reports the job lost (``on_lost``) and starts a fresh process when the pipe
  closes mid-job (the process was killed over its memory cap, or crashed); a
  watchdog kills a process that overran its job's time budget by a margin (a
  search that stopped checking its clock), so no job is ever lost silently.

While a backlog of analyses waits, a free process is handed a few of them in one
message (:data:`BATCH`, fairest first) and runs them back to back, answering each as
it ends: one write and no round trip per lookup. Cancelling writes the job's number
into the worker's shared cancel flag; the search polls it every few hundred
positions, and a job still waiting in the pipe ends at once. Processes start on
first use, so an app that never searches never spawns one.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import threading
import time

from .fairness import FairLane
from .model import ANALYSE, Job, WorkerSettings
from .pipe import pair
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
#: how often the watchdog looks for runaways and processes due for a restart
WATCH_SECONDS = 0.2
#: lookups sent to a process in one message at most, when a backlog waits
BATCH = 4


class SolverProcess:
    """The web process's handle on one solver process."""

    def __init__(self, index: int, settings: WorkerSettings, name: str):
        self.index = index
        self.cancel_flag = _SPAWN.RawValue("q", 0)
        self.conn, child_end = pair()
        self.process = _SPAWN.Process(
            target=process_main,
            name=f"{name}-solver-{index}",
            args=(child_end, self.cancel_flag, settings),
            daemon=True,
        )
        self.process.start()
        child_end.close()
        self.ready = False
        #: every table it will look up loaded (ready may come first: see process_main)
        self.warm = False
        #: the jobs handed to it, in order: the first is running, the rest wait in its pipe
        self.jobs: list[Job] = []
        self.deadline = 0.0
        self.restart_at: float | None = None  # set while dead, waiting to restart
        #: why it is being stopped, when the pool stops it (the reader then says so)
        self.ending: str | None = None

    @property
    def job(self) -> Job | None:
        return self.jobs[0] if self.jobs else None

    def send(self, message) -> None:
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


def _analyses_only(jobs) -> bool:
    return all(job.kind == ANALYSE and not job.trial for job in jobs)


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
        self._workers: list[SolverProcess] = []
        self._watchdog: threading.Thread | None = None
        self.completed = 0
        self.restarts = 0
        self.lost = 0
        self._start_failures = 0  # processes in a row that died before getting ready

    # -- the lane, as the job core uses it ----------------------------------------
    def cancel(self, job: Job) -> None:
        """Stop ``job``: drop it from the queue, or flag its process to stop searching
        (a job still waiting in the process's pipe ends at once when its turn comes)."""
        with self._lock:
            job.cancelled = True
            self._queue.remove(job)
            for worker in self._workers:
                if job in worker.jobs:
                    worker.cancel_flag.value = job.seq

    def running_jobs(self) -> list[Job]:
        with self._lock:
            return [job for w in self._workers for job in w.jobs]

    def stats(self) -> dict:
        with self._lock:
            return {
                "workers": len(self._workers),
                "size": self.size,
                "alive": sum(w.process.is_alive() for w in self._workers),
                "ready": sum(w.ready for w in self._workers),
                "warm": sum(w.ready and w.warm for w in self._workers),
                "busy": sum(bool(w.jobs) for w in self._workers),
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
                    worker.cancel_flag.value = worker.jobs[0].seq
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
        if self._watchdog is not None:
            self._watchdog.join(timeout)
        return dropped

    # -- internals ---------------------------------------------------------------
    def _start_locked(self) -> None:
        if self._workers or self._closing:
            return
        # runs before multiprocessing's own exit hook terminates the workers, so
        # the readers never mistake interpreter exit for lost workers
        atexit.register(self.shutdown, 1.0)
        self._workers = [self._spawn(i) for i in range(self.size)]
        self._watchdog = threading.Thread(
            target=self._watch, name=f"{self.name}-watchdog", daemon=True
        )
        self._watchdog.start()

    def _spawn(self, index: int) -> SolverProcess:
        """A solver process and the reader of its pipe (a greenlet under gevent)."""
        worker = SolverProcess(index, self.settings, self.name)
        threading.Thread(
            target=self._reader, args=(worker,), name=f"{self.name}-read-{index}", daemon=True
        ).start()
        return worker

    def _next_locked(self, running: list[Job]) -> Job | None:
        """The fair queue's next job; only plain ones while the tries running hold every
        process but the reserved ones."""
        tries = sum(job.trial for job in running)
        return self._queue.pop(running, plain_only=tries >= self.size - self.reserved)

    def _hand_out_locked(self) -> None:
        for worker in self._workers:
            if not self._queue:
                return
            if worker.ready and not worker.jobs and worker.process.is_alive():
                running = [job for w in self._workers for job in w.jobs]
                job = self._next_locked(running)
                if job is None:
                    return
                batch = [job]
                # a backlog of analyses only: a few go in one message and run back to
                # back, each answered as it ends (never a try: it may run its whole budget)
                most = min(BATCH, -(-len(self._queue) // self.size))
                if most > 1 and _analyses_only([job, *self._queue]):
                    while len(batch) < most:
                        more = self._next_locked(running + batch)
                        if more is None:
                            break
                        batch.append(more)
                worker.jobs = batch
                budget = sum(queued.limits.runaway_after for queued in batch)
                worker.deadline = time.monotonic() + budget * OVERRUN_FACTOR + GRACE_SECONDS
                with contextlib.suppress(OSError):  # died just now: its reader reports it
                    worker.send([(j.seq, j.kind, j.request, j.limits) for j in batch])

    def _reader(self, worker: SolverProcess) -> None:
        """Everything ``worker`` says, as it comes, until its pipe closes."""
        try:
            while True:
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            if not self._closing:
                self._lost(worker, worker.ending or "the solver worker stopped; try again")

    def _handle(self, worker: SolverProcess, message) -> None:
        kind = message[0]
        if kind == "ready":
            with self._lock:
                worker.ready = True
                worker.warm = bool(message[1])
                self._hand_out_locked()
            return
        if kind == "warmed":  # the rest of the tables, loaded while idle
            worker.warm = True
            return
        job = worker.job
        if job is None or message[1] != job.seq:
            return
        if kind == "event":
            if not job.cancelled:
                job.on_event(message[2], message[3])
        elif kind == "done":
            for event, payload in message[2]:  # the last events ride with the end
                if job.cancelled:
                    break
                job.on_event(event, payload)
            with self._lock:
                if worker.jobs and worker.jobs[0] is job:
                    worker.jobs.pop(0)
                self.completed += 1
                if not worker.jobs:
                    self._hand_out_locked()
            job.on_done()

    def _watch(self) -> None:
        """Restart dead processes when their pause is over; stop runaways."""
        while not self._closing:
            time.sleep(WATCH_SECONDS)
            with self._lock:
                workers = list(self._workers)
            self._check_deadlines(workers)

    def _check_deadlines(self, workers: list[SolverProcess]) -> None:
        now = time.monotonic()
        for worker in workers:
            if worker.restart_at is not None and now >= worker.restart_at:
                self._restart(worker)
            job = worker.job
            if job is not None and now > worker.deadline and worker.ending is None:
                log.warning(
                    "%s %s worker %d overran its budget; restarting it",
                    job.log_id,
                    self.name,
                    worker.index,
                )
                worker.ending = f"gave up after {job.limits.runaway_after:g} s (search stopped)"
                worker.process.kill()
                self._lost(worker, worker.ending)
        self.yield_labs()  # a comparison that ran its slice makes way for a waiting search

    def _lost(self, worker: SolverProcess, message: str) -> None:
        """A worker died or was killed: answer its jobs with ``error``, start a fresh one."""
        with self._lock:
            if self._closing or worker not in self._workers:
                return
            if worker.restart_at is not None:
                return
            jobs, worker.jobs = worker.jobs, []
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
            jobs[0].log_id if jobs else "-",
            self.name,
            worker.index,
            worker.process.exitcode,
            delay,
        )
        if delay == 0:
            self._restart(worker)
        if jobs:
            self.lost += 1
            self._fail(jobs[0], message)
        for waiting in jobs[1:]:  # never started: they may run elsewhere
            self._fail(waiting, "the solver worker stopped; try again")
        for queued in stranded:
            self._fail(queued, "the solver cannot start right now; try again later")

    def _restart(self, worker: SolverProcess) -> None:
        with self._lock:
            if self._closing or worker not in self._workers:
                return
            self._workers[self._workers.index(worker)] = self._spawn(worker.index)
            self.restarts += 1
            self._hand_out_locked()

    @staticmethod
    def _fail(job: Job, message: str) -> None:
        """Tell the core the job's process is gone (it decides what the player hears)."""
        if not job.cancelled and job.on_lost is not None:
            job.on_lost(message, False)
        job.on_done()
