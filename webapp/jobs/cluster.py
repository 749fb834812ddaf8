"""The cluster's long lane: long searches on RQ workers, sharing one Redis.

With ``MESSAGE_QUEUE`` set, the job core's long lane is a :class:`ClusterLane`;
its quick and page lanes stay this machine's process pools, so a table lookup
or a search within the quick budget never touches Redis. The lane keeps the
core's rules (a :class:`~webapp.jobs.fairness.FairQueue` in front, bounded), and
hands RQ only as many jobs at a time as RQ has workers, so the fair order, not
RQ's first-come order, decides who runs next. Each job's events come back on
this web process's reply list (:mod:`webapp.jobs.cluster_job`) and go to the
job's ``on_event``, so the core delivers them as it does its own processes'.

A watcher thread makes sure no job is lost silently: a job whose worker died (its
heartbeat stopped) is reported lost and may run once more; a job RQ marks failed
(over its time limit, a crash) is reported lost for good; a job that said nothing
for its whole budget and :data:`OVERDUE_SECONDS` more (Redis hung, every worker
gone) is answered ``error`` without asking Redis anything.

Redis's bad moments: every command times out within seconds
(:func:`~webapp.transport.redis_client.redis_client`); while the watcher cannot reach
Redis the lane refuses new long searches at once ("long searches are
unavailable; try again") and answers the ones waiting in its queue the same way,
and both threads survive and retry with back-off (:mod:`webapp.jobs.retry`).
Workers count only while alive: each refreshes a short-lived key
(:data:`~webapp.jobs.cluster_job.ALIVE_KEY`), and one whose key expired is
taken out of RQ's registry, so a killed worker stops counting within seconds.

``rq`` and ``redis`` are imported where they are used: they are an optional
dependency (the ``cluster`` extra), needed only when the app runs in a cluster.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from dataclasses import asdict

from solver.core.text import N_

from ..transport.redis_client import redis_client
from .cluster_job import (
    ALIVE_KEY,
    BEAT_KEY,
    CANCEL_KEY,
    KEY_SECONDS,
    QUEUE,
    REPLY_KEY,
    long_search,
)
from .contract import TASKS, from_wire, to_wire
from .core import LaneBusy
from .fairness import FairLane
from .model import OVERDUE_MESSAGE, UNAVAILABLE_MESSAGE, Job
from .retry import Backoff

log = logging.getLogger(__name__)

LOST_MESSAGE = N_("the solver worker stopped; try again")
FAILED_MESSAGE = N_("the search failed on the worker (over its time limit?)")
WATCH_EVERY = 0.5
#: a job still silent this long after its budget ran out is answered ``error``
OVERDUE_SECONDS = 5.0
#: a registered worker without its alive key for this long leaves RQ's registry
DEAD_AFTER = 2.0
WORKER_PREFIX = "rq:worker:"  # RQ's key for a worker: the prefix, then its name


class ClusterLane(FairLane):
    """A lane whose workers are RQ's, on the Redis at ``url``."""

    def __init__(self, name: str, url: str, max_queue: int, max_per_address: int | None = None):
        from rq import Queue

        super().__init__(name, max_queue, max_per_address)
        self.key = uuid.uuid4().hex[:12]  # this web process's reply list
        self.redis = redis_client(url)
        self.queue = Queue(QUEUE, connection=self.redis)
        # key -> job, rq id ("" until RQ has it), misses (a list: the watcher counts in
        # it), when handed out
        self._running: dict[str, tuple[Job, str, list[int], float]] = {}
        self._unsent: list[str] = []  # keys handed out, not yet enqueued (see _send)
        self.available = True  # False while the watcher cannot reach Redis
        self._missing: dict[str, float] = {}  # worker name -> first seen without its key
        self._threads: list[threading.Thread] = []
        self.capacity = 1  # RQ workers, as last counted
        self.completed = self.lost = 0

    # -- the lane, as the job core uses it ----------------------------------------
    def submit(self, job: Job) -> None:
        """Queue ``job``, or refuse it at once while Redis is out of reach."""
        with self._lock:
            self._start_locked()
            if not self.available:
                self.rejected += 1
                raise LaneBusy(self.name, UNAVAILABLE_MESSAGE)
        super().submit(job)
        self._send()

    def cancel(self, job: Job) -> None:
        with self._lock:
            job.cancelled = True
            self._queue.remove(job)
            key = self._key_of(job)
        if key is not None:
            self._tell_cancel(key)

    def _tell_cancel(self, key: str) -> None:
        try:
            self.redis.set(CANCEL_KEY.format(job=key), 1, ex=KEY_SECONDS)
        except Exception as err:  # noqa: BLE001 - Redis gone: the job's answer is dropped anyway
            log.warning("could not cancel job %s on Redis: %s", key, err)

    def running_jobs(self) -> list[Job]:
        with self._lock:
            return [job for job, *_ in self._running.values()]

    def start(self) -> None:
        with self._lock:
            self._start_locked()

    def close(self) -> list[Job]:
        with self._lock:
            dropped = self._close_locked()
            keys = list(self._running)
        for key in keys:
            self._tell_cancel(key)
        return dropped

    def shutdown(self, timeout: float = 5.0) -> list[Job]:
        dropped = self.close()
        for thread in self._threads:
            thread.join(min(timeout, 2.0))
        return dropped

    def stats(self) -> dict:
        with self._lock:
            return {
                "workers": self.capacity,
                "size": self.capacity,
                "alive": self.capacity if self.available else 0,
                "ready": self.capacity if self.available else 0,
                "warm": self.capacity if self.available else 0,
                "busy": len(self._running),
                "queued": len(self._queue),
                "max_queue": self.max_queue,
                "completed": self.completed,
                "restarts": 0,
                "rejected": self.rejected,
                "lost": self.lost,
            }

    # -- internals ------------------------------------------------------------------
    def _start_locked(self) -> None:
        if self._threads or self._closing:
            return
        try:
            self._count_workers()
        except Exception as err:  # noqa: BLE001 - Redis out of reach: the watcher counts
            # a web process started (or restarted) while Redis hangs still listens and
            # watches: long searches are refused until the watcher reaches Redis
            log.warning("Redis is out of reach at start-up (%s): long searches refused", err)
            self.available = False
        for target, name in ((self._listen, "replies"), (self._watch, "watch")):
            thread = threading.Thread(target=target, name=f"cluster-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _key_of(self, job: Job) -> str | None:
        for key, (running, *_) in self._running.items():
            if running is job:
                return key
        return None

    def _hand_out_locked(self) -> None:
        """Take the fair queue's next jobs for RQ's idle workers; :meth:`_send` gives
        them to RQ once the lock is released."""
        while len(self._running) < self.capacity:
            running = [job for job, *_ in self._running.values()]
            job = self._queue.pop(running)
            if job is None:
                return
            key = f"{self.key}-{job.seq}"
            self._running[key] = (job, "", [0], time.monotonic())
            self._unsent.append(key)

    def _send(self) -> None:
        """Enqueue the jobs taken for RQ, with the lock released: a hung Redis holds
        the caller for a command's timeout, never everyone who reads the lane's figures
        (a page connecting, ``/readyz``) or submits meanwhile. A job is in ``_running``
        before RQ has it, so a reply faster than the enqueue finds it."""
        while True:
            with self._lock:
                if not self._unsent:
                    return
                key = self._unsent.pop(0)
                entry = self._running.get(key)
            if entry is None:
                continue  # lost or stopped meanwhile
            job = entry[0]
            try:
                rq_job = self.queue.enqueue_call(
                    long_search,
                    args=(self.key, key, job.kind, to_wire(job.request), asdict(job.limits)),
                    timeout=int(job.limits.seconds * 1.5 + 10),
                    result_ttl=60,
                    failure_ttl=600,
                )
            except Exception as err:  # noqa: BLE001 - Redis out of reach: the watcher answers
                log.warning("could not hand a job to RQ: %s", err)
                with self._lock:  # back in line; the watcher refuses them if Redis stays down
                    for unsent in [key, *self._unsent]:
                        taken = self._running.pop(unsent, None)
                        if taken is not None:
                            self._queue.push(taken[0])
                    self._unsent.clear()
                    self.available = False
                return
            with self._lock:
                if key in self._running:
                    self._running[key] = (job, rq_job.id, *self._running[key][2:])

    def _listen(self) -> None:
        replies = REPLY_KEY.format(lane=self.key)

        def one_round() -> None:
            item = self.redis.blpop([replies], timeout=1)
            if item is not None:
                self._reply(json.loads(item[1]))

        Backoff("the cluster's reply list", log, 0.0).loop(one_round, lambda: self._closing)

    def _reply(self, message: dict) -> None:
        with self._lock:
            entry = self._running.get(message["job"])
            if entry is not None and message.get("done"):
                del self._running[message["job"]]
                self.completed += 1
                self._hand_out_locked()
        self._send()
        if entry is None:
            return
        job = entry[0]
        if message.get("done"):
            job.on_done()
        elif not job.cancelled:
            event, payload = message["event"], message["payload"]
            if job.kind in TASKS:  # a page task's answer, as JSON
                event, payload = from_wire(job.kind, event, payload)
            job.on_event(event, payload)

    def _count_workers(self) -> None:
        """Count the live workers; take the dead ones (no alive key) out of RQ's registry.

        Only plain commands on this lane's client: RQ's ``Worker`` objects would raise
        the client's socket timeout to RQ's own (minutes) for everyone using it."""
        from rq.worker_registration import REDIS_WORKER_KEYS, WORKERS_BY_QUEUE_KEY, get_keys

        now = time.monotonic()
        live = 0
        for key in get_keys(queue=self.queue, connection=self.redis):
            name = key.removeprefix(WORKER_PREFIX)
            if self.redis.exists(ALIVE_KEY.format(worker=name)):
                self._missing.pop(name, None)
                live += 1
            elif now - self._missing.setdefault(name, now) >= DEAD_AFTER:
                log.warning("RQ worker %s is gone; taking it out of the registry", name)
                with self.redis.pipeline() as pipe:
                    pipe.srem(WORKERS_BY_QUEUE_KEY % QUEUE, key)
                    pipe.srem(REDIS_WORKER_KEYS, key)
                    pipe.expire(key, 60)
                    pipe.execute()
                self._missing.pop(name, None)
            else:
                live += 1  # not seen alive yet (starting) or just missed: counted a moment
        self.capacity = max(1, live)

    def _watch(self) -> None:
        pacing = Backoff("the cluster's watcher", log, WATCH_EVERY, most=2.0)
        while not self._closing:
            self._answer_overdue()  # first, and without Redis: it may be what hangs
            wait = pacing.run(self._watch_round)
            if pacing.failing:
                self._unavailable()
            elif not self.available:
                log.warning("Redis answers again: long searches are back")
                self.available = True
            time.sleep(wait)

    def _watch_round(self) -> None:
        self.redis.ping()
        self._count_workers()
        self._check_running()
        with self._lock:
            self._hand_out_locked()
        self._send()

    def _unavailable(self) -> None:
        """Redis out of reach: refuse new long searches, answer the waiting ones now."""
        with self._lock:
            if self.available:
                log.warning("Redis is out of reach: long searches are refused until it answers")
            self.available = False
            waiting = [job for job in self._queue.clear() if not job.cancelled]
        for job in waiting:
            if job.on_lost is not None:
                job.on_lost(UNAVAILABLE_MESSAGE, False)
            job.on_done()

    def _answer_overdue(self) -> None:
        """Jobs silent past their budget and a grace: answered without asking Redis."""
        now = time.monotonic()
        with self._lock:
            late = [
                key
                for key, (job, _, _, handed) in self._running.items()
                if now - handed > job.limits.seconds + OVERDUE_SECONDS
            ]
        for key in late:
            self._lost(key, OVERDUE_MESSAGE, retry=False)

    def _check_running(self) -> None:
        from rq.job import Job as RQJob
        from rq.job import JobStatus

        with self._lock:
            watched = list(self._running.items())
        for key, (_job, rq_id, misses, _handed) in watched:
            if not rq_id:
                continue  # not enqueued yet
            try:
                status = RQJob.fetch(rq_id, connection=self.redis).get_status()
            except Exception:  # expired or deleted: its done line is on its way or lost
                status = None
            if status == JobStatus.FAILED:
                self._lost(key, FAILED_MESSAGE, retry=False)
            elif status == JobStatus.STARTED and not self.redis.exists(BEAT_KEY.format(job=key)):
                misses[0] += 1
                if misses[0] >= 2:  # a second after its last heartbeat
                    self._lost(key, LOST_MESSAGE, retry=True)

    def _lost(self, key: str, message: str, retry: bool) -> None:
        with self._lock:
            entry = self._running.pop(key, None)
            if entry is None:
                return
            self.lost += 1
            self._hand_out_locked()
        self._send()
        job = entry[0]
        log.warning("%s an RQ worker lost a %s job", job.log_id, job.kind)
        if not job.cancelled and job.on_lost is not None:
            job.on_lost(message, retry)
        job.on_done()
