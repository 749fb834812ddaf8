"""The loop never waits on CPU (design: "Ranked play", "The loop never waits").

The web process serves everyone from one gevent loop, so any request that computes
on it stops every page and socket. Here the production server runs with gevent's
monitor thread (``gevent_server``: a 0.1 s block is a report, and a report fails the
test) while a client polls ``/healthz`` every 50 ms: the heaviest request of each
endpoint, and a 1,000-position walk on the biggest Klotski board, must leave no gap
over 300 ms, and another player's 8-puzzle ``analyse`` is answered within 500 ms.
The caps (5,000 positions; ``4 x shortest + 100`` where the shortest is known) and the
replay's time budget are checked on the app itself.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote, urlsplit

import pytest
from helpers.gevent_server import raise_priority
from helpers.klotski import crowded_board, random_walk
from helpers.sockets import GOAL_8, LiveClient

from solver.core.replay import MAX_LINE, line_cap
from webapp.http.players.results import RESULT_BODY_BYTES

# timed: runs alone (make test), so the parallel half of the suite cannot slow it
pytestmark = [pytest.mark.serial, pytest.mark.app(REPLAY_SECONDS=0.3)]

#: the longest a /healthz poll may wait for its answer (a stall of the server's loop
#: longer than this plus the 50 ms between polls delays one poll in flight)
MAX_WAIT = 0.3
#: another player's 8-puzzle analysis, answered within this while a long line is checked
ANALYSE_WITHIN = 0.5
#: an 8-puzzle 20 moves from solved: a table lookup
EIGHT = "8 6 7 2 5 4 3 0 1"


def crowded_line(seed: int, positions: int) -> tuple[str, list[str]]:
    """The biggest Klotski board (10x10, 36 pieces) and a legal walk on it (never solved)."""
    rnd = random.Random(seed)
    board = crowded_board(rnd)
    return board, random_walk(board, positions, rnd)


def big_watersort() -> str:
    """40 tubes (the limit) of capacity 12: 20 colours dealt at random, 20 empty."""
    rnd = random.Random(7)
    units = [chr(ord("A") + i) for i in range(20) for _ in range(12)]
    rnd.shuffle(units)
    return ",".join("".join(units[i * 12 : (i + 1) * 12]) for i in range(20)) + "," * 19


def big_npuzzle() -> str:
    """A 5x5 position (the largest size) far from solved: a random solvable shuffle."""
    rnd = random.Random(5)
    tiles = list(range(25))
    while True:
        rnd.shuffle(tiles)
        numbers = [t for t in tiles if t]
        inversions = sum(a > b for i, a in enumerate(numbers) for b in numbers[i + 1 :])
        if inversions % 2 == 0:  # odd width: solvable exactly when the inversions are even
            return " ".join(map(str, tiles))


# -- plumbing --------------------------------------------------------------------------------


def request(url: str, method: str, path: str, body=None, source: str | None = None, timeout=60.0):
    """(status, parsed JSON or text) of one request; ``source`` binds a loopback address."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(
        parts.hostname,
        parts.port,
        timeout=timeout,
        source_address=(source, 0) if source else None,
    )
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    try:
        conn.request(method, path, body=data, headers=headers)
        answer = conn.getresponse()
        text = answer.read()
    finally:
        conn.close()
    try:
        return answer.status, json.loads(text)
    except ValueError:
        return answer.status, text.decode(errors="replace")


class HealthPoller:
    """Polls ``/healthz`` every 50 ms in a thread; ``max_wait`` is the longest a poll
    waited for its answer, ``max_gap`` the longest time between two answers. The test
    holds the server to the wait: the gap also counts the poller's own turn in this
    process (its GIL, shared with the test's request threads and socket clients): twice
    in full runs a gap reached 0.9-1.3 s while the server's monitor saw no block."""

    def __init__(self, url: str):
        self.url = url
        self.gaps: list[float] = []
        self.waits: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        raise_priority(threading.get_native_id())  # the poller measures the server, not us
        last = time.monotonic()
        while not self._stop.is_set():
            sent = time.monotonic()
            try:
                status, _ = request(self.url, "GET", "/healthz", timeout=30)
                if status != 200:
                    self.failures.append(f"/healthz answered {status}")
            except OSError as err:
                self.failures.append(f"/healthz: {err}")
            now = time.monotonic()
            self.waits.append(now - sent)
            self.gaps.append(now - last)
            last = now
            self._stop.wait(0.05)

    def __enter__(self) -> HealthPoller:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(60)

    @property
    def max_gap(self) -> float:
        return max(self.gaps, default=0.0)

    @property
    def max_wait(self) -> float:
        return max(self.waits, default=0.0)

    def check(self) -> None:
        """Fail when a poll failed or waited longer than :data:`MAX_WAIT`."""
        assert not self.failures, self.failures[:3]
        assert self.max_wait <= MAX_WAIT, (
            f"/healthz waited {self.max_wait:.2f} s (longest gap {self.max_gap:.2f} s)"
        )


def time_analyse(client: LiveClient, board: str = EIGHT, request_id="eight") -> float:
    """Seconds until ``client``'s 8-puzzle ``analyse`` is answered."""
    started = time.monotonic()
    client.emit("analyse", {"game": "npuzzle", "board": board, "id": request_id})
    _, payload = client.wait(
        ("analysis", "error"), timeout=30, where=lambda p: p.get("id") == request_id
    )
    assert "distance" in payload, payload
    return time.monotonic() - started


# -- the production server, watched by gevent's monitor ------------------------------------


def test_a_thousand_position_line_on_the_biggest_board_blocks_nobody(gevent_server):
    """The attack of issue 29: a legal 1,000-position walk on a 10x10 board with 36
    pieces (113 KB) took 19-20 s to refuse on the loop, and stopped everyone meanwhile."""
    url = gevent_server.url
    board, line = crowded_line(29, 1000)
    body = {"game": "klotski", "board": board, "states": line, "seconds": 1}
    player = LiveClient(url)
    try:
        time_analyse(player)  # warm: the 8-puzzle's table is loaded in the quick lane
        mark = gevent_server.mark()
        answers: dict = {}

        def submit():
            started = time.monotonic()
            answers["reply"] = request(url, "POST", "/api/results", body, source="127.0.29.1")
            answers["seconds"] = time.monotonic() - started

        with HealthPoller(url) as health:
            sender = threading.Thread(target=submit)
            sender.start()
            time.sleep(0.2)
            latencies = []
            while sender.is_alive():
                latencies.append(time_analyse(player, request_id=f"a{len(latencies)}"))
                time.sleep(0.1)
            sender.join()
            time.sleep(0.2)
    finally:
        player.close()
    status, reply = answers["reply"]
    assert status in (400, 503), (status, reply)  # a walk never ends solved; or over budget
    assert "not solved" in reply["error"] or "longer than" in reply["error"], reply
    gevent_server.assert_no_block(mark)
    health.check()
    assert latencies and max(latencies) <= ANALYSE_WITHIN, latencies


def _heaviest_requests() -> list[tuple[str, str, object]]:
    """(method, path, body): the heaviest request each endpoint takes."""
    board, line = crowded_line(3, 1000)
    klotski = quote(board, safe="")
    water = big_watersort()
    npuzzle = big_npuzzle()
    five_thousand = [board] + [board.replace(".", "x", 1)] * (MAX_LINE - 1)  # illegal at step 1
    progress = {
        f"klotski|{{}}|{i}": {"moves": 1_000_000, "extra": 1_000_000, "min": 1_000_000}
        for i in range(500)
    }
    requests: list[tuple[str, str, object]] = [
        ("GET", "/", None),
        ("GET", f"/play/klotski?board={klotski}", None),
        ("GET", f"/editor/klotski?board={klotski}", None),
        ("GET", f"/play/watersort?capacity=12&board={quote(water, safe='')}", None),
        ("GET", f"/play/npuzzle?board={quote(npuzzle, safe='')}", None),
        ("GET", "/play/npuzzle?size=5&seed=77", None),
        ("GET", "/play/watersort?seed=77&colours=12&capacity=12", None),
        ("GET", "/play/klotski?daily=1", None),
        ("GET", "/readyz", None),
        ("POST", "/api/validate", {"game": "klotski", "board": board}),
        ("POST", "/api/check", {"game": "klotski", "board": board}),
        ("POST", "/api/check", {"game": "watersort", "board": water, "options": {"capacity": 12}}),
        ("POST", "/api/check", {"game": "npuzzle", "board": npuzzle}),
        ("POST", "/api/player", {"name": "Heavy Loader"}),
        ("POST", "/api/player/progress", {"progress": progress}),
        ("POST", "/api/player/restore", {"code": "x" * 60_000}),
        ("POST", "/api/results", {"game": "klotski", "board": board, "states": line}),
        ("POST", "/api/results", {"game": "klotski", "board": board, "states": five_thousand}),
        ("POST", "/api/results", {"game": "klotski", "board": board, "states": [board] * 5001}),
        ("GET", "/api/player", None),
        ("GET", "/storm/watersort", None),
        ("POST", "/api/runs", {"mode": "storm", "game": "watersort"}),
        ("GET", "/api/runs/streak/npuzzle", None),
        ("POST", "/api/runs/1/moves", {"moves": 0, "board": water}),
    ]
    for game in ("klotski", "watersort", "npuzzle", "jugs"):
        requests += [
            ("GET", f"/api/daily/{game}", None),
            ("GET", f"/api/leaderboard/{game}", None),
            ("GET", f"/api/levels/{game}", None),
        ]
    return requests


def test_the_heaviest_request_of_every_endpoint_blocks_nobody(gevent_server):
    url = gevent_server.url
    board, _ = crowded_line(3, 1)
    searches = [
        ("analyse", {"game": "klotski", "board": board, "id": "k"}),
        ("solve", {"game": "klotski", "board": board, "id": "ks"}),
        ("analyse", {"game": "npuzzle", "board": big_npuzzle(), "id": "n"}),
        ("solve", {"game": "npuzzle", "board": big_npuzzle(), "id": "ns"}),
        ("analyse", {"game": "watersort", "board": big_watersort(), "capacity": 12, "id": "w"}),
        ("solve", {"game": "watersort", "board": big_watersort(), "capacity": 12, "id": "ws"}),
    ]
    requests = _heaviest_requests()
    mark = gevent_server.mark()
    players = [LiveClient(url) for _ in searches]
    try:
        with HealthPoller(url) as health:
            for player, (event, payload) in zip(players, searches, strict=True):
                player.emit(event, payload)
            with ThreadPoolExecutor(2) as pool:
                answers = list(
                    pool.map(
                        lambda r: request(url, r[0], r[1], r[2], source="127.0.30.1"), requests
                    )
                )
            for player in players:
                player.emit("cancel", {})
            time.sleep(0.5)
    finally:
        for player in players:
            player.close()
    statuses = {
        f"{method} {path[:50]}": status
        for (method, path, _), (status, _) in zip(requests, answers, strict=True)
    }
    assert all(status < 500 or status == 503 for status in statuses.values()), statuses
    gevent_server.assert_no_block(mark)
    health.check()


def test_a_flood_of_replays_from_one_address_does_not_starve_another(gevent_server):
    """One replay process, fair between addresses: another address's short line goes
    next, not after the flooding address's queue."""
    url = gevent_server.url
    board, line = crowded_line(11, 400)
    flood = {"game": "klotski", "board": board, "states": line}
    done: list[float] = []

    def flooder():
        request(url, "POST", "/api/results", flood, source="127.0.31.1")
        done.append(time.monotonic())

    threads = [threading.Thread(target=flooder) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # the flood is queued first
    jugs = {"game": "jugs", "board": "0/3,0/5,8/8", "options": {"goal": "*,4,*"}}
    jugs["states"] = ["0/3,0/5,8/8", "0/3,5/5,3/8", "3/3,2/5,3/8", "0/3,2/5,6/8"]
    status, reply = request(url, "POST", "/api/results", jugs, source="127.0.31.2")
    answered = time.monotonic()
    for thread in threads:
        thread.join()
    assert status == 400 and "not solved" in reply["error"], reply
    assert sum(t > answered for t in done) >= 2, "the other address waited behind the flood"


# -- caps, budgets and numbers on the app itself ---------------------------------------------


def _results(app):
    from sqlalchemy import func, select

    from webapp.storage.models import Result

    with app.extensions["players"].db.session() as session:
        return session.scalar(select(func.count()).select_from(Result))


def test_a_line_over_five_thousand_positions_is_refused_by_its_count(client):
    # positions that are not even text: the count is judged before any is parsed
    reply = client.post(
        "/api/results", json={"game": "jugs", "board": "0/3,0/5,8/8", "states": [0] * 5001}
    )
    assert reply.status_code == 400
    assert reply.get_json()["error"] == "the line has 5001 positions; the limit is 5000"


def test_a_line_over_four_times_the_shortest_plus_100_is_refused_by_its_count(app, client):
    daily = client.get("/api/daily/jugs").get_json()
    cap = 4 * daily["shortest"] + 100
    assert line_cap(daily["shortest"]) == cap
    body = {"game": "jugs", "board": daily["board"], "options": daily["options"]}
    reply = client.post("/api/results", json={**body, "states": [0] * (cap + 1)})
    assert reply.status_code == 400
    assert reply.get_json()["error"] == (
        f"the line has {cap + 1} positions; the limit is {cap} "
        f"for a puzzle solved in {daily['shortest']} moves"
    )
    at_cap = client.post("/api/results", json={**body, "states": [0] * cap})
    assert at_cap.get_json()["error"] == "position 0 must be board text"  # replayed, not capped
    assert _results(app) == 0


def test_the_longest_line_of_the_biggest_board_fits_the_body_limit(client):
    board, _ = crowded_line(3, 1)
    states = [board] + [board.replace(".", "x", 1)] * (MAX_LINE - 1)
    body = json.dumps({"game": "klotski", "board": board, "states": states, "seconds": 1})
    assert len(body) <= RESULT_BODY_BYTES
    reply = client.post("/api/results", data=body, content_type="application/json")
    assert reply.status_code == 400 and "position 1" in reply.get_json()["error"]
    over = client.post(
        "/api/results", data=b" " * (RESULT_BODY_BYTES + 1), content_type="application/json"
    )
    assert over.status_code == 413


def test_a_replay_over_its_budget_is_a_503_and_stores_nothing(app, client):
    board, line = crowded_line(29, 1000)
    reply = client.post("/api/results", json={"game": "klotski", "board": board, "states": line})
    assert reply.status_code == 503, reply.get_json()
    assert "longer than 0.3 s" in reply.get_json()["error"]
    assert reply.headers["Retry-After"]
    assert _results(app) == 0


#: numbers Python's json module reads but no endpoint can use
HOSTILE_NUMBERS = {
    "a 401-digit int": "1" + "0" * 400,
    "a 5000-digit int": "9" * 5000,
    "1e400": "1e400",
    "-1e400": "-1e400",
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "a 400-digit float": "0." + "1" * 400,
}

#: (endpoint, a body with NUMBER standing for the hostile number) for every numeric field
NUMERIC_FIELDS = [
    (
        "/api/results",
        '{"game": "jugs", "board": "0/3,0/5,8/8", "states": ["0/3,0/5,8/8"], "seconds": NUMBER}',
    ),
    (
        "/api/results",
        '{"game": "watersort", "board": "AB,BA,,", "states": ["AB,BA,,"], '
        '"options": {"capacity": NUMBER}}',
    ),
    ("/api/results", '{"game": "jugs", "board": "0/3,0/5,8/8", "states": [NUMBER]}'),
    ("/api/results", '{"game": NUMBER, "board": NUMBER, "assisted": NUMBER}'),
    ("/api/validate", '{"game": "watersort", "board": "AB,BA,,", "options": {"capacity": NUMBER}}'),
    ("/api/validate", '{"game": "npuzzle", "board": NUMBER}'),
    ("/api/check", '{"game": "watersort", "board": "AB,BA,,", "options": {"capacity": NUMBER}}'),
    ("/api/player", '{"name": NUMBER}'),
    ("/api/player/restore", '{"code": NUMBER}'),
    ("/api/player/progress", '{"progress": {"k": {"moves": NUMBER, "extra": 0, "min": 1}}}'),
    ("/api/player/progress", '{"progress": {"k": {"moves": 1, "extra": NUMBER, "min": 1}}}'),
    ("/api/player/progress", '{"progress": {"k": {"moves": 1, "extra": 0, "min": NUMBER}}}'),
]


@pytest.mark.parametrize("number", HOSTILE_NUMBERS.values(), ids=HOSTILE_NUMBERS.keys())
@pytest.mark.parametrize(("endpoint", "template"), NUMERIC_FIELDS)
def test_any_number_in_any_body_is_a_400(app, client, endpoint, template, number):
    body = template.replace("NUMBER", number)
    reply = client.post(endpoint, data=body, content_type="application/json")
    assert reply.status_code == 400, (reply.status_code, reply.data[:200])
    assert isinstance(reply.get_json()["error"], str)
    assert _results(app) == 0


def test_a_huge_seconds_names_the_field(client):
    """``"seconds": 1`` followed by 400 zeros was a 500 (``math.isfinite`` overflowed)."""
    body = '{"game": "jugs", "board": "0/3,0/5,8/8", "states": ["0/3,0/5,8/8"], "seconds": 1%s}'
    reply = client.post("/api/results", data=body % ("0" * 400), content_type="application/json")
    assert reply.status_code == 400
    assert "numbers may have at most 20 digits" in reply.get_json()["error"]
    reply = client.post("/api/results", data=body % ("0" * 15), content_type="application/json")
    assert reply.status_code == 400 and "seconds must be from 0" in reply.get_json()["error"]


@pytest.mark.parametrize(
    "payload",
    [
        {"game": "npuzzle", "board": GOAL_8, "id": float("inf")},
        {"game": "npuzzle", "board": GOAL_8, "id": float("nan")},
        {"game": "npuzzle", "board": GOAL_8, "id": 10**400},
        {"game": "watersort", "board": "AB,BA,,", "capacity": 10**400},
        {"game": "watersort", "board": "AB,BA,,", "capacity": float("-inf")},
        {"game": "npuzzle", "board": 1e300},
    ],
    ids=["inf id", "nan id", "huge id", "huge capacity", "-inf capacity", "float board"],
)
def test_hostile_numbers_in_socket_payloads_are_an_error_event(live_server, payload):
    """python-socketio's client writes these as JSON's Infinity, NaN and long digits."""
    client = LiveClient(live_server)
    try:
        client.emit("analyse", payload)
        name, answer = client.wait(("error", "analysis"), timeout=10)
        assert name == "error" and answer["message"], answer
        assert time_analyse(client, GOAL_8, "after") < 10  # the connection still serves
    finally:
        client.close()
