"""A cluster as ``make cluster`` runs it, started from Python: for the load tool and the tests.

``scripts/cluster.sh``: supervisord (``deploy/supervisord.conf``) running HAProxy
on one public port in front of the web processes (the next ports), an RQ worker
pool and a redis-server, and PostgreSQL for the players (a throwaway cluster in
:attr:`Cluster.pg_dir`), all on loopback, restarting whichever exits; everything
runs in one session so :meth:`stop` ends it all. Players use :attr:`Cluster.url`, the proxy's one address;
:attr:`Cluster.web_urls` reach the web processes behind it directly (for
checks that need to know which one served).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from .loopback import free_port, free_ports
from .server import all_warm, readyz

ROOT = Path(__file__).resolve().parent.parent


class Cluster:
    """``make cluster``'s supervisord; :meth:`stop` is a Ctrl-C."""

    def __init__(self, log_path: Path, env: dict | None = None, web: int = 2, workers: int = 2):
        self.redis_port, self.port = free_port(), free_ports(web + 1)
        self.pg_port, self.pg_dir = free_port(), tempfile.mkdtemp(prefix="arcade-cluster-pg-")
        self.dir = tempfile.mkdtemp(prefix="arcade-cluster-")  # supervisord's, web data folders
        self.web = web
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.url = f"http://127.0.0.1:{self.port}"
        self.web_urls = [f"http://127.0.0.1:{self.port + 1 + i}" for i in range(web)]
        self.log_path = log_path
        bin_dir = str(Path(sys.executable).parent)  # python and rq of this environment
        full_env = {
            **os.environ,
            "PATH": bin_dir + os.pathsep + os.environ["PATH"],
            "REDIS_PORT": str(self.redis_port),
            "PROXY_PORT": str(self.port),
            "WEB_PORT": str(self.port + 1),
            "WEB_COUNT": str(web),
            "WORKERS": str(workers),
            "ARCADE_MESSAGE_QUEUE": self.redis_url,
            "ARCADE_TRUSTED_PROXIES": "1",
            "PG_PORT": str(self.pg_port),
            "PG_DIR": self.pg_dir,
            "CLUSTER_DIR": self.dir,
            "ARCADE_DATABASE_URL": f"postgresql+psycopg://postgres@127.0.0.1:{self.pg_port}/arcade",
            **(env or {}),
        }
        self.process = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "cluster.sh")],
            cwd=ROOT,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=open(log_path, "w"),  # noqa: SIM115 - supervisord writes it for the cluster's life
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def ctl(self, *args: str) -> str:
        """``supervisorctl ARGS`` on this cluster's supervisord (its output)."""
        command = [str(Path(sys.executable).parent / "supervisorctl")]
        command += ["-s", f"unix://{self.dir}/supervisor.sock", *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
        return done.stdout

    def pid(self, program: str) -> int:
        """The process id of ``program`` (``redis``, ``postgres``, ``web:web0``,
        ``workers``, ``proxy``) as supervisord runs it now (0: not running)."""
        answer = self.ctl("pid", program).strip()
        return int(answer) if answer.isdigit() else 0

    def log(self) -> str:
        return self.log_path.read_text()[-4000:]

    def workers(self) -> list:
        from rq import Worker

        from webapp.transport.redis_client import redis_client

        return Worker.all(connection=redis_client(self.redis_url))

    def wait_ready(self, timeout: float = 60.0, workers: int = 2) -> None:
        """Until the proxy answers, every web process's quick lane is warm, HAProxy sends
        to each of them and the workers have registered with RQ (their tables warm)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/healthz", timeout=1).close()
                for url in self.web_urls:  # each quick lane warm, every table built
                    assert all_warm(readyz(url, timeout=1), lanes=["quick"])
                if all(map(self._proxy_sends_to, range(1, self.web + 1))) and (
                    len(self.workers()) >= workers
                ):
                    return
            except Exception:  # noqa: BLE001 - not up yet
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the cluster did not come up:\n" + self.log())
            time.sleep(0.2)

    def _proxy_sends_to(self, number: int) -> bool:
        """Whether the proxy has web process ``number`` up: a request whose cookie names
        it goes there, and only a request sent elsewhere gets a new cookie."""
        request = urllib.request.Request(
            f"{self.url}/healthz", headers={"Cookie": f"ARCADE_WEB=w{number}"}
        )
        with urllib.request.urlopen(request, timeout=1) as response:
            return "ARCADE_WEB=" not in (response.headers.get("Set-Cookie") or "")

    def stop(self) -> None:
        """Ctrl-C for supervisord (it stops everything it started); killed after 30 s."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise AssertionError("supervisord did not stop:\n" + self.log()) from None
        finally:
            shutil.rmtree(self.pg_dir, ignore_errors=True)  # the players' throwaway cluster
            shutil.rmtree(self.dir, ignore_errors=True)
