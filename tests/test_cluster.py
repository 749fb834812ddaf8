"""The cluster as the Procfile declares it, run by honcho: a real redis-server, 2 web
processes and an RQ worker pool of 2 (``rq worker-pool``, ArcadeWorker) on loopback.

Clients on either web process get answers computed by the workers and emitted
through the Redis message queue. Killing the worker that runs a job mid-search
must end in a retried answer or an ``error``, never in silence (RQ's pool starts a
new worker). Everything honcho starts is stopped afterwards (``make test``
installs redis-server).
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from helpers.sockets import ANSWERS, ONE_MOVE_8, LiveClient, replay_solution

from loadtest.crowd import run_crowd
from loadtest.players import free_port
from solver import catalogue
from webapp.jobs.cluster import LOST_MESSAGE

ROOT = Path(__file__).resolve().parent.parent

#: solved by breadth-first search in about two seconds (no table): long enough to
#: kill its worker mid-search, short enough to finish when retried
TWO_SECONDS = "BAACxy/BAACzw/DEEF12/DGHF34/I....J"


def _free_pair() -> int:
    """A port P with P + 1 free too (honcho gives web.1 and web.2 consecutive ports)."""
    while True:
        port = free_port()
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                continue


class Honcho:
    """``honcho start`` on the project's Procfile; :meth:`stop` is a Ctrl-C."""

    def __init__(self, log_path: Path, env: dict):
        self.redis_port, base = free_port(), _free_pair()
        self.url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.web_urls = [f"http://127.0.0.1:{base}", f"http://127.0.0.1:{base + 1}"]
        self.log_path = log_path
        bin_dir = str(Path(sys.executable).parent)  # python and rq of this environment
        env = {
            **os.environ,
            "PATH": bin_dir + os.pathsep + os.environ["PATH"],
            "REDIS_PORT": str(self.redis_port),
            "ARCADE_MESSAGE_QUEUE": self.url,
            "WORKERS": "2",
            **env,
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "honcho",
                "start",
                "--no-colour",
                "--procfile",
                str(ROOT / "Procfile"),
                "--app-root",
                str(ROOT),
                "--port",
                str(base),
                "--concurrency",
                "web=2",
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=open(log_path, "w"),  # noqa: SIM115 - honcho writes it for the cluster's life
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text()[-4000:]

    def workers(self) -> list:
        from rq import Worker

        from webapp.jobs.cluster_job import redis_client

        return Worker.all(connection=redis_client(self.url))

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until both web processes' quick lanes are warm and both workers have registered
        with RQ (after warming their tables)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                for url in self.web_urls:
                    with urllib.request.urlopen(f"{url}/readyz", timeout=1) as response:
                        quick = json.load(response)["pools"]["analyse"]
                    assert quick["ready"] == quick["size"]
                if len(self.workers()) >= 2:
                    return
            except Exception:  # noqa: BLE001 - not up yet
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the cluster did not come up:\n" + self.log())
            time.sleep(0.2)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise AssertionError("honcho did not stop:\n" + self.log()) from None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Honcho(
        tmp_path_factory.mktemp("cluster") / "honcho.log",
        {
            "ARCADE_SOLVE_SECONDS": "20",
            "ARCADE_LOG_LEVEL": "WARNING",
        },
    )
    clients = []
    try:
        started.wait_ready(180)
        pids = [worker.pid for worker in started.workers()]
        yield started, clients
    finally:
        for client in clients:
            client.close()
        started.stop()
    # every process honcho started is gone: web ports closed, Redis down, workers ended
    for url in started.web_urls:
        with pytest.raises(OSError):
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", started.redis_port), timeout=1).close()
    time.sleep(0.5)
    assert [pid for pid in pids if os.path.exists(f"/proc/{pid}")] == []


def connect(cluster, index):
    started, clients = cluster
    client = LiveClient(started.web_urls[index])
    clients.append(client)
    return client


def test_both_web_processes_get_answers_from_the_workers(cluster):
    first, second = connect(cluster, 0), connect(cluster, 1)
    board = catalogue.get("npuzzle").default_board
    first.emit("solve", {"game": "npuzzle", "board": board, "id": "s"})
    second.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "a"})
    _, solution = first.wait("solution", timeout=30)
    assert solution["id"] == "s" and solution["optimal"] and solution["length"] == 17
    replay_solution("npuzzle", board, solution)
    _, analysis = second.wait("analysis", timeout=30)
    assert analysis["id"] == "a" and analysis["distance"] == 1
    second.emit("solve", {"game": "npuzzle", "board": "1 2 3"})
    name, error = second.wait(ANSWERS)
    assert name == "error" and error["event"] == "solve"


def test_cancel_silences_a_job_on_a_worker(cluster):
    client = connect(cluster, 1)
    client.emit("solve", {"game": "klotski", "board": TWO_SECONDS, "id": "c"})
    client.wait("progress", timeout=30)
    client.emit("cancel", {"id": "c"})
    assert [(n, p) for n, p in client.drain(3.0) if n in ANSWERS] == []


def _worker_running_a_job(started):
    for worker in started.workers():
        if worker.get_current_job_id():
            return worker.pid
    return None


def test_a_worker_killed_mid_job_is_retried_or_answered(cluster):
    started, _ = cluster
    client = connect(cluster, 1)
    client.emit("solve", {"game": "klotski", "board": TWO_SECONDS, "id": "k"})
    client.wait("progress", timeout=30)
    pid = _worker_running_a_job(started)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    name, reply = client.wait(ANSWERS, timeout=40)
    assert reply["id"] == "k"
    if name == "solution":  # retried on the other worker
        replay_solution("klotski", TWO_SECONDS, reply)
        assert reply["length"] == 11 and reply["optimal"]
    else:
        assert name == "error" and reply["message"] == LOST_MESSAGE
    with urllib.request.urlopen(f"{started.web_urls[1]}/readyz", timeout=5) as response:
        health = json.load(response)
    assert health["pools"]["solve"]["lost"] >= 1
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "after"})
    assert client.wait("analysis", timeout=30)[1]["distance"] == 1


def _readyz(url):
    with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
        return json.load(response)


def test_quick_answers_never_touch_redis(cluster):
    """Table lookups and searches within the quick budget are the web process's own."""
    started, _ = cluster
    client = connect(cluster, 0)
    before = _readyz(started.web_urls[0])["pools"]
    queued = started.workers()[0].connection.llen("rq:queue:arcade")
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "q"})
    assert client.wait("analysis", timeout=30)[1]["distance"] == 1
    after = _readyz(started.web_urls[0])["pools"]
    assert after["analyse"]["completed"] > before["analyse"]["completed"]
    assert after["solve"]["completed"] == before["solve"]["completed"] and queued == 0
    assert set(after) == {"analyse", "solve", "page"}  # the keys one server reports


def test_a_trivial_solve_is_answered_within_a_second_behind_twelve_hard_ones(cluster):
    """The scenario of ``test_crowd.py``, on one web process of the cluster."""
    started, _ = cluster
    report = run_crowd(started.web_urls[0])
    assert report["event"] == "solution" and report["length"] == 3, report
    assert report["seconds"] < 1.0, report
