"""A new server's first minute, as a new player meets it: ``python -m webapp`` on a
machine with no tables yet (an empty cache folder).

The server builds the first minute's tables (the 8-puzzle's, the classic Klotski
level's), starts its solver processes, then builds the biggest tables behind them.
Meanwhile the page says the solver is warming up, ``/readyz`` says ``warming`` (503),
an answer that needs a table still being built says so at once, and the 8-puzzle's
and Klotski's first analyses come within seconds, not after every table is built.
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers.browser import GamePage
from helpers.npuzzle import reference_distances, tiles_of
from helpers.sockets import LiveClient
from playwright.sync_api import expect

from harness.loopback import free_port
from webapp.jobs.model import WARMING_MESSAGE

# timed and alone: the builds use both cores (make test runs serial tests by themselves)
pytestmark = pytest.mark.serial

#: a player's first analyses come within this of the page, on an empty cache
FIRST_ANSWER_SECONDS = 20
EIGHT = "1 2 3 4 5 6 0 7 8"
KLOTSKI = "BAAC/BAAC/DEEF/DGHF/I..J"
#: far from solved: its analysis needs the 15-puzzle's pattern databases
FIFTEEN = "5 1 2 3 9 6 7 4 13 10 11 8 14 15 12 0"


def _get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _page(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status


def _children_using(cache):
    """Processes still running with ``cache`` as their table folder (a leftover build)."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if f"PUZZLE_ARCADE_CACHE={cache}".encode() in environ.read_bytes().split(b"\0"):
                found.append(environ.parent.name)
        except OSError:
            continue
    return found


@pytest.fixture()
def new_server(tmp_path):
    cache = tmp_path / "tables"
    cache.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PUZZLE_ARCADE_CACHE": str(cache),
        "ARCADE_DATA_DIR": str(tmp_path / "data"),
        "ARCADE_LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "webapp", "--port", str(port)], env=env, stdin=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            _page(f"{url}/healthz")
            break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.1)
    yield url, cache
    process.send_signal(signal.SIGTERM)
    process.wait(30)
    deadline = time.monotonic() + 10
    while _children_using(cache) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _children_using(cache), "a table build outlived the server"


def test_a_new_server_answers_the_first_minute_honestly_and_soon(new_server, page):
    url, _ = new_server
    served = time.monotonic()
    view = GamePage(page, url).open("npuzzle", EIGHT, wait_analysis=False)
    status, ready = _get(f"{url}/readyz")
    assert (status, ready["status"]) == (503, "warming"), ready
    assert min(lane["ready"] for lane in ready["lanes"].values()) == 0
    expect(view.testid("solver-status")).to_be_visible()

    client = LiveClient(url)
    try:
        name, said = client.wait("solver_status", timeout=5)
        assert said == {"warming": True, "building": True}
        answers = {}
        for game, board in (("npuzzle", EIGHT), ("klotski", KLOTSKI)):
            client.emit("analyse", {"game": game, "board": board, "id": game})
            _, answer = client.wait(
                "analysis", timeout=FIRST_ANSWER_SECONDS, where=lambda p, g=game: p["id"] == g
            )
            answers[game] = answer
        first_answers = time.monotonic() - served
        assert first_answers < FIRST_ANSWER_SECONDS, first_answers
        assert answers["npuzzle"]["distance"] == reference_distances()[tiles_of(EIGHT)]
        assert answers["npuzzle"]["optimal"] is True
        # the classic level's proven shortest, counting a piece's slide as one move
        assert (answers["klotski"]["distance"], answers["klotski"]["optimal"]) == (81, True)
        # the page shows its first rating in the same time, and stops saying it waits
        expect(view.testid("distance")).not_to_have_text("evaluating…", timeout=10_000)
        expect(view.testid("solver-status")).to_be_hidden()

        # a lane up for each kind of job: ready, and every page heard it
        deadline = time.monotonic() + 30
        while _get(f"{url}/readyz")[0] != 200:
            assert time.monotonic() < deadline, "the lanes never got ready"
            time.sleep(0.2)
        _, said = client.wait("solver_status", timeout=5, where=lambda p: not p["warming"])

        # the 15-puzzle's databases: answered at once, either from them or saying they build
        asked = time.monotonic()
        client.emit("analyse", {"game": "npuzzle", "board": FIFTEEN, "id": "fifteen"})
        name, answer = client.wait(  # an interim quick hint may come first: a bound
            ("analysis", "error"),
            timeout=15,
            where=lambda p: p.get("id") == "fifteen" and p.get("final") is not False,
        )
        if said["building"]:
            assert (name, answer["message"]) == ("error", WARMING_MESSAGE), answer
            assert time.monotonic() - asked < 5
    finally:
        client.close()
