"""The attacks of issue 46 replayed against one production server (gunicorn's gevent
worker), each for a few seconds (:mod:`loadtest.attacks`), while a probe on another
loopback address asks ``/healthz`` every 50 ms: each defence holds, by the figures the
scenario measured, and no two answers of the probe are more than 150 ms apart.

The module's server is started once, with gevent's monitor watching its loop; a
scenario that failed says so with the monitor's reports of a blocked loop.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from helpers.gevent_server import GeventServer

from loadtest.attacks import MAX_GAP_MS, SCENARIOS, SERVER_ENV, Target, run_attacks

# timed (the probe's gaps): runs alone (make test), never beside the parallel half
pytestmark = pytest.mark.serial

#: seconds each flood lasts here (the load tool's --flood-seconds; 3 by default)
SECONDS = 2.0
#: the graph flood's graph here: 5,184 positions, a few tenths of a second of the page
#: worker (the load tool floods the classic Klotski graph, 2.7 s each)
GRAPH = "/api/graph/jugs?board=0/5,0/7,0/11,0/13,36/36&goal=*,*,*,*,1"
#: scenario -> its row of the report, printed when the module ends
FIGURES: dict[str, dict] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("attacks")
    started = GeventServer(folder, env={**SERVER_ENV, "ARCADE_LOG_LEVEL": "WARNING"})
    yield started
    started.stop()
    print("\nattacks: held, /healthz's largest gap, seconds, loop blocks seen, what held")
    for name, row in FIGURES.items():
        gap = row["healthz"].get("max_gap_ms")
        print(
            f"  {name}: {row['held']}, {gap} ms, {row['seconds']} s, "
            f"{len(row['blocks'])}: {row['says']}"
        )


def _attack(server: GeventServer, name: str) -> dict:
    target = Target(
        server.url,
        log=server.log,
        database=server.folder / "data" / "arcade.sqlite3",
        seconds=SECONDS,
        graph=GRAPH,
        first_address=f"127.0.{30 + list(SCENARIOS).index(name)}.1",  # each its own
    )
    mark = server.mark()
    # a thread of its own: Playwright's tests may leave an event loop on this one
    with ThreadPoolExecutor(1) as pool:
        row = pool.submit(asyncio.run, run_attacks(target, [name])).result()[name]
    FIGURES[name] = row
    row["blocks"] = server.blocks(mark)
    return row


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_each_attack_is_held_and_healthz_answers_every_150_ms(server, name):
    row = _attack(server, name)
    blocked = f"; the loop was blocked:\n{row['blocks'][0]}" if row["blocks"] else ""
    assert row["held"], row["says"] + blocked
    health = row["healthz"]
    assert health["answers"] >= 10 and health["failed"] == 0, health
    assert health["max_gap_ms"] <= MAX_GAP_MS, f"{health}{blocked}"
