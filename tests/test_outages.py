"""The database's bad moments and what web processes share, without a cluster: a
database that fails is a 503 with ``Retry-After`` (one log line, no traceback) and
``/readyz`` names it; two web processes with their own data folders sign cookies
alike; a day's daily is made once and read back after a restart; a web process
started while Redis is out of reach still starts its cluster lane, refusing long
searches until Redis answers."""

import datetime as dt
import logging
import socket
import threading
import time
from contextlib import contextmanager

import pytest
from helpers.apps import make_app
from sqlalchemy.exc import OperationalError

from harness.loopback import free_port
from webapp import create_app
from webapp.jobs.cluster import ClusterLane
from webapp.jobs.core import LaneBusy
from webapp.jobs.model import UNAVAILABLE_MESSAGE, Job, JobRequest, Limits
from webapp.players.identity import COOKIE
from webapp.storage.shared import dailies_made


class RefusingDatabase:
    """A database that refuses every connection, as PostgreSQL does while it restarts."""

    url = "postgresql+psycopg://postgres@127.0.0.1:1/arcade"

    @contextmanager
    def session(self):
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))
        yield

    writing = session

    def ping(self, seconds=2.0):
        return "OperationalError: connection refused"


def test_a_refusing_database_is_a_503_with_retry_after_and_one_log_line(caplog):
    app = make_app()
    app.extensions["players"]._db = RefusingDatabase()
    client = app.test_client()
    with caplog.at_level(logging.WARNING):
        reply = client.post("/api/player", json={"name": "Ann"})
        ready = client.get("/readyz")
    assert reply.status_code == 503 and reply.headers["Retry-After"] == "5"
    assert "database" in reply.get_json()["error"]
    assert ready.status_code == 503
    assert ready.get_json()["status"] == "database down"
    assert ready.get_json()["checks"]["database"].startswith("OperationalError")
    logged = [r for r in caplog.records if "/api/player" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is None  # one line, no traceback


def _server_app(url, folder):
    """An app as a web process of the cluster makes it: migrated at start, its own data
    folder, the shared database."""
    return create_app(TESTING=True, PREBUILD_TABLES=False, DATABASE_URL=url, DATA_DIR=str(folder))


def test_a_players_cookie_from_one_web_process_works_on_another(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first, second = _server_app(url, tmp_path / "web0"), _server_app(url, tmp_path / "web1")
    assert first.secret_key == second.secret_key
    browser = first.test_client()
    assert browser.post("/api/player", json={"name": "Ann"}).status_code == 200
    cookie = browser.get_cookie(COOKIE)
    other = second.test_client()
    other.set_cookie(COOKIE, cookie.value)
    assert other.get("/api/player").get_json()["name"] == "Ann"
    assert not (tmp_path / "web0" / "secret-key").exists()


def test_the_daily_is_made_once_and_read_back_after_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    made = []

    def maker(game, day):
        made.append((game, day))
        return {
            "board": "0/3,0/5,8/8",
            "options": {"goal": "0,4,4"},
            "min_moves": 7,
            "optimal": True,
        }

    day = dt.date(2026, 3, 1)
    before = _server_app(url, tmp_path / "before")
    before.extensions["levels"].daily = maker
    first = before.extensions["players"].daily("jugs", day)
    dailies_made.clear()  # a restart: nothing in this process's memory
    after = _server_app(url, tmp_path / "after")
    after.extensions["levels"].daily = maker
    assert after.extensions["players"].daily("jugs", day) == first
    assert made == [("jugs", day)]


def _long_solve(**callbacks) -> Job:
    """A long search of a solved 8-puzzle, as the job core hands it to a lane."""
    return Job(
        "solve", JobRequest("npuzzle", "1 2 3 4 5 6 7 8 0"), Limits(5.0, None, 0.1), **callbacks
    )


def test_a_cluster_lane_started_while_redis_is_out_of_reach_starts_and_refuses(caplog):
    """Started (a web process restarted) while Redis is out of reach: no exception, so
    the rest of the server's start-up runs; the listener and the watcher run, and a
    long search is refused with the words for it, at once."""
    lane = ClusterLane("long", f"redis://127.0.0.1:{free_port()}/0", max_queue=10)
    try:
        with caplog.at_level(logging.WARNING):
            lane.start()
        assert [thread.is_alive() for thread in lane._threads] == [True, True]
        assert "Redis is out of reach at start-up" in caplog.text
        with pytest.raises(LaneBusy) as refused:
            lane.submit(_long_solve())
        assert refused.value.message == UNAVAILABLE_MESSAGE
    finally:
        lane.shutdown()


def test_a_long_search_handed_to_a_hung_redis_holds_no_one_else(caplog):
    """Redis stops answering just as a long search is handed to RQ: the submitter waits
    out one command's timeout, but the lane's figures (read by every page connecting
    while the server warms, and by ``/readyz``) answer at once meanwhile; the search
    goes back in line and is answered "unavailable" when the watcher sees Redis gone."""
    hung = socket.socket()  # accepts connections (the kernel's backlog), never answers
    hung.bind(("127.0.0.1", 0))
    hung.listen(16)
    lane = ClusterLane("long", f"redis://127.0.0.1:{hung.getsockname()[1]}/0", max_queue=10)
    heard = []
    try:
        with caplog.at_level(logging.WARNING):
            lane.start()  # its count of workers times out: unavailable
        lane.available = True  # as if Redis answered a moment ago
        job = _long_solve(on_lost=lambda message, retry: heard.append(message))
        submitter = threading.Thread(target=lane.submit, args=(job,))
        began = time.monotonic()
        submitter.start()
        slowest = 0.0
        while submitter.is_alive():
            asked = time.monotonic()
            lane.stats()
            slowest = max(slowest, time.monotonic() - asked)
            time.sleep(0.05)
        assert time.monotonic() - began > 1.0  # the enqueue did wait for the hung Redis
        assert slowest < 0.5, slowest
        assert "could not hand a job to RQ" in caplog.text
        deadline = time.monotonic() + 10
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [UNAVAILABLE_MESSAGE]
    finally:
        lane.shutdown()
        hung.close()
