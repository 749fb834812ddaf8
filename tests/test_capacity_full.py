"""A full server says so: with ``ARCADE_MAX_CLIENTS=400``, 450 players arrive.

400 play, 50 are told "The server is full" at once, pages and ``/healthz``
answer while it is full, and a place freed goes to the next player; the play
page shows the refusal and its countdown, and gets in once there is room.
"""

import re
import time
import urllib.request

import pytest
from helpers.crowds import CrowdLoop, capacity_server, ready, wait_for_players

from loadtest.capacity import TOLD_WITHIN, Crowd, loopback_addresses, tally
from webapp.live.admission import FULL_MESSAGE

# timed and crowded: runs alone (make test), so the parallel half cannot slow it
pytestmark = [pytest.mark.slow, pytest.mark.serial]

LIMIT = 400


@pytest.fixture(scope="module")
def full():
    """A server holding 400 players (from 10 addresses, 40 each), and their crowd."""
    process, url = capacity_server({"ARCADE_MAX_CLIENTS": str(LIMIT)})
    loop = CrowdLoop()
    crowd = Crowd(url)
    addresses = loopback_addresses(10, "127.0.7.1")
    arriving = [addresses[i % 10] for i in range(450)]
    outcomes = loop.run(crowd.arrive_all(arriving))
    yield url, loop, crowd, tally(outcomes)
    loop.run(crowd.close())
    loop.close()
    process.terminate()
    process.wait(30)


def test_four_hundred_play_and_fifty_are_told_at_once(full):
    url, _, crowd, figures = full
    assert (figures["admitted"], figures["told"], figures["failed"]) == (LIMIT, 50, 0), figures
    assert figures["reasons"] == [FULL_MESSAGE]
    assert figures["slowest_refusal_s"] < TOLD_WITHIN  # at once: typically under 1 s
    held = ready(url)
    assert (held["players"], held["max_clients"]) == (LIMIT, LIMIT)
    assert crowd.connected() == LIMIT


def test_pages_and_health_answer_while_full(full):
    url, *_ = full
    for path in ("/healthz", "/readyz", "/", "/healthz"):
        started = time.monotonic()
        with urllib.request.urlopen(url + path, timeout=5) as response:
            assert response.status == 200
        # the lobby's first load renders its templates: a health check is the 1 s promise
        assert time.monotonic() - started < (1.0 if "healthz" in path else 3.0), path


def test_a_freed_place_goes_to_the_next_player(full):
    url, loop, crowd, _ = full
    refused = loop.run(crowd.arrive("127.0.7.20"))
    assert refused.kind == "told" and refused.reason == FULL_MESSAGE
    loop.run(crowd.leave(1))
    wait_for_players(url, LIMIT - 1)
    admitted = loop.run(crowd.arrive("127.0.7.20"))
    assert admitted.kind == "admitted", admitted
    wait_for_players(url, LIMIT)


@pytest.mark.browser
def test_the_page_says_the_server_is_full_and_gets_in_when_there_is_room(full, page):
    url, loop, crowd, _ = full
    wait_for_players(url, LIMIT)
    page.goto(url + "/play/npuzzle")
    status = page.get_by_test_id("status")
    status.filter(has_text=re.compile(r"The server is full; trying again in \d+ s")).wait_for(
        timeout=10_000
    )
    assert page.get_by_test_id("connection").get_attribute("data-up") == "false"
    loop.run(crowd.leave(1))
    # the first retry comes 4-6 s after the refusal
    page.locator("[data-testid='connection'][data-up='true']").wait_for(timeout=15_000)
    assert "The server is full" not in status.inner_text()
