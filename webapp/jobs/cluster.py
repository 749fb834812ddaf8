"""The job runner of a web process in a cluster: jobs go to RQ workers on Redis.

With ``MESSAGE_QUEUE`` set, :class:`ClusterRunner` replaces the pool runner
(:class:`~webapp.jobs.local.JobRunner`). It keeps the same rules (one job per client,
newest wins, bounded queue answering "server busy") with the state in Redis
(:mod:`webapp.jobs.cluster_job`), and a watcher thread makes sure no job is lost
silently: a job whose worker died (its heartbeat stopped) is enqueued once
more, and answered with ``error`` if that fails too; a job RQ marks failed
(over its time limit, a crash) is answered with ``error``.

``rq`` is imported where it is used: it is an optional dependency (the
``cluster`` extra), needed only when the app runs as part of a cluster.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..live.replies import error_payload
from ..live.validation import JobRequest
from .cluster_job import BEAT_KEY, CANCEL_KEY, GEN_KEY, KEY_SECONDS, QUEUE, redis_client, run_job
from .core import BUSY_MESSAGE, CLOSING_MESSAGE
from .process import Limits
from .tasks import (
    TASK_BUSY_MESSAGE,
    TASK_SLOW_MESSAGE,
    TaskRefused,
    TaskRequest,
    run_task,
    task_result,
)

log = logging.getLogger(__name__)

LOST_MESSAGE = "the solver worker stopped; try again"
WATCH_EVERY = 0.5
TASK_POLL = 0.05  # how often a page waiting for its task asks Redis
MAX_ATTEMPTS = 2


@dataclass
class Tracked:
    """A job this web process enqueued and still watches."""

    sid: str
    generation: int
    kind: str
    request: JobRequest
    limits: Limits
    attempt: int = 1
    missed_beats: int = 0


class ClusterRunner:
    """The job runner of a web process in a cluster (a :class:`~webapp.jobs.core.Runner`)."""

    def __init__(
        self, emit: Callable[..., Any], url: str, limits: dict[str, Limits], max_queue: int = 256
    ):
        from rq import Queue

        self._emit = emit
        # one queue here: no fast analysis pool to escalate from
        self.limits = {kind: replace(value, escalate_after=None) for kind, value in limits.items()}
        self.max_queue = max_queue
        self.redis = redis_client(url)
        self.queue = Queue(QUEUE, connection=self.redis)
        self._jobs: dict[str, Tracked] = {}
        self._current: dict[str, str] = {}  # sid -> its newest job id
        self._lock = threading.Lock()
        self.closing = False
        self.retried = 0
        self.lost = 0
        self._watcher = threading.Thread(target=self._watch, name="cluster-watch", daemon=True)
        self._watcher.start()

    # -- the runner interface ------------------------------------------------------
    def submit(
        self, sid: str, kind: str, request: JobRequest, log_id: str = "", group: str | None = None
    ) -> None:
        generation = self._supersede(sid)
        if self.closing:
            self._error(sid, kind, request, CLOSING_MESSAGE)
            return
        if self.queue.count >= self.max_queue:
            log.warning("%s %s rejected: cluster queue full", log_id, kind)
            self._error(sid, kind, request, BUSY_MESSAGE)
            return
        tracked = Tracked(sid, generation, kind, request, self.limits[kind])
        self._enqueue(tracked)

    def run_task(self, kind: str, request: TaskRequest, seconds: float) -> dict:
        """A page's search on an RQ worker; the page waits (polling Redis) within budget."""
        if self.closing or self.queue.count >= self.max_queue:
            raise TaskRefused(TASK_BUSY_MESSAGE)
        job = self.queue.enqueue_call(
            run_task,
            args=(kind, request, seconds),
            timeout=int(seconds * 1.5 + 10),
            result_ttl=60,
            failure_ttl=60,
        )
        deadline = time.monotonic() + seconds + 2
        while time.monotonic() < deadline:
            status = job.get_status(refresh=True)
            if status == "finished":
                return task_result(job.return_value())
            if status in ("failed", "stopped", "canceled"):
                raise TaskRefused(TASK_SLOW_MESSAGE)
            time.sleep(TASK_POLL)
        job.cancel()
        raise TaskRefused(TASK_SLOW_MESSAGE)

    def cancel(self, sid: str, job_id: Any = None) -> bool:
        with self._lock:
            current = self._current.get(sid)
            tracked = self._jobs.get(current) if current else None
        if tracked is None or (job_id is not None and tracked.request.id != job_id):
            return False
        self._supersede(sid)
        return True

    def drop(self, sid: str) -> None:
        self._supersede(sid)
        self.redis.delete(GEN_KEY.format(sid=sid))

    def busy_clients(self) -> int:
        with self._lock:
            return len({t.sid for t in self._jobs.values()})

    def health(self) -> dict:
        from rq import Worker

        return {
            "busy_clients": self.busy_clients(),
            "queued": self.queue.count,
            "workers": len(Worker.all(connection=self.redis)),
            "retried": self.retried,
            "lost": self.lost,
        }

    def start(self) -> None:
        """Workers are separate processes here; nothing to start."""

    def shutdown(self, timeout: float = 5.0) -> int:
        """Refuse new jobs; tell this process's clients with a job that it stopped."""
        self.closing = True
        with self._lock:
            tracked = list(self._jobs.values())
            self._jobs.clear()
        told = 0
        for job in tracked:
            if self._is_current(job):
                self._supersede(job.sid)
                self._error(job.sid, job.kind, job.request, CLOSING_MESSAGE)
                told += 1
        return told

    # -- internals -------------------------------------------------------------------
    def _supersede(self, sid: str) -> int:
        """Cancel the client's job and return the client's next request number."""
        generation = int(self.redis.incr(GEN_KEY.format(sid=sid)))
        self.redis.expire(GEN_KEY.format(sid=sid), KEY_SECONDS)
        with self._lock:
            old = self._current.pop(sid, None)
        if old is not None:
            self.redis.set(CANCEL_KEY.format(job=old), 1, ex=KEY_SECONDS)
        return generation

    def _enqueue(self, tracked: Tracked) -> None:
        limits = tracked.limits
        job = self.queue.enqueue_call(
            run_job,
            args=(
                tracked.sid,
                tracked.generation,
                tracked.kind,
                asdict(tracked.request),
                asdict(limits),
            ),
            timeout=int(limits.seconds * 1.5 + 10),
            result_ttl=60,
            failure_ttl=600,
        )
        with self._lock:
            self._jobs[job.id] = tracked
            self._current[tracked.sid] = job.id

    def _is_current(self, tracked: Tracked) -> bool:
        newest = self.redis.get(GEN_KEY.format(sid=tracked.sid))
        return newest is not None and int(newest) == tracked.generation

    def _error(self, sid: str, kind: str, request: JobRequest, message: str) -> None:
        self._emit("error", error_payload(message, kind, request.id, request.game), to=sid)

    def _watch(self) -> None:
        while not self.closing:
            time.sleep(WATCH_EVERY)
            try:
                self._check_jobs()
            except Exception:  # Redis hiccup: try again next round
                log.exception("cluster watcher failed")

    def _check_jobs(self) -> None:
        from rq.job import Job, JobStatus

        with self._lock:
            watched = list(self._jobs.items())
        for job_id, tracked in watched:
            try:
                status = Job.fetch(job_id, connection=self.redis).get_status()
            except Exception:  # expired or deleted: nothing to watch
                status = None
            if status in (None, JobStatus.FINISHED, JobStatus.CANCELED, JobStatus.STOPPED):
                self._forget(job_id)
            elif status == JobStatus.FAILED:
                self._forget(job_id)
                if self._is_current(tracked):
                    self._error(
                        tracked.sid,
                        tracked.kind,
                        tracked.request,
                        "the search failed on the worker (over its time limit?)",
                    )
            elif status == JobStatus.STARTED and not self.redis.exists(BEAT_KEY.format(job=job_id)):
                tracked.missed_beats += 1
                if tracked.missed_beats >= 2:  # a second after its last heartbeat
                    self._forget(job_id)
                    self._worker_lost(tracked)

    def _forget(self, job_id: str) -> None:
        with self._lock:
            tracked = self._jobs.pop(job_id, None)
            if tracked is not None and self._current.get(tracked.sid) == job_id:
                del self._current[tracked.sid]

    def _worker_lost(self, tracked: Tracked) -> None:
        """Retry once on another worker; after that, answer ``error``."""
        if not self._is_current(tracked):
            return
        if tracked.attempt < MAX_ATTEMPTS:
            self.retried += 1
            log.warning("worker lost a %s job; retrying it", tracked.kind)
            tracked.attempt += 1
            tracked.missed_beats = 0
            self._enqueue(tracked)
        else:
            self.lost += 1
            self._error(tracked.sid, tracked.kind, tracked.request, LOST_MESSAGE)
