"""The ladder in Chromium: the lobby's ladder link opens the player's next puzzle as a
ranked one, its finish shows how the rating moved and is scored from the server's
answer, and "Next puzzle" brings another."""

import re

import pytest
from helpers.browser import GamePage, engine_solution, finish_shown, slide_to
from helpers.npuzzle import line_home, reference_distances, tiles_of
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _solve_here(view):
    board = view.state()
    _moves, states = engine_solution("npuzzle", board)
    for after in states[1:]:
        slide_to(view, after)
    return board


def test_the_ladder_serves_a_ranked_puzzle_rates_the_finish_and_serves_the_next(page, live_server):
    """At a desktop's width, then the next puzzle at a phone's."""
    page.set_viewport_size({"width": 1280, "height": 844})
    view = GamePage(page, live_server)
    view.game = "npuzzle"
    page.goto(live_server + "/")
    page.get_by_test_id("ladder-npuzzle").click()
    page.wait_for_url(re.compile(r"/play/npuzzle\?board=.+&ladder=1"))
    view.wait_for_controller()
    expect(view.testid("open-coach")).to_be_visible()  # ranked: the coach waits for the finish
    first = _solve_here(view)
    view.wait_status("solved")
    expect(view.testid("rating")).to_have_text(re.compile(r"^1500 → \d+$"), timeout=10_000)
    after = int(view.testid("rating").inner_text().split("→")[1])
    assert after > 1500  # solved in the fewest moves, unaided: the rating rises

    page.set_viewport_size({"width": 390, "height": 844})
    view.testid("next-puzzle").click()
    page.wait_for_url(re.compile(r"/play/npuzzle\?board=.+&ladder=1"))
    view.wait_for_controller()
    assert view.state() != first  # never the same puzzle twice
    me = page.request.get(live_server + "/api/player").json()
    assert round(me["ratings"]["npuzzle"]["rating"]) == after
    expect(view.testid("open-coach")).to_be_visible()
    _solve_here(view)
    view.wait_status("solved")
    expect(view.testid("rating")).to_have_text(re.compile(rf"^{after} → \d+$"), timeout=10_000)
    expect(view.testid("next-puzzle")).to_be_visible()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the ladder page is {overflow} px wider than the screen"
    view.assert_no_errors()


def test_a_ladder_finish_is_scored_from_the_servers_answer(page, live_server):
    """The moment the server's answer shows (the rating), the finish says what it proved:
    the accuracy and stars of the moves made against the proven fewest, "optimal N", as a
    daily's finish does from the fewest its page was given. The solver's analyses are
    held back here, so nothing but the server's answer can score it."""
    view = GamePage(page, live_server)
    view.game = "npuzzle"
    page.goto(live_server + "/play/npuzzle?ladder=1")
    page.wait_for_url(re.compile(r"/play/npuzzle\?board=.+&ladder=1"))
    view.wait_for_controller()
    page.evaluate("window.arcade.link.socket.off('analysis')")
    line = line_home(view.state(), detour=True)  # two moves over the shortest
    shortest = reference_distances()[tiles_of(line[0])]
    for after in line[1:]:
        slide_to(view, after)
    expect(view.testid("rating")).to_be_visible(timeout=10_000)
    percent, stars = finish_shown(shortest, len(line) - 1)
    assert view.testid("accuracy").inner_text() == percent
    assert view.testid("stars").inner_text() == stars
    assert f"optimal {shortest}" in view.testid("status").inner_text()
    assert view.testid("best").inner_text() == str(shortest)
    view.assert_no_errors()
