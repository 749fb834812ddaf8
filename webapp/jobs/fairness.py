"""Fair shares of a lane: between addresses first, then between the players of one address.

Every lane (a process pool, the cluster's RQ lane) keeps its waiting jobs in a
:class:`FairQueue`. A free worker takes, in this order:

1. a job of the address with the fewest jobs running in the lane, and among
   equals the address served least recently, so one address (a NAT, a proxy
   whose client addresses are not trusted) never keeps every other one waiting;
2. within that address, a job of the player with the fewest jobs running, then
   the player served least recently, so twelve players behind one address share
   its turns instead of queueing behind each other;
3. plain jobs before quick tries (``Job.trial``); tries newest first, because a
   try that has waited is moved to the long lane anyway (:mod:`webapp.jobs.core`)
   and the newest one is the player still waiting at the screen.

The queue is bounded overall (``max_queue``) and per address (``max_per_address``,
never more than half the queue, so another address always finds room): over either
bound :meth:`FairQueue.push` refuses and the player hears "server busy" (issue 46: ten
clients of one address asking graphs filled the page lane's 8 places, and 24 of 26
page tasks from another address were refused).

Lab runs hold a worker for up to a minute, so a lane of ``workers`` processes starts
one only while its address runs fewer than half of them and while the comparisons running
leave a process for everything else (:func:`lab_may_start`), and a comparison that has
run :data:`LAB_SLICE_SECONDS` yields its worker when another kind of search waits
(:meth:`FairLane.yield_labs`; its player hears "server busy, try again"): six lab
sockets of one address made an honest long solve take 35.6 s.
"""

from __future__ import annotations

import collections
import itertools
import threading
import time
from collections.abc import Callable, Iterable

from .core import LaneBusy
from .model import BUSY_MESSAGE, LAB, Job

#: a comparison that has run this long gives its worker up to a waiting search
LAB_SLICE_SECONDS = 5.0


def share(max_queue: int, max_per_address: int | None = None) -> int:
    """The places of one address in a queue of ``max_queue``: at most half of it (at
    least one), and at most ``max_per_address`` when that is given."""
    half = max(1, max_queue // 2)
    return half if max_per_address is None else max(0, min(int(max_per_address), half))


def lab_may_start(job: Job, running: list[Job], workers: int) -> bool:
    """Whether a free worker of a lane of ``workers`` processes may start ``job`` given
    the jobs ``running``: anything but a comparison may; a comparison only while its address
    runs fewer than half the workers' comparisons (at least one) and, with two workers or
    more, while a worker is left for the others' searches."""
    if job.kind != LAB or workers <= 0:
        return True
    labs = [other for other in running if other.kind == LAB]
    if workers > 1 and len(labs) >= workers - 1:
        return False
    mine = sum(other.group == job.group for other in labs)
    return mine < max(1, workers // 2)


class FairQueue:
    """Waiting jobs of one lane, taken out fairly (not thread-safe: the lane locks)."""

    def __init__(
        self,
        max_queue: int,
        max_per_address: int | None = None,
        workers: Callable[[], int] = lambda: 0,
    ):
        self.max_queue = max(0, int(max_queue))
        self.max_per_address = share(self.max_queue, max_per_address)
        #: the lane's processes (0: not known, comparisons are not held back)
        self.workers = workers
        #: when each job handed out got its worker, by ``Job.seq``
        self.started: dict[int, float] = {}
        self._jobs: list[Job] = []
        self._served: dict[str, int] = {}  # address or player -> when it last got a worker
        self._turns = itertools.count()

    def __len__(self) -> int:
        return len(self._jobs)

    def __iter__(self):
        return iter(list(self._jobs))

    def full_for(self, job: Job) -> bool:
        """True when ``job`` may not wait here (the queue or its address's share is full)."""
        if len(self._jobs) >= self.max_queue:
            return True
        waiting = sum(queued.group == job.group for queued in self._jobs)
        return waiting >= self.max_per_address

    def push(self, job: Job) -> bool:
        """Queue ``job``; False (nothing queued) when :meth:`full_for` it."""
        if self.full_for(job):
            return False
        self._jobs.append(job)
        return True

    def remove(self, job: Job) -> bool:
        """Take ``job`` out if it is still waiting; True when it was."""
        try:
            self._jobs.remove(job)
        except ValueError:
            return False
        return True

    def clear(self) -> list[Job]:
        jobs, self._jobs = self._jobs, []
        return jobs

    def pop(
        self, running: Iterable[Job], plain_only: bool = False, workers: int | None = None
    ) -> Job | None:
        """The next job for a free worker, given the jobs running in the lane (of
        ``workers`` processes, by default :attr:`workers`: comparisons keep to
        :func:`lab_may_start`, and wait behind other kinds of an address running as
        many); None when nothing (or, with ``plain_only``, no job but a try) waits."""
        running = list(running)
        workers = self.workers() if workers is None else workers
        candidates = [
            job
            for job in self._jobs
            if not (plain_only and job.trial) and lab_may_start(job, running, workers)
        ]
        if not candidates:
            return None
        by_address = collections.Counter(job.group for job in running)
        by_player = collections.Counter(job.player for job in running)
        job = min(
            candidates,
            key=lambda queued: (
                by_address[queued.group],
                queued.kind == LAB,
                self._served.get("a:" + queued.group, -1),
                by_player[queued.player],
                self._served.get("p:" + queued.player, -1),
                queued.trial,
                -queued.seq if queued.trial else queued.seq,
            ),
        )
        self._jobs.remove(job)
        self.started[job.seq] = time.monotonic()
        if len(self.started) > 4 * (self.max_queue + 8):  # forget jobs long ended
            alive = {other.seq for other in running} | {job.seq}
            self.started = {seq: at for seq, at in self.started.items() if seq in alive}
        turn = next(self._turns)
        self._served["a:" + job.group] = self._served["p:" + job.player] = turn
        if len(self._served) > 8 * (self.max_queue + 8):  # forget long-gone addresses
            keep = {job.group for job in self._jobs} | {job.player for job in self._jobs}
            keep |= set(by_address) | set(by_player)
            self._served = {k: t for k, t in self._served.items() if k[2:] in keep}
        return job


class FairLane:
    """What every lane shares: a lock, a :class:`FairQueue` and the jobs running.

    A back end subclasses it and says which jobs are running (:meth:`running_jobs`),
    how it starts its workers (:meth:`_start_locked`) and how it gives waiting jobs to
    idle ones (:meth:`_hand_out_locked`); the waiting side of the
    :class:`~webapp.jobs.core.Lane` protocol, :meth:`submit` included, is here.
    """

    def __init__(self, name: str, max_queue: int, max_per_address: int | None = None):
        self.name = name
        self.max_queue = max(0, int(max_queue))
        self._lock = threading.RLock()
        # a back end with a fixed number of processes says so (``size``): comparisons' share
        self._queue = FairQueue(max_queue, max_per_address, lambda: int(getattr(self, "size", 0)))
        self._closing = False
        self.rejected = 0  # jobs refused: the queue full, or the lane closing
        #: a comparison that has run this long yields its worker to a waiting search
        self.lab_slice = LAB_SLICE_SECONDS

    def running_jobs(self) -> list[Job]:
        raise NotImplementedError

    def _start_locked(self) -> None:
        """Start the back end's workers if they are not running (the lock is held)."""
        raise NotImplementedError

    def _hand_out_locked(self) -> None:
        """Give waiting jobs, fairest first, to the idle workers (the lock is held)."""
        raise NotImplementedError

    def submit(self, job: Job) -> None:
        """Queue ``job``; raises :class:`LaneBusy` when the queue is full or closing."""
        with self._lock:
            if self._closing or not self._queue.push(job):
                self.rejected += 1
                raise LaneBusy(self.name)
            self._start_locked()
            self._hand_out_locked()

    def cancel(self, job: Job) -> None:
        raise NotImplementedError

    def yield_labs(self) -> int:
        """Stop the comparisons that have run :attr:`lab_slice` seconds while searches of
        other kinds wait here, the longest running first and one per waiting search:
        each lab player hears "server busy, try again" and its worker goes to the
        fairest waiting job. A back end's watch loop calls it; how many it stopped."""
        now = time.monotonic()
        with self._lock:
            waiting = sum(job.kind != LAB for job in self._queue)
            if not waiting:
                return 0
            started = self._queue.started
            labs = [
                job
                for job in self.running_jobs()
                if job.kind == LAB
                and not job.cancelled
                and now - started.get(job.seq, now) >= self.lab_slice
            ]
            labs = sorted(labs, key=lambda job: started[job.seq])[:waiting]
        for job in labs:
            self.cancel(job)  # says nothing more; its worker stops searching
            if job.on_lost is not None:
                job.on_lost(BUSY_MESSAGE, False)
        return len(labs)

    def withdraw(self, job: Job) -> bool:
        """Take ``job`` back if it is still waiting (True), to queue it in another lane."""
        with self._lock:
            return self._queue.remove(job)

    def waiting(self) -> list[Job]:
        with self._lock:
            return list(self._queue)

    def players(self) -> set:
        """Players (client sessions) with a job queued or still running here."""
        with self._lock:
            jobs = self.running_jobs() + list(self._queue)
            return {job.player for job in jobs}

    def _close_locked(self) -> list[Job]:
        """Stop taking jobs; the queued and running ones, now cancelled (the caller stops
        the running ones in its back end); none when closed already."""
        if self._closing:
            return []
        self._closing = True
        dropped = [job for job in self._queue.clear() + self.running_jobs() if not job.cancelled]
        for job in dropped:
            job.cancelled = True
        return dropped
