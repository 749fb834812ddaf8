"""The cluster's RQ worker: ``rq worker-pool -w webapp.jobs.cluster_worker.ArcadeWorker``.

An RQ ``SimpleWorker`` runs each job in the worker's own process instead of a
fork per job, so the tables it warmed before its first job stay warm from job
to job. Before taking jobs it caps its memory (``ARCADE_JOB_MEMORY_MB``), warms
every game's tables (unless ``ARCADE_PREBUILD_TABLES`` is off) and waits for
Redis to answer: started together by supervisord (deploy/supervisord.conf), Redis may come up a
moment later. While it lives it refreshes its alive key every second (a thread of
its own), so the web processes count only live workers, and registers again with
RQ after a Redis restart. Asked to stop (supervisord's SIGTERM), it ends its
running search at once and tells its player the server is stopping, instead of
finishing a minute-long search or being killed mid-way. Only RQ workers import
this module (it needs the cluster extra).
"""

from __future__ import annotations

import contextlib
import threading
import time

import redis
from rq import SimpleWorker

from ..config import from_environment
from .cluster_job import ALIVE_KEY, ALIVE_SECONDS, STOPPING, stop_signals_to_the_main_thread
from .process import limit_memory, warm_process

#: RQ's pubsub thread waits this long for a command at a time (its stop waits for one wait)
PUBSUB_WAIT = 0.2


class ArcadeWorker(SimpleWorker):
    """RQ's SimpleWorker, set up for the arcade's long searches before its first job."""

    def work(self, *args, **kwargs):
        config = from_environment()
        if not config["MESSAGE_QUEUE"]:
            raise RuntimeError("set ARCADE_MESSAGE_QUEUE to the Redis URL: jobs reply through it")
        limit_memory(config["JOB_MEMORY_MB"])
        with stop_signals_to_the_main_thread():  # and to any thread warming starts
            if config["PREBUILD_TABLES"]:
                warm_process()
            self._wait_for_redis()
            alive = threading.Thread(target=self._stay_alive, name="alive", daemon=True)
            alive.start()
        return super().work(*args, **kwargs)

    def subscribe(self):
        """RQ's pubsub thread (its commands: stop a job, shut down), started like this
        worker's own: blind to stop signals, and waking every :data:`PUBSUB_WAIT` seconds.
        RQ's waits 60 s at a time, and redis-py 8.2's ``PubSubWorkerThread.stop()``
        waits for the thread: once unsubscribed it slept out its 60 s, so a worker
        asked to stop hung in RQ's teardown until supervisord killed it (8 stops in 16)."""
        self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        with stop_signals_to_the_main_thread():
            thread = self.pubsub.run_in_thread(
                sleep_time=PUBSUB_WAIT,
                daemon=True,
                exception_handler=self._pubsub_exception_handler,
            )
        self.pubsub_thread = thread  # type: ignore[assignment]  # RQ declares it None only

    def request_stop(self, signum, frame):
        """RQ's warm shutdown waits for the running job; a search may run a minute, so
        it is told to stop (:data:`~webapp.jobs.cluster_job.STOPPING`) and its player
        hears that the server is stopping."""
        STOPPING.set()
        super().request_stop(signum, frame)

    def _stay_alive(self) -> None:
        """Refresh the alive key every second; after a Redis restart (which forgets RQ's
        registry) register again, so the web processes count this worker again."""
        key = ALIVE_KEY.format(worker=self.name)
        while True:
            with contextlib.suppress(Exception):  # Redis hiccup: the next round tries again
                self.connection.set(key, 1, ex=ALIVE_SECONDS)
                if self.birth_date is not None and not self.connection.exists(self.key):
                    self.register_birth()
            time.sleep(1.0)

    def _wait_for_redis(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.connection.ping()
                return
            except redis.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
