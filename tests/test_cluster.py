"""The cluster: a real redis-server, 2 web processes and 2 RQ workers on loopback.

Clients on either web process get answers computed by the workers and emitted
through the Redis message queue. Killing the worker that runs a job mid-search
must end in a retried answer or an ``error``, never in silence. Everything the
fixture starts is stopped afterwards (``make test`` installs redis-server).
"""
import json
import os
import signal
import urllib.request

import pytest

from solver import catalogue
from test_webapp_live import LiveClient
from test_webapp_socket import ANSWERS, ONE_MOVE_8, replay_solution
from webapp.cluster import Cluster
from webapp.rq_jobs import redis_client
from webapp.rq_runner import LOST_MESSAGE

#: solved by breadth-first search in about two seconds (no table): long enough to
#: kill its worker mid-search, short enough to finish when retried
TWO_SECONDS = "BAACxy/BAACzw/DEEF12/DGHF34/I....J"


@pytest.fixture(scope="module")
def cluster():
    started = Cluster(web=2, workers=2, env={"ARCADE_SOLVE_SECONDS": "20",
                                             "ARCADE_LOG_LEVEL": "WARNING"}, warm=False)
    clients = []
    try:
        started.wait_ready(60)
        yield started, clients
    finally:
        for client in clients:
            client.close()
        started.stop()
        assert all(p.poll() is not None for p in started.processes)


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
    from rq import Worker                       # optional: the cluster extra
    for worker in Worker.all(connection=redis_client(started.url)):
        if worker.get_current_job_id():
            return worker.pid
    return None


def test_a_worker_killed_mid_job_is_retried_or_answered(cluster):
    started, _ = cluster
    client = connect(cluster, 1)
    client.emit("solve", {"game": "klotski", "board": TWO_SECONDS, "id": "k"})
    client.wait("progress", timeout=30)
    pid = _worker_running_a_job(started)
    assert pid in [p.pid for p in started.workers]
    os.kill(pid, signal.SIGKILL)
    name, reply = client.wait(ANSWERS, timeout=40)
    assert reply["id"] == "k"
    if name == "solution":                  # retried on the other worker
        replay_solution("klotski", TWO_SECONDS, reply)
        assert reply["length"] == 11 and reply["optimal"]
    else:
        assert name == "error" and reply["message"] == LOST_MESSAGE
    with urllib.request.urlopen(f"{started.web_urls[1]}/readyz", timeout=5) as response:
        health = json.load(response)
    assert health["retried"] + health["lost"] >= 1
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "after"})
    assert client.wait("analysis", timeout=30)[1]["distance"] == 1
