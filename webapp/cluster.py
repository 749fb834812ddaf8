"""Scale-out on Redis: several web processes share clients, RQ workers run the searches.

``python -m webapp.cluster`` (``make cluster``) starts a loopback ``redis-server``,
2 web processes and 2 workers, and stops them all on Ctrl-C/SIGTERM.
``python -m webapp.cluster worker`` is one worker (used by the former).

In a web process started with ``MESSAGE_QUEUE`` set, :class:`ClusterRunner`
replaces the pool runner: it keeps the same rules (one job per client, newest
wins, bounded queue answering "server busy") with the state in Redis
(:mod:`webapp.rq_jobs`), and a watcher thread makes sure no job is lost
silently: a job whose worker died (its heartbeat stopped) is enqueued once
more, and answered with ``error`` if that fails too; a job RQ marks failed
(over its time limit, a crash) is answered with ``error``.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, Dict, List, Optional

from .answers import error_payload
from .loadtest import free_port
from .runner import BUSY_MESSAGE, CLOSING_MESSAGE
from .rq_jobs import BEAT_KEY, CANCEL_KEY, GEN_KEY, KEY_SECONDS, QUEUE, redis_client, run_job
from .validation import JobRequest
from .worker import Limits, limit_memory, warm_worker

log = logging.getLogger(__name__)

LOST_MESSAGE = "the solver worker stopped; try again"
WATCH_EVERY = 0.5
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
    """The job runner of a web process in a cluster (a :class:`~webapp.runner.Runner`)."""

    def __init__(self, emit: Callable[..., Any], url: str, limits: Dict[str, Limits],
                 max_queue: int = 256):
        from rq import Queue
        self._emit = emit
        self.url = url
        # one queue here: no fast analysis pool to escalate from
        self.limits = {kind: replace(value, escalate_after=None) for kind, value in limits.items()}
        self.max_queue = max_queue
        self.redis = redis_client(url)
        self.queue = Queue(QUEUE, connection=self.redis)
        self._jobs: Dict[str, Tracked] = {}
        self._current: Dict[str, str] = {}         # sid -> its newest job id
        self._lock = threading.Lock()
        self.closing = False
        self.retried = 0
        self.lost = 0
        self._watcher = threading.Thread(target=self._watch, name="cluster-watch", daemon=True)
        self._watcher.start()

    # -- the runner interface ------------------------------------------------------
    def submit(self, sid: str, kind: str, request: JobRequest, log_id: str = "") -> None:
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
        return {"busy_clients": self.busy_clients(), "queued": self.queue.count,
                "workers": len(Worker.all(connection=self.redis)),
                "retried": self.retried, "lost": self.lost}

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
            run_job, args=(tracked.sid, tracked.generation, tracked.kind,
                           asdict(tracked.request), asdict(limits)),
            timeout=int(limits.seconds * 1.5 + 10), result_ttl=60, failure_ttl=600)
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
            except Exception:                    # Redis hiccup: try again next round
                log.exception("cluster watcher failed")

    def _check_jobs(self) -> None:
        from rq.job import Job, JobStatus
        with self._lock:
            watched = list(self._jobs.items())
        for job_id, tracked in watched:
            try:
                status = Job.fetch(job_id, connection=self.redis).get_status()
            except Exception:                    # expired or deleted: nothing to watch
                status = None
            if status in (None, JobStatus.FINISHED, JobStatus.CANCELED, JobStatus.STOPPED):
                self._forget(job_id)
            elif status == JobStatus.FAILED:
                self._forget(job_id)
                if self._is_current(tracked):
                    self._error(tracked.sid, tracked.kind, tracked.request,
                                "the search failed on the worker (over its time limit?)")
            elif status == JobStatus.STARTED and not self.redis.exists(BEAT_KEY.format(job=job_id)):
                tracked.missed_beats += 1
                if tracked.missed_beats >= 2:      # a second after its last heartbeat
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


# -- processes ---------------------------------------------------------------------

def worker_main(url: str, memory_mb: Optional[int] = 3072, warm: bool = True) -> None:
    """One RQ worker: cap memory, warm tables, then run jobs in this process."""
    from rq import SimpleWorker
    os.environ["ARCADE_MESSAGE_QUEUE"] = url
    limit_memory(memory_mb)
    if warm:
        warm_worker()
    worker = SimpleWorker([QUEUE], connection=redis_client(url))
    worker.work(logging_level="WARNING")


class Cluster:
    """Redis, web processes and workers started together; :meth:`stop` ends them all."""

    def __init__(self, web: int = 2, workers: int = 2, env: Optional[dict] = None,
                 warm: bool = True):
        self.processes: List[subprocess.Popen] = []
        self.redis_port = free_port()
        self.url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.redis = self._spawn(["redis-server", "--bind", "127.0.0.1", "--port",
                                  str(self.redis_port), "--save", "", "--appendonly", "no"],
                                 quiet=True)
        self._wait_for_redis()
        base = {**os.environ, "ARCADE_MESSAGE_QUEUE": self.url, **(env or {})}
        self.workers = [self._spawn([sys.executable, "-m", "webapp.cluster", "worker",
                                     "--redis", self.url] + ([] if warm else ["--no-warm"]),
                                    env=base) for _ in range(workers)]
        self.web_urls = []
        for _ in range(web):
            port = free_port()
            self._spawn([sys.executable, "-m", "webapp", "--port", str(port)], env=base)
            self.web_urls.append(f"http://127.0.0.1:{port}")

    def _spawn(self, argv, env=None, quiet=False) -> subprocess.Popen:
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL if quiet else None,
                                   start_new_session=True)
        self.processes.append(process)
        return process

    def _wait_for_redis(self, timeout: float = 10.0) -> None:
        import redis
        deadline = time.monotonic() + timeout
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.exceptions.ConnectionError:
                if self.redis.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start")
                time.sleep(0.05)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every web process answers and every worker has registered with RQ."""
        from rq import Worker
        deadline = time.monotonic() + timeout
        connection = redis_client(self.url)
        while True:
            try:
                for url in self.web_urls:
                    urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
                if len(Worker.all(connection=connection)) >= len(self.workers):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                raise RuntimeError("the cluster did not come up")
            time.sleep(0.2)

    def stop(self) -> None:
        """Web processes and workers first (they shut down gracefully), Redis last."""
        others = [p for p in self.processes if p is not self.redis]
        for group in (others, [self.redis]):
            for process in group:
                if process.poll() is None:
                    process.terminate()
            for process in group:
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webapp.cluster",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("role", nargs="?", default="all", choices=["all", "worker"])
    parser.add_argument("--redis", help="the Redis URL (worker)")
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-warm", action="store_true", help="worker: skip warming tables")
    args = parser.parse_args(argv)
    logging.basicConfig(level="INFO", format="%(asctime)s %(process)d %(name)s %(message)s")
    if args.role == "worker":
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        worker_main(args.redis or os.environ["ARCADE_MESSAGE_QUEUE"], warm=not args.no_warm)
        return 0
    cluster = Cluster(args.web, args.workers)
    try:
        cluster.wait_ready(180)
        print(f"cluster on Redis {cluster.url}: " + " ".join(cluster.web_urls), flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while all(p.poll() is None for p in cluster.processes):
            time.sleep(0.5)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
