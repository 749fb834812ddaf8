"""The job an RQ worker runs in a cluster, and the Redis keys it shares with web processes.

A web process (:class:`webapp.jobs.cluster.ClusterRunner`) enqueues :func:`run_job`
on the ``arcade`` queue. The workers are RQ's own, started from the ``Procfile``
with the worker class :class:`webapp.jobs.cluster_worker.ArcadeWorker`. A job runs the same
code as a pool worker (:func:`webapp.jobs.process.run_job`) and emits
``progress``/``analysis``/``solution`` straight to the client through
Flask-SocketIO's Redis message queue, whichever web process holds that client.

Shared keys (all expire on their own):

* ``arcade:gen:<sid>``: the client's newest request number. A job speaks only
  while it is still the newest, so a superseded or cancelled job never answers;
* ``arcade:cancel:<job id>``: set to stop a job; the search polls it (at most
  every 50 ms) through :class:`RedisCancel`;
* ``arcade:beat:<job id>``: refreshed every half second while the job runs, so
  a web process can tell a running job from one whose worker died.
"""

from __future__ import annotations

import os
import threading
import time

from flask_socketio import SocketIO

from ..live.replies import error_payload
from ..live.validation import JobRequest
from .process import Limits
from .process import run_job as run_search

QUEUE = "arcade"
GEN_KEY = "arcade:gen:{sid}"
CANCEL_KEY = "arcade:cancel:{job}"
BEAT_KEY = "arcade:beat:{job}"
KEY_SECONDS = 3600
BEAT_EVERY = 0.5
BEAT_SECONDS = 2
CHECK_EVERY = 0.05

_clients: dict = {}


def redis_url() -> str:
    return os.environ["ARCADE_MESSAGE_QUEUE"]


def redis_client(url: str | None = None):
    """One Redis connection per URL and process."""
    import redis

    url = url or redis_url()
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url)
    return _clients[url]


def emitter(url: str | None = None):
    """A write-only Socket.IO server that reaches clients through the message queue."""
    url = url or redis_url()
    key = ("emitter", url)
    if key not in _clients:
        _clients[key] = SocketIO(message_queue=url)
    return _clients[key]


class RedisCancel:
    """``is_set()`` is True once the job is cancelled or superseded (polled at most
    every CHECK_EVERY seconds, so the search loop pays almost nothing for it)."""

    def __init__(self, redis, job_id: str, sid: str, generation: int):
        self._redis, self._job, self._sid, self._generation = redis, job_id, sid, generation
        self._checked = 0.0
        self._stopped = False

    def is_set(self) -> bool:
        if self._stopped:
            return True
        now = time.monotonic()
        if now - self._checked >= CHECK_EVERY:
            self._checked = now
            self._stopped = not self.current()
        return self._stopped

    def current(self) -> bool:
        """Still the client's newest request, and not cancelled."""
        newest, cancelled = self._redis.mget(
            GEN_KEY.format(sid=self._sid), CANCEL_KEY.format(job=self._job)
        )
        return newest is not None and int(newest) == self._generation and cancelled is None


def _heartbeat(redis, job_id: str, stop: threading.Event) -> None:
    key = BEAT_KEY.format(job=job_id)
    while not stop.is_set():
        redis.set(key, 1, ex=BEAT_SECONDS)
        stop.wait(BEAT_EVERY)
    redis.delete(key)


def run_job(sid: str, generation: int, kind: str, request: dict, limits: dict) -> str:
    """RQ's entry point: run one analyse/solve and emit its answers to ``sid``."""
    from rq import get_current_job

    job = get_current_job()
    job_id = job.id if job is not None else f"local-{time.monotonic()}"
    redis = redis_client()
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(redis, job_id, stop), daemon=True)
    beat.start()
    cancel = RedisCancel(redis, job_id, sid, generation)
    sio = emitter()

    def send(event: str, payload: dict) -> None:
        if cancel.current():
            sio.emit(event, payload, to=sid)

    try:
        run_search(kind, JobRequest(**request), Limits(**limits), cancel, send)
    except MemoryError:
        send(
            "error",
            error_payload(
                "this position needs more memory than the server allows per search",
                kind,
                request.get("id"),
                request.get("game"),
            ),
        )
    finally:
        stop.set()
        beat.join(2)
    return "cancelled" if cancel.is_set() else "done"
