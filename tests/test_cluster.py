"""The cluster as ``make cluster`` runs it under supervisord: HAProxy in front of 2 web
processes, an RQ worker pool of 2 (``rq worker-pool``, ArcadeWorker) and a real
redis-server on loopback (:class:`loadtest.cluster.Cluster`).

Players use the proxy's one address: it spreads them over the web processes and
keeps a long-polling session on the process that holds it. Clients on either web process get answers computed by the workers and emitted
through the Redis message queue. Killing the worker that runs a job mid-search
must end in a retried answer or an ``error``, never in silence (RQ's pool starts a
new worker). Racers on different web processes race each other live (the race in
Redis, its states over the message queue), and a short run of the race load
scenario loses nothing. Everything supervisord starts is stopped afterwards
(``make test`` installs redis-server).
"""

import asyncio
import http.cookiejar
import json
import os
import shutil
import signal
import socket
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.sockets import ANSWERS, ONE_MOVE_8, LiveClient, replay_solution

from harness.cluster import Cluster
from harness.figures import percentile
from loadtest.crowd import run_crowd
from loadtest.races import cluster_pids, lost, run_races
from solver import catalogue
from solver.engine import solve_board
from webapp.config import DEFAULTS
from webapp.jobs.cluster import LOST_MESSAGE
from webapp.jobs.model import CLOSING_MESSAGE

# timed: runs alone (make test), so the parallel half of the suite cannot slow it
pytestmark = pytest.mark.serial

#: solved by a search of 5.4 M positions, about ten seconds on a quiet machine (the
#: compiled Klotski search exhausts smaller boards before a first progress line): long
#: enough to kill its worker mid-search, short enough to finish when retried
TEN_SECONDS = "BAACxy/BAACzw/DEEF12/DGHF34/I....J/KLMN.."
#: the same with three pieces fewer: 0.95 M positions, a few seconds, 7 moves; the
#: killed worker's job is searched again in full, so the shorter the better
FEW_SECONDS = "BAACxy/BAACzw/DEEF12/DGHF34/I....J/K....."
#: the ranked human floor the cluster runs with, seconds a move
FLOOR = DEFAULTS["MIN_SECONDS_PER_MOVE"]
#: two moves from solved, asked by one test only (no cache of recent analyses has it)
TWO_MOVES_8 = "1 2 3 4 5 6 0 7 8"
#: a race in the cluster: long enough for dozens of moves, each awaited by both racers
#: (the 50 moves of the two racers' test take about 1.5 s on a quiet machine)
RACE_SECONDS = 6
#: moves each racer makes (p95 over both racers' moves, each seen by the other)
RACE_MOVES = 25


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    started = Cluster(
        tmp_path_factory.mktemp("cluster") / "cluster.log",
        {
            "ARCADE_SOLVE_SECONDS": "60",
            "ARCADE_LOG_LEVEL": "WARNING",
            "ARCADE_RACE_COUNTDOWN_SECONDS": "1",
            "ARCADE_RACE_SECONDS": str(RACE_SECONDS),
            "ARCADE_RACE_PUZZLES": "12",
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
    # every process supervisord started is gone: proxy and web ports closed, Redis down,
    # workers ended
    for url in [started.url, *started.web_urls]:
        with pytest.raises(OSError):
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
    for port in (started.redis_port, started.pg_port):  # Redis and PostgreSQL down
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    shutil.rmtree(started.pg_dir, ignore_errors=True)
    time.sleep(0.5)
    assert [pid for pid in pids if os.path.exists(f"/proc/{pid}")] == []


def connect(cluster):
    """A player through the proxy, the cluster's one address."""
    started, clients = cluster
    client = LiveClient(started.url)
    clients.append(client)
    return client


def connect_to(cluster, index):
    """A player on web process ``index`` itself, past the proxy."""
    started, clients = cluster
    client = LiveClient(started.web_urls[index])
    clients.append(client)
    return client


def connect_to_with(cluster, index, headers):
    """A player with these handshake headers (a cookie) on web process ``index``."""
    started, clients = cluster
    client = LiveClient(started.web_urls[index], headers)
    clients.append(client)
    return client


def held(started) -> list[int]:
    """Players each web process holds, asked behind the proxy."""
    counts = []
    for url in started.web_urls:
        with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
            counts.append(json.load(response)["players"])
    return counts


def test_the_proxy_spreads_players_over_both_web_processes(cluster):
    started, _ = cluster
    before = held(started)
    players = [connect(cluster) for _ in range(4)]
    deadline = time.monotonic() + 10
    while True:
        added = [now - then for now, then in zip(held(started), before, strict=True)]
        if sum(added) == 4 and min(added) >= 1:
            break
        assert time.monotonic() < deadline, (before, held(started))
        time.sleep(0.1)
    for player in players:
        player.close()


def test_long_polling_sticks_to_one_web_process(cluster):
    """Engine.IO's polling session lives in one web process: the proxy's cookie brings
    every poll back to it (without it, half the polls would get "invalid session")."""
    started, _ = cluster
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"{started.url}/socket.io/?EIO=4&transport=polling"
    with opener.open(base, timeout=5) as response:
        opened = json.loads(response.read().decode()[1:])  # "0{...}": Engine.IO open
    assert any(cookie.name == "ARCADE_WEB" for cookie in jar)
    session = f"{base}&sid={opened['sid']}"
    with opener.open(urllib.request.Request(session, data=b"40"), timeout=5) as response:
        assert response.read() == b"OK"
    with opener.open(session, timeout=10) as response:
        assert response.read().startswith(b"40")  # Socket.IO connected
    for turn in range(6):  # a bad request, answered at once with "error"
        sent = f'42["analyse",{{"id":"p{turn}"}}]'.encode()
        with opener.open(urllib.request.Request(session, data=sent), timeout=5) as response:
            assert response.read() == b"OK"
        with opener.open(session, timeout=10) as response:
            assert b'"error"' in response.read() and response.status == 200


def _json(url, body=None, opener=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data else {}
    request = urllib.request.Request(url, data=data, headers=headers)
    with (opener or urllib.request.build_opener()).open(request, timeout=30) as reply:
        return reply.status, json.loads(reply.read())


def test_a_result_sent_to_one_web_process_ranks_on_the_others_leaderboard(cluster):
    """The players live in the cluster's PostgreSQL, shared by every web process, and a
    player's cookie from one web process is good on the other (one secret for all):
    the attempt opened on the second ranks the result sent to the first."""
    started, _clients = cluster
    first, second = started.web_urls
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    _, daily = _json(f"{second}/api/daily/jugs", opener=browser)
    states = solve_board("jugs", daily["board"], goal=daily["options"]["goal"])["states"]
    body = {"game": "jugs", "board": daily["board"], "options": daily["options"]}
    time.sleep(FLOOR * len(states))  # a human's pace: faster is stored, not ranked
    status, result = _json(
        f"{first}/api/results", {**body, "states": states, "seconds": 9}, opener=browser
    )
    assert status == 201 and result["ranked"] and result["rank"] == 1
    _, board = _json(f"{second}/api/leaderboard/jugs")
    # ranked seconds are the server's, from the daily's hand-out to the submission
    assert [e["length"] for e in board["entries"]] == [daily["shortest"]]
    assert board["entries"][0]["seconds"] < 9


def test_both_web_processes_get_answers_from_the_workers(cluster):
    first, second = connect(cluster), connect(cluster)
    board = catalogue.get("npuzzle").default_board
    first.emit("solve", {"game": "npuzzle", "board": board, "id": "s"})
    second.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "a"})
    _, solution = first.wait("solution", timeout=30)
    assert solution["id"] == "s" and solution["optimal"] and solution["length"] == 17
    replay_solution("npuzzle", board, solution)
    _, analysis = second.wait("analysis", timeout=30, where=lambda p: p.get("final", True))
    assert analysis["id"] == "a" and analysis["distance"] == 1
    second.emit("solve", {"game": "npuzzle", "board": "1 2 3"})
    name, error = second.wait(ANSWERS, where=lambda p: p.get("id") != "a")  # not a late "a"
    assert name == "error" and error["event"] == "solve"


def test_the_labs_visiting_order_comes_back_from_a_worker(cluster):
    """``/api/visits`` runs in the long lane, RQ's workers here: its request and its
    answer (compressed bytes) cross Redis as JSON and come back as they left."""
    started, _clients = cluster
    board = "0/3,0/5,8/8"
    query = f"board={urllib.parse.quote(board)}&goal=*,4,4"
    before = sum(_readyz(url)["lanes"]["long"]["completed"] for url in started.web_urls)
    _, graph = _json(f"{started.url}/api/graph/jugs?{query}")
    _, visits = _json(f"{started.url}/api/visits/jugs?{query}&algorithm=bfs")
    assert visits["algorithm"] == "bfs" and visits["complete"] and visits["optimal"]
    assert visits["length"] == 7 and len(visits["order"]) <= len(graph["nodes"])
    after = sum(_readyz(url)["lanes"]["long"]["completed"] for url in started.web_urls)
    assert after > before  # answered by a worker, not a web process


def test_cancel_silences_a_job_on_a_worker(cluster):
    client = connect(cluster)
    client.emit("solve", {"game": "klotski", "board": TEN_SECONDS, "id": "c"})
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
    client = connect(cluster)
    client.emit("solve", {"game": "klotski", "board": FEW_SECONDS, "id": "k"})
    client.wait("progress", timeout=30)
    pid = _worker_running_a_job(started)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    name, reply = client.wait(ANSWERS, timeout=90)
    assert reply["id"] == "k"
    if name == "solution":  # retried on the other worker
        replay_solution("klotski", FEW_SECONDS, reply)
        assert reply["length"] == 7 and reply["optimal"]
    else:
        assert name == "error" and reply["message"] == LOST_MESSAGE
    health = []
    for url in started.web_urls:  # the player's web process: either, behind the proxy
        with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
            health.append(json.load(response))
    assert sum(one["lanes"]["long"]["lost"] for one in health) >= 1
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "after"})
    assert client.wait("analysis", timeout=30)[1]["distance"] == 1


def _readyz(url):
    with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
        return json.load(response)


def test_quick_answers_never_touch_redis(cluster):
    """Table lookups and searches within the quick budget are the web process's own."""
    started, _ = cluster
    client = connect_to(cluster, 0)
    before = _readyz(started.web_urls[0])["lanes"]
    queued = started.workers()[0].connection.llen("rq:queue:arcade")
    # a board no other test asks, so the recent-analyses cache cannot answer it
    client.emit("analyse", {"game": "npuzzle", "board": TWO_MOVES_8, "id": "q"})
    assert client.wait("analysis", timeout=30)[1]["distance"] == 2
    deadline = time.monotonic() + 5  # the job counts as completed just after it answers
    while (after := _readyz(started.web_urls[0])["lanes"])["quick"]["completed"] <= before["quick"][
        "completed"
    ]:
        assert time.monotonic() < deadline, (before, after)
        time.sleep(0.05)
    assert after["long"]["completed"] == before["long"]["completed"] and queued == 0
    assert set(after) == {"quick", "long", "page", "replay"}  # the keys one server reports


def test_a_trivial_solve_is_answered_within_a_second_behind_twelve_hard_ones(cluster):
    """The scenario of ``test_crowd.py``, on one web process of the cluster."""
    started, _ = cluster
    report = run_crowd(started.web_urls[0])
    assert report["event"] == "solution" and report["length"] == 3, report
    assert report["seconds"] < 1.0, report


def _player_cookie(url, name):
    """A new player's cookie, as a ``Cookie`` header (good on every web process)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    assert _json(f"{url}/api/player", {"name": name}, opener=opener)[0] == 200
    return {"Cookie": "; ".join(f"{c.name}={c.value}" for c in jar)}


def _race_state(client, where, timeout=10.0):
    return client.wait("race_state", timeout, where)[1]


def _scores(state):
    return {p["name"]: p["score"] for p in state["players"]}


def test_two_racers_on_two_web_processes_see_each_other_live(cluster):
    """The race of ``test_races.py`` with its racers on different web processes: the race
    lives in Redis, each move reaches the other racer through the message queue within
    250 ms (p95, from the move sent to the other seeing it); a racer who reconnects to
    the other web process resumes; a spectator's room reaches both processes; the final
    scores are the moves each racer had confirmed. Moves come from a shortest line of the
    solver library, and each must score exactly one."""
    started, _ = cluster
    first, second = started.web_urls
    ann_cookie = _player_cookie(first, "Ann")
    bo_cookie = _player_cookie(second, "Bo")  # a racer is shown by its player's name
    ann, bo = connect_to_with(cluster, 0, ann_cookie), connect_to_with(cluster, 1, bo_cookie)
    ann.emit("race_join", {"race": "new", "name": "Ann"})
    race = _race_state(ann, lambda s: s["status"] == "waiting")["race"]
    bo.emit("race_join", {"race": race, "name": "Bo"})
    assert _race_state(bo, lambda s: True)["you"] == "Bo"
    # Ann (web 0) sees Bo join on web 1
    _race_state(ann, lambda s: sorted(_scores(s)) == ["Ann", "Bo"])
    bo.emit("race_start", {})  # not the owner
    assert bo.wait("error")[1]["event"] == "race_start"
    ann.emit("race_start", {})
    for racer in (ann, bo):
        assert _race_state(racer, lambda s: s["status"] == "countdown")["starts_in"] > 0
    now = {
        name: _race_state(c, lambda s: s["status"] == "racing")
        for name, c in (("Ann", ann), ("Bo", bo))
    }
    assert now["Ann"]["puzzle"] == now["Bo"]["puzzle"]
    first_puzzle = now["Ann"]["puzzle"]["board"]
    watcher = connect_to(cluster, 0)  # a latecomer watches, on web 0
    watcher.emit("race_join", {"race": race, "name": "Eve"})
    watching = _race_state(watcher, lambda s: True)
    assert watching["you"] is None and "puzzle" not in watching

    ann.emit("race_move", {"board": "1 2 3"})  # no position: an error, nothing scored
    assert ann.wait("error")[1]["event"] == "race_move"

    clients = {"Ann": ann, "Bo": bo}
    confirmed, latencies = {"Ann": 0, "Bo": 0}, []
    for turn in range(2 * RACE_MOVES):
        if turn == RACE_MOVES:  # Ann comes back on the other web process and resumes
            ann.close()
            time.sleep(0.5)
            clients["Ann"] = ann = connect_to_with(cluster, 1, ann_cookie)
            ann.emit("race_join", {"race": race})
            now["Ann"] = _race_state(ann, lambda s: s["status"] == "racing")
            assert now["Ann"]["you"] == "Ann" and _scores(now["Ann"])["Ann"] == confirmed["Ann"]
        name = ("Ann", "Bo")[turn % 2]
        other = "Bo" if name == "Ann" else "Ann"
        puzzle = now[name]["puzzle"]
        line = solve_board(puzzle["game"], puzzle["board"], **puzzle["options"])["states"]
        wanted = confirmed[name] + 1
        sent = time.monotonic()
        clients[name].emit("race_move", {"board": line[1]})
        _race_state(clients[other], lambda s, n=name, w=wanted: _scores(s)[n] == w)
        latencies.append(time.monotonic() - sent)
        now[name] = _race_state(clients[name], lambda s, n=name, w=wanted: _scores(s)[n] == w)
        confirmed[name] = wanted
        assert "puzzle" in now[name], "every puzzle solved: make the race longer"

    ends = [
        _race_state(c, lambda s: s["status"] == "finished", RACE_SECONDS + 10)
        for c in (ann, bo, watcher)
    ]
    for final in ends:
        assert _scores(final) == confirmed
    assert ends[0]["puzzles"][0]["board"] == first_puzzle
    assert percentile(latencies, 95) <= 0.25, sorted(latencies)


def test_the_race_scenario_loses_nothing(cluster):
    """``python -m loadtest --races``, short (5 races of 5 racers over both web processes):
    every score is the moves the server confirmed, every racer saw every other's moves,
    the replay lanes judged no move that went unscored (unless the race ended first)."""
    started, _ = cluster
    with ThreadPoolExecutor(1) as pool:  # an event loop of its own
        report = pool.submit(
            asyncio.run,
            run_races(
                started.web_urls,
                races=5,
                racers=5,
                think=(0.2, 0.6),
                ramp=1.0,
                pids=cluster_pids(started),
                idle_seconds=1.0,
            ),
        ).result()
    assert lost(report) == 0, report
    assert report["races_run"] == 5 and report["scored"] >= 50, report
    assert set(report["errors"]) <= {"the race ended before that move was judged"}, report
    assert report["seen"] == 4 * report["scored"]  # each move seen by the 4 others
    assert report["cpu_per_race"] > 0 and report["p95_ms"] < 1000, report


def test_stopping_the_workers_ends_a_running_search_with_a_word_to_its_player(cluster):
    """Ctrl-C of the cluster: a worker mid-search stops at once and its player hears why,
    where supervisord used to kill it without a word after its 10 s ``stopwaitsecs``.
    Last in this module: the workers stay stopped."""
    started, _ = cluster
    client = connect(cluster)
    client.emit("solve", {"game": "klotski", "board": TEN_SECONDS, "id": "s"})
    client.wait("progress", timeout=30)
    assert _worker_running_a_job(started) is not None
    began = time.monotonic()
    assert "stopped" in started.ctl("stop", "workers")
    assert time.monotonic() - began < 5
    name, reply = client.wait(ANSWERS, timeout=10)
    assert (name, reply["id"], reply["message"]) == ("error", "s", CLOSING_MESSAGE)
