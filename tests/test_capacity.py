"""Thousands of idle players on one production server (gunicorn's gevent worker).

3,000 idle websocket players from 60 loopback addresses are held while a canary
from another address times an ``analyse`` and page loads; the web process keeps
few threads and little memory per player. One address trying 300 sockets gets
``MAX_CLIENTS_PER_ADDRESS`` of them and the rest are told at once.
"""

import asyncio

import aiohttp
import pytest
from helpers.crowds import CrowdLoop, capacity_server, ready, wait_for_players

from loadtest.capacity import TOLD_WITHIN, Crowd, run_capacity, tally, time_canary
from webapp.live.admission import ADDRESS_MESSAGE, TRANSPORTS_PER_PLAYER

# timed and crowded: runs alone (make test), so the parallel half cannot slow it
pytestmark = [pytest.mark.slow, pytest.mark.serial]

PER_ADDRESS = 100  # the default


@pytest.fixture(scope="module")
def server():
    process, url = capacity_server({})
    loop = CrowdLoop()
    warm = loop.run(time_canary(url, "127.0.5.250", rounds=1))  # builds the canary's table
    assert warm["connected"] and warm["wrong"] == 0, warm
    yield url, process.pid, loop
    loop.close()
    process.terminate()
    process.wait(30)


def test_three_thousand_idle_players_cost_no_thread_each(server):
    url, pid, loop = server
    report = loop.run(run_capacity(url, players=3000, addresses=60, server_pid=pid))
    assert (report["admitted"], report["told"], report["failed"]) == (3000, 0, 0), report
    assert report["still_connected"] == 3000
    canary = report["canary"]
    assert canary["connected"] and canary["wrong"] == 0, canary
    assert canary["analyse_p50_ms"] < 100, canary
    assert canary["page_p50_ms"] < 300, canary
    web = report["web"]
    assert web["threads_held"] < 500, web
    assert web["kb_per_player"] < 100, web
    wait_for_players(url, 0)


def test_one_address_gets_its_share_and_the_rest_are_told_at_once(server):
    url, _, loop = server
    wait_for_players(url, 0, timeout=60)  # the previous crowd has gone
    crowd = Crowd(url)
    try:
        outcomes = loop.run(crowd.arrive_all(["127.0.6.1"] * 300))
        figures = tally(outcomes)
        assert (figures["admitted"], figures["told"], figures["failed"]) == (
            PER_ADDRESS,
            300 - PER_ADDRESS,
            0,
        ), figures
        assert figures["reasons"] == [ADDRESS_MESSAGE]
        assert figures["slowest_refusal_s"] < TOLD_WITHIN  # at once: typically under 1 s
        held = ready(url)
        assert held["players"] == PER_ADDRESS and held["max_clients_per_address"] == PER_ADDRESS
        # another address is still welcome
        other = loop.run(crowd.arrive("127.0.6.2"))
        assert other.kind == "admitted", other
    finally:
        loop.run(crowd.close())
    wait_for_players(url, 0)


def test_transports_that_never_join_are_capped_per_address(server):
    """Raw Engine.IO websockets that never ask to play: one address gets four times its
    player share of them, then Engine.IO refuses the rest at once."""
    url, _, loop = server

    async def flood(count: int) -> tuple[int, int]:
        connector = aiohttp.TCPConnector(local_addr=("127.0.6.3", 0), limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            address = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"

            async def one():
                try:
                    ws = await session.ws_connect(address)
                except aiohttp.WSServerHandshakeError:
                    return None
                await asyncio.wait_for(ws.receive(), 10)  # Engine.IO open
                return ws

            sockets = await asyncio.gather(*(one() for _ in range(count)))
            kept = [ws for ws in sockets if ws is not None]
            for ws in kept:
                await ws.close()
            return len(kept), count - len(kept)

    assert loop.run(flood(TRANSPORTS_PER_PLAYER * PER_ADDRESS + 50)) == (
        TRANSPORTS_PER_PLAYER * PER_ADDRESS,
        50,
    )
