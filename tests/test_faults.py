"""Faults injected into ``make cluster`` under load, one at a time (issue 31).

One cluster (supervisord: HAProxy, 2 web processes, an RQ pool of 2, Redis,
PostgreSQL) runs for the whole module, with a light load through the proxy for
its whole life: a few socket players asking ``analyse`` several times a second
(reconnecting when their web process goes) and a few players posting daily
results. Each fault is asserted: the cluster keeps serving or is back by itself
within 10 s, quick answers keep flowing while Redis is hung, every long solve
ends, and at the end every acknowledged result is in the database.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
import requests
from helpers.npuzzle import goal, slides
from helpers.sockets import ANSWERS, LONG, ONE_MOVE_8, LiveClient
from sqlalchemy import create_engine, text

from harness.cluster import Cluster
from harness.loopback import free_port
from solver.engine import solve_board
from webapp.jobs.model import UNAVAILABLE_MESSAGE

# timed (each fault's recovery): runs alone (make test), so the parallel half of the
# suite cannot slow what it measures
pytestmark = pytest.mark.serial

SOLVE_SECONDS = 12
BACK_WITHIN = 10.0
#: fault -> seconds until served again, as measured (printed when the module ends)
FIGURES: dict[str, float] = {}


class Load:
    """Players through the proxy for the cluster's whole life, keeping the figures."""

    def __init__(self, url: str, players: int = 4, submitters: int = 2):
        self.url = url
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.answers: list[tuple[float, float]] = []  # (sent, latency) of each analysis
        self.acked: set[int] = set()
        self.failed: list[tuple[float, int]] = []  # (when, status) of refused submissions
        daily = requests.get(f"{url}/api/daily/npuzzle", timeout=30).json()
        self.daily = daily
        self.states = solve_board("npuzzle", daily["board"])["states"]
        self.threads = [threading.Thread(target=self._play, daemon=True) for _ in range(players)]
        self.threads += [
            threading.Thread(target=self._submit, args=(n,), daemon=True) for n in range(submitters)
        ]
        for thread in self.threads:
            thread.start()

    def _play(self) -> None:
        client = None
        turn = 0
        while not self.stopping.is_set():
            try:
                if client is None:
                    client = LiveClient(self.url)
                turn += 1
                sent = time.monotonic()
                client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": turn})
                client.wait(
                    "analysis", timeout=3, where=lambda p, t=turn: p.get("id") == t and p["final"]
                )
                with self.lock:
                    self.answers.append((sent, time.monotonic() - sent))
            except Exception:  # noqa: BLE001 - its web process went: reconnect
                if client is not None:
                    client.close()
                client = None
                time.sleep(0.2)
                continue
            time.sleep(0.2)
        if client is not None:
            client.close()

    def _line(self, detour: int) -> list[str]:
        """The daily's solution with ``detour`` back-and-forth moves first: a distinct line."""
        first, second = self.states[0], self.states[1]
        return [first, second] * detour + self.states

    def _submit(self, number: int) -> None:
        session = requests.Session()
        turn = 0
        while not self.stopping.is_set():
            turn += 1
            body = {
                "game": "npuzzle",
                "board": self.daily["board"],
                "options": self.daily["options"],
                "states": self._line(turn % 40),
                "seconds": 10 + number,
                "assisted": False,
            }
            try:
                reply = session.post(f"{self.url}/api/results", json=body, timeout=20)
            except requests.RequestException:
                reply = None
            if reply is not None and reply.status_code in (200, 201):
                with self.lock:
                    self.acked.add(reply.json()["id"])
            else:
                with self.lock:
                    self.failed.append((time.monotonic(), getattr(reply, "status_code", 0)))
            time.sleep(0.3)

    def answered_since(self, moment: float) -> list[float]:
        with self.lock:
            return [latency for sent, latency in self.answers if sent >= moment]

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Cluster(
        tmp_path_factory.mktemp("faults") / "cluster.log",
        {
            "ARCADE_SOLVE_SECONDS": str(SOLVE_SECONDS),
            "ARCADE_LOG_LEVEL": "WARNING",
            "ARCADE_WRITES_PER_PLAYER": "0",
            "ARCADE_WRITES_PER_ADDRESS": "0",
        },
    )
    load = None
    try:
        started.wait_ready(180)
        load = Load(started.url)
        yield started, load
    finally:
        if load is not None:
            load.stop()
            print("\nfault: seconds to recover")
            for fault, seconds in FIGURES.items():
                print(f"  {fault}: {seconds:.1f}")
            print(f"  answers {len(load.answers)}, acknowledged results {len(load.acked)}")
            print(
                f"  submissions refused {len(load.failed)}: {sorted({s for _, s in load.failed})}"
            )
        started.stop()


def _get(url: str, timeout: float = 2.0) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def _answers(url: str) -> bool:
    """Whether anything answers ``url`` at all (any status)."""
    try:
        _get(url, timeout=0.5)
    except (OSError, ValueError):
        return False
    return True


def _until(check, within: float, what: str):
    """Poll ``check()`` until it is truthy; return it and the seconds it took."""
    start = time.monotonic()
    while True:
        try:
            result = check()
        except Exception:  # noqa: BLE001 - not yet
            result = None
        if result:
            return result, time.monotonic() - start
        assert time.monotonic() - start < within, f"{what} not within {within} s"
        time.sleep(0.1)


def _long_lane_ok(started) -> bool:
    """Every web process says Redis answers (``/readyz``): long searches are taken."""
    return all(_get(f"{u}/readyz")[1]["checks"]["redis"] == "ok" for u in started.web_urls)


def _submits(started, load) -> bool:
    """A result posted through the proxy is acknowledged now."""
    body = {
        "game": "npuzzle",
        "board": load.daily["board"],
        "options": load.daily["options"],
        "states": load.states,
        "seconds": 30,
        "assisted": False,
    }
    reply = requests.post(f"{started.url}/api/results", json=body, timeout=10)
    if reply.status_code in (200, 201):
        with load.lock:
            load.acked.add(reply.json()["id"])
        return True
    return False


def _answers_again(load, within: float = BACK_WITHIN) -> float:
    mark = time.monotonic()
    _, took = _until(lambda: load.answered_since(mark), within, "quick answers")
    return took


def _kill(pid: int, sig=signal.SIGKILL) -> None:
    assert pid > 0
    os.kill(pid, sig)


def _restarted(started, program: str, old: int, within: float = BACK_WITHIN) -> float:
    _, took = _until(lambda: started.pid(program) not in (0, old), within, f"{program} restarted")
    return took


def test_a_single_server_killed_mid_burst_keeps_every_acknowledged_result(tmp_path):
    """One server on its SQLite file, ``kill -9`` (its whole process group) while players
    submit: every result it acknowledged is in the file afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "ARCADE_DATA_DIR": str(tmp_path),
        "ARCADE_PREBUILD_TABLES": "0",
        "ARCADE_LOG_LEVEL": "WARNING",
        "ARCADE_WRITES_PER_PLAYER": "0",
        "ARCADE_WRITES_PER_ADDRESS": "0",
    }
    env.pop("ARCADE_DATABASE_URL", None)
    env.pop("ARCADE_MESSAGE_QUEUE", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "webapp"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _until(lambda: _get(f"{url}/healthz")[0] == 200, 60, "the server up")
        load = Load(url, players=0, submitters=4)
        _until(lambda: len(load.acked) >= 20, 60, "results acknowledged")
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
        load.stop()
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    engine = create_engine(f"sqlite:///{tmp_path / 'arcade.sqlite3'}")
    with engine.connect() as connection:
        stored = {row[0] for row in connection.execute(text("SELECT id FROM results"))}
    engine.dispose()
    assert load.acked and load.acked <= stored, sorted(load.acked - stored)


def test_a_killed_web_process_is_restarted_and_the_proxy_keeps_serving(cluster):
    started, load = cluster
    old = started.pid("web:web0")
    _kill(old)
    FIGURES["web process kill -9: answers"] = _answers_again(load)  # the other one serves
    _, took = _until(lambda: _submits(started, load), BACK_WITHIN, "a result acknowledged")
    FIGURES["web process kill -9: results"] = took
    _restarted(started, "web:web0", old)
    # the killed arbiter's worker answers on until it sees its parent gone (about a
    # second), then the port is closed until the new server binds it: wait for that
    # gap, or "back" would be the orphan's answer and web0 down for the next tests
    _until(lambda: not _answers(f"{started.web_urls[0]}/healthz"), 10, "web0's orphan gone")
    # back in HAProxy once it answers (it warms its solver processes first)
    _, took = _until(lambda: _get(f"{started.web_urls[0]}/healthz")[0] == 200, 60, "web0 up")
    FIGURES["web process kill -9: web0 itself back"] = took
    _until(lambda: started._proxy_sends_to(1), BACK_WITHIN, "the proxy sending to web0")


#: players who connect while Redis is hung, each asking one analysis
FRESH_PLAYERS = 15


def _near_goal_boards(count: int) -> list[str]:
    """``count`` distinct 8-puzzle boards a few slides from solved (breadth-first)."""
    seen, frontier, found = {goal(3)}, [goal(3)], []
    while len(found) < count:
        after = []
        for state in frontier:
            for board in slides(state):
                if board not in seen:
                    seen.add(board)
                    after.append(board)
        frontier = after
        found += [" ".join(map(str, s)) for s in after]
    return found[:count]


def _fresh_players_analyse(urls: list[str], count: int) -> list[tuple[float, float]]:
    """Each of ``count`` new players connects (alternating web processes) and asks one
    analysis of a board of its own: (seconds to connect, seconds to the answer)."""
    timings = []
    for n, board in enumerate(_near_goal_boards(count)):
        began = time.monotonic()
        client = LiveClient(urls[n % len(urls)])
        connected = time.monotonic() - began
        try:
            sent = time.monotonic()
            client.emit("analyse", {"game": "npuzzle", "board": board, "id": n})
            client.wait("analysis", timeout=3, where=lambda p, n=n: p.get("id") == n)
            timings.append((connected, time.monotonic() - sent))
        finally:
            client.close()
    return timings


def test_quick_answers_keep_flowing_while_redis_is_hung(cluster):
    started, load = cluster
    redis_pid = started.pid("redis")
    client = LiveClient(started.web_urls[1])
    try:
        _kill(redis_pid, signal.SIGSTOP)
        frozen = time.monotonic()
        time.sleep(0.5)
        quick = []
        for turn in range(8):
            sent = time.monotonic()
            client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": turn})
            client.wait("analysis", timeout=2, where=lambda p, t=turn: p.get("id") == t)
            quick.append(time.monotonic() - sent)
        fresh = _fresh_players_analyse(started.web_urls, FRESH_PLAYERS)
        time.sleep(2.5)  # the watcher has seen Redis gone: long searches refused at once
        sent = time.monotonic()
        client.emit("solve", {**LONG, "id": "long"})
        name, reply = client.wait(ANSWERS, timeout=8, where=lambda p: p.get("id") == "long")
        refused_in = time.monotonic() - sent
        during = load.answered_since(frozen)
    finally:
        _kill(redis_pid, signal.SIGCONT)
        client.close()
    assert max(quick) < 1.0, quick
    # players who connect during the freeze: connected and answered without Redis
    assert len(fresh) == FRESH_PLAYERS
    assert max(c for c, _ in fresh) < 1.0 and max(a for _, a in fresh) < 1.0, fresh
    FIGURES["Redis hung: slowest answer to a player connecting meanwhile"] = max(
        a for _, a in fresh
    )
    assert len(during) >= 5 and max(during) < 3.0, during
    assert (name, reply["message"]) == ("error", UNAVAILABLE_MESSAGE) and refused_in < 3.0
    FIGURES["Redis hung: slowest quick answer"] = max(during)
    FIGURES["Redis hung: long solve refused in"] = refused_in
    # Redis back: long searches are taken again
    _, status = _until(lambda: _long_lane_ok(started), BACK_WITHIN, "Redis ok in /readyz")


def test_a_long_solve_ends_whatever_happens_to_redis(cluster):
    started, _ = cluster
    # Redis back since an earlier test: long searches are taken again
    _until(lambda: _long_lane_ok(started), BACK_WITHIN, "Redis ok in /readyz")
    client = LiveClient(started.web_urls[0])
    try:
        sent = time.monotonic()
        client.emit("solve", {**LONG, "id": "frozen"})
        try:
            name, reply = client.wait(("progress", "error"), timeout=30)
        except AssertionError as err:  # what the cluster said meanwhile
            raise AssertionError(f"{err}\n{started.log()}") from None
        assert name == "progress", reply
        redis_pid = started.pid("redis")
        _kill(redis_pid, signal.SIGSTOP)
        time.sleep(4)
        _kill(redis_pid, signal.SIGCONT)
        name, _ = client.wait(
            ANSWERS, timeout=SOLVE_SECONDS + 15, where=lambda p: p.get("id") == "frozen"
        )
        assert name in ("solution", "unsolvable", "error")
        assert time.monotonic() - sent < SOLVE_SECONDS + 15
        FIGURES[f"long solve with Redis frozen 4 s: ended ({name})"] = time.monotonic() - sent
    finally:
        client.close()


def test_redis_shut_down_comes_back_and_long_searches_with_it(cluster):
    started, load = cluster
    old = started.pid("redis")
    subprocess.run(
        ["redis-cli", "-p", str(started.redis_port), "shutdown", "nosave"],
        capture_output=True,
        timeout=10,
        check=False,
    )
    _answers_again(load)
    FIGURES["redis-cli shutdown: Redis restarted"] = _restarted(started, "redis", old)
    _, took = _until(lambda: _long_lane_ok(started), BACK_WITHIN, "the long lane back")
    FIGURES["redis-cli shutdown: long lane back"] = took
    # a restarted Redis has forgotten RQ's registry: the workers register again
    _, took = _until(lambda: len(started.workers()) >= 2, BACK_WITHIN, "the workers registered")
    FIGURES["redis-cli shutdown: workers registered again"] = took


@pytest.mark.parametrize("how", ["kill -9", "pg_ctl stop"])
def test_postgresql_going_away_is_a_503_and_it_comes_back(cluster, how):
    started, load = cluster
    old = started.pid("postgres")
    # the refusals of this outage only: a web process killed earlier in the module
    # leaves HAProxy's 502s for the requests it held, which are that test's
    before = time.monotonic()
    if how == "kill -9":
        _kill(old)
    else:
        _kill(old, signal.SIGINT)  # what pg_ctl stop -m fast sends the postmaster
    killed = time.monotonic()
    _restarted(started, "postgres", old)
    _until(lambda: _submits(started, load), BACK_WITHIN, "a result acknowledged")
    FIGURES[f"PostgreSQL {how}: results acknowledged again"] = time.monotonic() - killed
    # while it was gone: a 503 with Retry-After, never a 500
    with load.lock:
        statuses = {status for when, status in load.failed if when >= before}
    assert statuses <= {503, 0}, statuses


def _with_children(pid: int) -> list[int]:
    """``pid`` and its child processes (PostgreSQL's backends, one per connection)."""
    children = subprocess.run(
        ["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    return [pid, *map(int, children)]


def test_a_frozen_postgresql_answers_503_in_seconds_not_never(cluster):
    started, load = cluster
    body = {
        "game": "npuzzle",
        "board": load.daily["board"],
        "options": load.daily["options"],
        "states": load.states,
        "seconds": 40,
        "assisted": False,
    }
    # the postmaster first: a backend it forked after its children were listed would
    # answer the other web process's check (a pooled connection opened meanwhile)
    postmaster = started.pid("postgres")
    frozen = [postmaster]
    _kill(postmaster, signal.SIGSTOP)
    try:
        frozen = _with_children(postmaster)
        for pid in frozen[1:]:
            _kill(pid, signal.SIGSTOP)
        time.sleep(0.3)
        sent = time.monotonic()
        reply = requests.post(f"{started.web_urls[0]}/api/results", json=body, timeout=30)
        took = time.monotonic() - sent
        ready, health = _get(f"{started.web_urls[1]}/readyz", timeout=10)
    finally:
        for pid in frozen:
            _kill(pid, signal.SIGCONT)
    assert reply.status_code == 503 and reply.headers["Retry-After"], reply.text
    assert took < 9.0, took
    FIGURES["PostgreSQL frozen: a submission answered 503 in"] = took
    assert ready == 503 and health["checks"]["database"] != "ok", health
    _until(lambda: _submits(started, load), BACK_WITHIN, "a result acknowledged")


def test_a_killed_rq_worker_leaves_the_registry_and_the_count(cluster):
    """RQ keeps a killed worker registered for minutes (its key's time to live): the
    web processes take it out within seconds, and count only the live ones."""
    started, _ = cluster
    victim = started.workers()[0]
    _kill(victim.pid)

    def counted_live():
        registered = {worker.name for worker in started.workers()}
        figures = [_get(f"{u}/readyz")[1]["lanes"]["long"]["workers"] for u in started.web_urls]
        return victim.name not in registered and max(figures) <= max(1, len(registered))

    _, took = _until(counted_live, BACK_WITHIN, "the dead worker out of RQ's registry")
    FIGURES["RQ worker kill -9: out of the registry and /readyz"] = took


def test_a_killed_proxy_is_restarted(cluster):
    started, _ = cluster
    old = started.pid("proxy")
    _kill(old)
    killed = time.monotonic()
    _restarted(started, "proxy", old)
    _until(lambda: _get(f"{started.url}/healthz")[0] == 200, BACK_WITHIN, "the proxy serving")
    FIGURES["proxy kill -9: serving again"] = time.monotonic() - killed


def test_every_acknowledged_result_is_in_the_database(cluster):
    started, load = cluster
    time.sleep(1)
    with load.lock:
        acked = set(load.acked)
    assert len(acked) >= 10
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{started.pg_port}/arcade")
    with engine.connect() as connection:
        stored = {row[0] for row in connection.execute(text("SELECT id FROM results"))}
    engine.dispose()
    assert acked <= stored, sorted(acked - stored)
    FIGURES["acknowledged results, all stored"] = len(acked)


def test_cookies_from_one_web_process_work_on_the_other(cluster):
    """Each web process has its own data folder; the secret comes from the database."""
    started, _ = cluster
    session = requests.Session()
    first, second = started.web_urls
    named = session.post(f"{first}/api/player", json={"name": "Faulty"}, timeout=10)
    assert named.status_code == 200, named.text
    again = session.get(f"{second}/api/player", timeout=10)
    assert again.status_code == 200 and again.json()["name"] == "Faulty", again.text
    folders = sorted(os.listdir(started.dir))
    assert {"web0", "web1"} <= set(folders)
    assert not os.path.exists(os.path.join(started.dir, "web0", "secret-key"))
