"""The player's page in Chromium at 1280 and 390 px: two ladder puzzles played through
the API with the page's cookie, then the rating, its line's points, the recovery code
made only on a click, and the lobby's ladder link with the rating."""

import re

import pytest
from helpers.browser import engine_solution
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _overflow(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def test_the_player_page_shows_ratings_history_and_the_code_behind_a_click(page, live_server):
    page.set_viewport_size({"width": 1280, "height": 844})
    page.goto(live_server + "/")
    after = None
    for _ in range(2):
        puzzle = page.request.post(live_server + "/api/ladder/npuzzle", data={}).json()
        _moves, states = engine_solution("npuzzle", puzzle["board"])
        body = {
            "game": "npuzzle",
            "board": puzzle["board"],
            "options": puzzle["options"],
            "states": states,
            "seconds": 5,
            "assisted": False,
        }
        reply = page.request.post(live_server + "/api/results", data=body).json()
        after = reply["rating"]["after"]
    page.goto(live_server + "/player")
    rating = page.get_by_test_id("player-rating")
    expect(rating).to_have_count(1)
    expect(rating).to_have_attribute("data-game", "npuzzle")
    expect(rating).to_have_attribute("data-rating", str(after))
    expect(page.get_by_test_id("rating-history")).to_have_attribute("data-points", "2")
    expect(page.get_by_test_id("strengths")).to_contain_text("None yet")
    code = page.get_by_test_id("recovery-code")
    expect(code).to_be_hidden()
    assert not code.inner_text()  # never in the page until asked for
    page.get_by_test_id("show-code").click()
    expect(code).to_be_visible()
    expect(code).to_have_text(re.compile(r"\S{8,}"))
    moved = page.request.post(live_server + "/api/player/restore", data={"code": code.inner_text()})
    assert moved.ok
    assert _overflow(page) <= 0

    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_test_id("rating-history")).to_be_visible()
    assert _overflow(page) <= 0, "the player's page is wider than a phone"
    page.goto(live_server + "/")
    mark = page.get_by_test_id("ladder-rating-npuzzle")
    expect(mark).to_have_text(f"· rating {after}")
    expect(page.get_by_test_id("ladder-npuzzle")).to_contain_text("Continue the ladder")
    assert _overflow(page) <= 0
