"""The leaderboards' gate: at most ``READS_AT_ONCE`` leaderboard reads are worked on at
once (the others wait their turn off the event loop), and a read that never gets a
turn is told the server is busy instead of waiting without end."""

import threading
import time

from helpers.players import Clock, build_app, daily_line
from helpers.waiting import until

from webapp.guard import gates
from webapp.http.players import results


def _held_reads(monkeypatch, release: threading.Event):
    """Make every leaderboard read wait for ``release``; returns the most seen at once."""
    inside, most = [0], [0]
    lock = threading.Lock()
    real = results.read_leaderboard

    def held(*args, **kwargs):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        release.wait(10)
        with lock:
            inside[0] -= 1
        return real(*args, **kwargs)

    monkeypatch.setattr(results, "read_leaderboard", held)
    return most


def _six_reads_at_once(app, monkeypatch) -> tuple[int, list[int]]:
    """Six players read the leaderboard while reads are held: (most worked on at once,
    once they all arrived; every reply's status)."""
    daily_line(app.test_client())
    release = threading.Event()
    most = _held_reads(monkeypatch, release)
    codes: list[int] = []

    def read():
        codes.append(app.test_client().get("/api/leaderboard/jugs").status_code)

    readers = [threading.Thread(target=read) for _ in range(6)]
    for reader in readers:
        reader.start()
    until(lambda: most[0] >= 2, 10, "two reads inside")
    time.sleep(0.5)  # the other four arrived meanwhile (and must not have got in)
    seen = most[0]
    assert app.test_client().get("/healthz").status_code == 200  # never gated
    release.set()
    for reader in readers:
        reader.join()
    return seen, codes


def test_at_most_reads_at_once_are_worked_on_and_the_rest_wait_their_turn(monkeypatch, tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'a.sqlite3'}", Clock(), tmp_path, READS_AT_ONCE=2)
    seen, codes = _six_reads_at_once(app, monkeypatch)
    assert seen == 2 and codes == [200] * 6


def test_no_gate_when_reads_at_once_is_zero(monkeypatch, tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'a.sqlite3'}", Clock(), tmp_path, READS_AT_ONCE=0)
    seen, codes = _six_reads_at_once(app, monkeypatch)
    assert seen == 6 and codes == [200] * 6


def test_a_read_that_never_gets_a_turn_is_told_busy(monkeypatch, tmp_path):
    monkeypatch.setattr(gates, "READ_WAIT", 0.3)  # create_app reads it from gates
    app = build_app(f"sqlite:///{tmp_path / 'a.sqlite3'}", Clock(), tmp_path, READS_AT_ONCE=1)
    daily_line(app.test_client())
    release = threading.Event()
    most = _held_reads(monkeypatch, release)
    first = threading.Thread(target=lambda: app.test_client().get("/api/leaderboard/jugs"))
    first.start()
    until(lambda: most[0] == 1, 10, "the first read inside")
    busy = app.test_client().get("/api/leaderboard/jugs")
    release.set()
    first.join()
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert busy.get_json()["error"] == gates.BUSY
    assert app.test_client().get("/api/leaderboard/jugs").status_code == 200  # turn freed
