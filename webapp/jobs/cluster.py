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
(over its time limit, a crash) is reported lost for good.

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

from .cluster_job import BEAT_KEY, CANCEL_KEY, KEY_SECONDS, QUEUE, REPLY_KEY, long_search
from .cluster_job import redis_client as redis_client
from .fairness import FairLane
from .model import Job

log = logging.getLogger(__name__)

LOST_MESSAGE = "the solver worker stopped; try again"
FAILED_MESSAGE = "the search failed on the worker (over its time limit?)"
WATCH_EVERY = 0.5


class ClusterLane(FairLane):
    """A lane whose workers are RQ's, on the Redis at ``url``."""

    def __init__(self, name: str, url: str, max_queue: int, max_per_address: int | None = None):
        from rq import Queue

        super().__init__(name, max_queue, max_per_address)
        self.key = uuid.uuid4().hex[:12]  # this web process's reply list
        self.redis = redis_client(url)
        self.queue = Queue(QUEUE, connection=self.redis)
        self._running: dict[str, tuple[Job, str, list[int]]] = {}  # key -> job, rq id, misses
        self._threads: list[threading.Thread] = []
        self.capacity = 1  # RQ workers, as last counted
        self.completed = self.lost = 0

    # -- the lane, as the job core uses it ----------------------------------------
    def cancel(self, job: Job) -> None:
        with self._lock:
            job.cancelled = True
            self._queue.remove(job)
            key = self._key_of(job)
        if key is not None:
            self.redis.set(CANCEL_KEY.format(job=key), 1, ex=KEY_SECONDS)

    def running_jobs(self) -> list[Job]:
        with self._lock:
            return [job for job, _, _ in self._running.values()]

    def start(self) -> None:
        with self._lock:
            self._start_locked()

    def close(self) -> list[Job]:
        with self._lock:
            dropped = self._close_locked()
            keys = list(self._running)
        for key in keys:
            self.redis.set(CANCEL_KEY.format(job=key), 1, ex=KEY_SECONDS)
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
                "alive": self.capacity,
                "ready": self.capacity,
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
        self._count_workers()
        for target, name in ((self._listen, "replies"), (self._watch, "watch")):
            thread = threading.Thread(target=target, name=f"cluster-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _key_of(self, job: Job) -> str | None:
        for key, (running, _, _) in self._running.items():
            if running is job:
                return key
        return None

    def _hand_out_locked(self) -> None:
        """Hand RQ the fair queue's next jobs while it has idle workers for them."""
        while len(self._running) < self.capacity:
            running = [job for job, _, _ in self._running.values()]
            job = self._queue.pop(running)
            if job is None:
                return
            key = f"{self.key}-{job.seq}"
            rq_job = self.queue.enqueue_call(
                long_search,
                args=(self.key, key, job.kind, asdict(job.request), asdict(job.limits)),
                timeout=int(job.limits.seconds * 1.5 + 10),
                result_ttl=60,
                failure_ttl=600,
            )
            self._running[key] = (job, rq_job.id, [0])

    def _listen(self) -> None:
        replies = REPLY_KEY.format(lane=self.key)
        while not self._closing:
            try:
                item = self.redis.blpop([replies], timeout=1)
            except Exception:  # Redis hiccup: try again in a moment
                log.exception("cluster reply list failed")
                time.sleep(0.5)
                continue
            if item is not None:
                self._reply(json.loads(item[1]))

    def _reply(self, message: dict) -> None:
        with self._lock:
            entry = self._running.get(message["job"])
            if entry is not None and message.get("done"):
                del self._running[message["job"]]
                self.completed += 1
                self._hand_out_locked()
        if entry is None:
            return
        job = entry[0]
        if message.get("done"):
            job.on_done()
        elif not job.cancelled:
            job.on_event(message["event"], message["payload"])

    def _count_workers(self) -> None:
        from rq import Worker

        try:
            self.capacity = max(1, Worker.count(connection=self.redis, queue=self.queue))
        except Exception:  # Redis hiccup: keep the last count
            log.exception("could not count the RQ workers")

    def _watch(self) -> None:
        while not self._closing:
            time.sleep(WATCH_EVERY)
            try:
                self._count_workers()
                self._check_running()
                with self._lock:
                    self._hand_out_locked()
            except Exception:  # Redis hiccup: try again next round
                log.exception("cluster watcher failed")

    def _check_running(self) -> None:
        from rq.job import Job as RQJob
        from rq.job import JobStatus

        with self._lock:
            watched = list(self._running.items())
        for key, (_job, rq_id, misses) in watched:
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
        job = entry[0]
        log.warning("%s an RQ worker lost a %s job", job.log_id, job.kind)
        if not job.cancelled and job.on_lost is not None:
            job.on_lost(message, retry)
        job.on_done()
