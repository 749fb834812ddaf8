"""A short, bounded run of the shipped load test (``make load`` runs the full one).

20 simulated players for 7 seconds against a real server process: every answer
must arrive, match its request (id, board, solution length = analysed distance)
and no cancelled job may answer; analysis stays fast. The full figures (200
players, soak) are in docs/performance.rst.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.sockets import LiveClient

from loadtest.players import EIGHT_START, klotski_levels, run_load, start_server

# timed: runs alone (make test), so the parallel half of the suite cannot slow it
pytestmark = pytest.mark.serial

LEVELS = 3


@pytest.fixture(scope="module")
def server():
    env = {
        "ARCADE_PREBUILD_TABLES": "0",
        "ARCADE_QUICK_WORKERS": "1",
        "ARCADE_LONG_WORKERS": "1",
        "ARCADE_SOLVE_SECONDS": "20",
    }
    process, url = start_server(env, ready_timeout=60, wait_for_workers=False)
    # tables are built on first use here; warm the ones the players will look up
    client = LiveClient(url)
    boards = [("npuzzle", EIGHT_START)] + [("klotski", b) for b in klotski_levels(LEVELS)]
    for game, board in boards:
        client.emit("analyse", {"game": game, "board": board, "id": board})
        client.wait("analysis", timeout=60, where=lambda p, b=board: p["id"] == b)
    client.close()
    yield url, process.pid
    process.terminate()
    process.wait(30)


def test_twenty_players_get_every_answer_right_and_fast(server):
    url, pid = server
    # a thread of its own: Playwright's tests may leave an event loop on this one
    with ThreadPoolExecutor(1) as pool:
        report = pool.submit(
            asyncio.run,
            run_load(
                url,
                clients=20,
                duration=7,
                seed=5,
                timeout=20,
                server_pid=pid,
                memory_every=1,
                levels=LEVELS,
            ),
        ).result()
    assert report["faults"] == []
    assert (report["lost"], report["mismatched"], report["stale"]) == (0, 0, 0)
    assert report["connect_failures"] == 0 and report["errors"] == {}
    analysis = report["latency"]["analysis"]
    assert analysis["count"] >= 100
    assert analysis["p95_ms"] < 1000  # ~10 ms on a quiet machine; CI is noisy
    assert report["latency"]["solution"]["count"] >= 1
    assert report["cancels"] + report["walkaways"] >= 1
    assert report["server_after"]["busy_clients"] == 0
    assert report["server_after"]["clients"] == 0
    samples = report["memory_mb"]
    assert len(samples) >= 3 and all(total >= web > 0 for _, total, web in samples)
