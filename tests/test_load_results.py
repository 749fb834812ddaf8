"""The load tool's results flood against a live server: 120 players from 120 addresses
submit daily lines, every one is stored, and the leaderboard counts all 120 players (more
than its first page's 100 rows, which it fills). ``make load`` floods with 200."""

import asyncio
import json
import threading
import time
import urllib.request

import pytest

from loadtest.results import submissions
from webapp.players.leaderboards import LEADERBOARD_SIZE

#: a crowd of players on one server: never beside other tests (it failed beside them)
pytestmark = pytest.mark.serial

#: more players than a leaderboard page has rows, so the page is full and the count beyond it
PLAYERS = 120


def test_the_results_flood_stores_every_submission(live_server):
    figures: dict = {}
    flood = submissions(live_server, figures, PLAYERS)

    async def run():
        stop = asyncio.Event()
        task = asyncio.ensure_future(flood(stop))
        while figures["started"] is None:  # the daily is made (a worker process starts)
            await asyncio.sleep(0.1)
        # every player opens the daily and submits at least once (each starts within 3 s,
        # then waits for its daily and its replay on a machine busy with all of them)
        deadline = time.monotonic() + 60
        while len(figures["submitters"]) < PLAYERS and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        stop.set()
        await asyncio.wait_for(task, 120)

    # a thread of its own: Playwright's sync API keeps an event loop running in this one
    thread = threading.Thread(target=lambda: asyncio.run(run()))
    thread.start()
    thread.join(180)
    assert not thread.is_alive()
    assert figures["statuses"] == {}, figures["statuses"]
    assert figures["stored"] >= PLAYERS
    with urllib.request.urlopen(f"{live_server}/api/leaderboard/npuzzle", timeout=30) as reply:
        board = json.loads(reply.read())
    assert PLAYERS > LEADERBOARD_SIZE  # the first page full, the count beyond it
    assert board["players"] >= PLAYERS and len(board["entries"]) == LEADERBOARD_SIZE
