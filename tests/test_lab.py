"""The solver lab's ``lab_run``: algorithms race on one board in a solver process, each
streaming ``lab_progress`` and ending with a ``lab_result`` whose positions are the
CLI's own count; ``lab_cancel`` silences the run, and a bad request is one ``error``."""

import json
import random
import time

import pytest
from helpers.npuzzle import scramble
from helpers.sockets import LONG

from solver.cli import main

pytestmark = pytest.mark.app(SOLVE_SECONDS=20, RATE_LIMIT=0)


def cli_report(board: str, algorithm: str, capsys) -> dict:
    assert main(["solve", "npuzzle", board, "--algorithm", algorithm, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_each_algorithm_streams_then_ends_with_the_clis_count(inbox, capsys):
    # 22 moves: breadth-first takes half a second or more, so it reports on the way
    board = " ".join(map(str, scramble(3, 60, random.Random(3))))
    racers = ["bfs", "astar", "bidirectional", "seed-bfs"]
    inbox.client.emit(
        "lab_run", {"game": "npuzzle", "board": board, "algorithms": racers, "id": "race"}
    )
    results = {}
    while len(results) < len(racers):
        _, result = inbox.wait("lab_result", timeout=30)
        assert result["id"] == "race" and result["game"] == "npuzzle"
        results[result["algorithm"]] = result
    streamed = [p for name, p in inbox.events if name == "lab_progress"]
    assert streamed, "breadth-first ran for half a second without a lab_progress"
    for line in streamed:
        assert {"algorithm", "nodes", "frontier", "depth", "elapsed", "stored"} <= set(line)
        done = results[line["algorithm"]]
        assert 0 < line["nodes"] <= done["nodes"]
        # memory: the entries held then, each the size the result's peak is counted in
        assert 0 < line["stored"] <= done["stored"]
        assert line["memory"] * done["stored"] == done["memory"] * line["stored"]
    for name in racers:
        printed = cli_report(board, name, capsys)
        assert results[name]["nodes"] == printed["stats"]["nodes"], name
        assert results[name]["length"] == printed["length"] and results[name]["optimal"]
        assert results[name]["states"] == printed["states"]
        assert results[name]["stored"] == printed["stats"]["stored"] >= results[name]["nodes"]
        assert results[name]["memory"] == printed["stats"]["memory"] > 0
    assert results["astar"]["nodes"] < results["bfs"]["nodes"]


@pytest.mark.parametrize("stop", ["lab_cancel", "leave"])
def test_lab_cancel_or_leaving_stops_every_algorithm(app, inbox, stop):
    inbox.client.emit("lab_run", {**LONG, "algorithms": ["bfs", "dfs"], "id": "stop"})
    reporting = set()
    while reporting != {"bfs", "dfs"}:
        reporting.add(inbox.wait("lab_progress", timeout=10)[1]["algorithm"])
    if stop == "leave":
        inbox.client.disconnect()
    else:
        inbox.client.emit("lab_cancel", {})
        assert inbox.quiet_for(0.8, names=("lab_result", "lab_progress", "error")) == []
    jobs = app.extensions["jobs"]
    deadline = time.monotonic() + 3
    while jobs.busy_clients() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert jobs.busy_clients() == 0, "the cancelled race kept searching"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"algorithms": ["bfs", "dijkstra"]}, "dijkstra"),
        ({"algorithms": ["bfs"]}, "2 to 4"),
        ({"algorithms": ["bfs", "dfs", "astar", "idastar", "bidirectional"]}, "2 to 4"),
        ({"algorithms": ["bfs", "bfs"]}, "once"),
        ({"algorithms": "bfs,astar"}, "list"),
        (
            {"game": "jugs", "board": "0/3,0/5,8/8", "algorithms": ["bfs", "bidirectional"]},
            "undone",
        ),
        ({"board": "1 2 3"}, "tiles"),
    ],
)
def test_a_bad_lab_run_is_one_error_naming_the_problem(inbox, change, words):
    payload = {"game": "npuzzle", "board": "1 2 3 4 5 6 7 0 8", "algorithms": ["bfs", "astar"]}
    inbox.client.emit("lab_run", {**payload, **change})
    _, error = inbox.wait("error", timeout=10)
    assert error["event"] == "lab_run" and words in error["message"], error
    assert inbox.quiet_for(0.1, names=("lab_result", "error")) == []


def test_the_lab_page_names_its_run_and_a_bad_query_is_a_400_saying_why(client):
    page = client.get("/lab?game=npuzzle&board=1 2 3 4 5 6 7 0 8&algorithms=bfs,idastar")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    config = json.loads(text.split('id="config" type="application/json">')[1].split("</script>")[0])
    assert config["game"] == "npuzzle" and config["algorithms"] == ["bfs", "idastar"]
    assert config["board"] == "1 2 3 4 5 6 7 0 8" and config["unfit"] == ["seed-astar"]
    refused = client.get("/lab?game=jugs&board=0/3,0/5,8/8&algorithms=bfs,bidirectional")
    assert refused.status_code == 400
    assert "bidirectional search needs moves that can be undone" in refused.get_data(as_text=True)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_flood_of_refused_lab_runs_writes_a_line_a_minute_per_client(caplog, monkeypatch):
    """Issue 46: every refused ``lab_run`` wrote a WARNING (593 lines/s from one
    address). A client's refusals now write one line a minute, the next one counting
    those left out; another client still gets its own line."""
    import logging

    from helpers.apps import make_app
    from helpers.sockets import Inbox

    import webapp.jobs.core as core
    from webapp.guard.quiet import RefusalLog

    clock = Clock()
    monkeypatch.setattr(core, "refusals", RefusalLog(core.log, clock=clock))
    app = make_app(LONG_QUEUE=0, RATE_LIMIT=0)  # the long lane refuses every job
    sio = app.extensions["socketio"]
    flooder, other = (Inbox(sio.test_client(app)) for _ in range(2))
    run = {**LONG, "algorithms": ["bfs", "dfs"]}
    caplog.set_level(logging.WARNING, logger="webapp")

    def refused_lines():
        return [r.getMessage() for r in caplog.records if "rejected by" in r.getMessage()]

    try:
        for turn in range(200):
            flooder.client.emit("lab_run", {**run, "id": turn})
        flooder.wait("error", where=lambda p: p["id"] == 199)
        assert len(refused_lines()) == 1
        other.client.emit("lab_run", {**run, "id": "x"})
        other.wait("error")
        assert len(refused_lines()) == 2  # another client's first refusal is its own line
        clock.now += 61
        flooder.client.emit("lab_run", {**run, "id": "later"})
        flooder.wait("error", where=lambda p: p["id"] == "later")
        lines = refused_lines()
        assert len(lines) == 3 and "and 199 more refusals" in lines[-1]
    finally:
        for inbox in (flooder, other):
            inbox.client.disconnect()
        app.extensions["jobs"].shutdown(1.0)
