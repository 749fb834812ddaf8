"""What an RQ worker runs for the cluster's long lane, and the Redis keys it shares.

A web process (:class:`webapp.jobs.cluster.ClusterLane`) enqueues
:func:`long_search` on the ``arcade`` queue; RQ's own workers run it, started
from ``deploy/supervisord.conf`` with :class:`webapp.jobs.cluster_worker.ArcadeWorker`. The
job runs the same code as a solver process of this machine
(:func:`webapp.jobs.process.perform`) and pushes every event back to the web
process that asked, on that process's reply list; the web process's job core
decides what the player sees, exactly as for its own processes.

Shared keys (all expire on their own):

* ``arcade:replies:<lane>``: the web process's reply list, one JSON line per
  event, then ``{"job": key, "done": true}``;
* ``arcade:cancel:<job>``: set to stop a job; the search polls it (at most every
  50 ms) through :class:`RedisCancel`;
* ``arcade:beat:<job>``: refreshed every half second while the job runs, so the
  web process can tell a running job from one whose worker died;
* ``arcade:alive:<worker>``: refreshed every second by each RQ worker
  (:class:`~webapp.jobs.cluster_worker.ArcadeWorker`), so a killed worker stops
  counting (RQ's own registry keeps it for minutes).
"""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import time

from ..transport.redis_client import redis_client
from .contract import TASKS, task_from_wire, to_wire
from .model import CLOSING_MESSAGE, JobRequest, Limits
from .process import failed, perform

QUEUE = "arcade"
REPLY_KEY = "arcade:replies:{lane}"
CANCEL_KEY = "arcade:cancel:{job}"
BEAT_KEY = "arcade:beat:{job}"
ALIVE_KEY = "arcade:alive:{worker}"
ALIVE_SECONDS = 5  # a search that holds the GIL a moment must not look dead
KEY_SECONDS = 3600
BEAT_EVERY = 0.5
BEAT_SECONDS = 2
CHECK_EVERY = 0.05


class SignalFlag:
    """A flag a signal handler may raise. ``threading.Event.set`` takes a lock, and a
    second stop signal (supervisord's SIGTERM, then the pool's SIGINT) arriving while the
    first handler held it left the worker deadlocked until supervisord killed it."""

    def __init__(self) -> None:
        self._raised = False

    def set(self) -> None:
        self._raised = True  # one store: atomic, and takes no lock

    def is_set(self) -> bool:
        return self._raised


#: set when this worker is asked to stop (Ctrl-C of the cluster, a deploy): the running
#: search ends at its next cancel check and its player hears ``error``
#: (:data:`~webapp.jobs.model.CLOSING_MESSAGE`), rather than the worker finishing a
#: minute-long search, or being killed by supervisord mid-search without a word
STOPPING = SignalFlag()
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def stop_signals_to_the_main_thread():
    """Threads started inside block the stop signals, so the kernel delivers them to the
    main thread, the only one that runs Python's handlers: delivered to another thread, a
    signal left an idle worker's main thread asleep in RQ's minutes-long Redis wait."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class RedisCancel:
    """``is_set()`` is True once the web process cancelled the job (polled at most every
    CHECK_EVERY seconds, so the search loop pays almost nothing for it), or once this
    worker is stopping (:data:`STOPPING`; then :attr:`worker_stopping` is True too)."""

    def __init__(self, redis, job: str):
        self._redis, self._key = redis, CANCEL_KEY.format(job=job)
        self._checked = 0.0
        self._stopped = False
        self.worker_stopping = False

    def is_set(self) -> bool:
        if self._stopped:
            return True
        if STOPPING.is_set():
            self.worker_stopping = True
            return True
        now = time.monotonic()
        if now - self._checked >= CHECK_EVERY:
            self._checked = now
            self._stopped = bool(self._redis.exists(self._key))
        return self._stopped

    __call__ = is_set


def _heartbeat(redis, job: str, stop: threading.Event) -> None:
    key = BEAT_KEY.format(job=job)
    while not stop.is_set():
        with contextlib.suppress(Exception):  # Redis hiccup: the next beat tries again
            redis.set(key, 1, ex=BEAT_SECONDS)
        stop.wait(BEAT_EVERY)
    with contextlib.suppress(Exception):
        redis.delete(key)


def long_search(lane: str, job: str, kind: str, request: dict, limits: dict) -> str:
    """RQ's entry point: run one long-lane search, replying to the web process ``lane``."""
    redis = redis_client()
    replies = REPLY_KEY.format(lane=lane)
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(redis, job, stop), daemon=True)
    with stop_signals_to_the_main_thread():
        beat.start()
    cancel = RedisCancel(redis, job)

    def reply(message: dict) -> None:
        redis.rpush(replies, json.dumps(message))
        redis.expire(replies, KEY_SECONDS)

    def send(event: str, payload) -> None:
        reply({"job": job, "event": event, "payload": to_wire(payload)})

    try:
        asked = task_from_wire(kind, request) if kind in TASKS else JobRequest(**request)
        perform(kind, asked, Limits(**limits), cancel, send)
        if cancel.worker_stopping:  # the search saw the stop and answered nothing
            send(*failed(kind, asked, CLOSING_MESSAGE))
    finally:
        reply({"job": job, "done": True})
        stop.set()
        beat.join(2)
    return "cancelled" if cancel.is_set() else "done"
