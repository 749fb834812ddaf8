"""Scale-out on Redis: start a cluster of web processes and RQ workers on loopback.

``python -m webapp.cluster`` (``make cluster``) starts a loopback ``redis-server``,
2 web processes and 2 workers, and stops them all on Ctrl-C/SIGTERM.
``python -m webapp.cluster worker`` is one worker (used by the former).

Each web process runs with ``ARCADE_MESSAGE_QUEUE`` set, so its jobs go through
:class:`~webapp.rq_runner.ClusterRunner`; each worker runs
:func:`webapp.rq_jobs.run_job` for them.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.request
from typing import List, Optional

from .loadtest import free_port
from .rq_jobs import QUEUE, redis_client
from .worker import limit_memory, warm_worker


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
