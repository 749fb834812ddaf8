"""Ranked play in Chromium: the daily keeps the coach closed and asks the server nothing
until the finish (or the player opens it, unranked), and a reload mid-way keeps the
puzzle and the moves made, then the finish is submitted and ranked."""

import re

import pytest
from helpers.browser import GamePage, engine_solution, pour
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RANK = re.compile(r"^#\d+$")
#: the page's clock shows at least 0:02
SHOWS_TWO_SECONDS = """() => {
  const [m, s] = document.querySelector('[data-testid="timer"]').textContent.split(":").map(Number);
  return m * 60 + s >= 2;
}"""


def open_daily(page, base):
    daily = page.request.get(f"{base}/api/daily/jugs").json()
    moves, states = engine_solution("jugs", daily["board"], goal=daily["options"]["goal"])
    view = GamePage(page, base).open("jugs", daily=1, wait_analysis=False)
    assert view.state() == daily["board"]
    return view, moves, states


def asked(view):
    """How many requests the page sent to the solver."""
    return view.page.evaluate("window.arcade.link.sent.size")


def test_a_reload_mid_way_keeps_the_daily_and_its_moves_and_the_finish_is_ranked(page, live_server):
    view, moves, states = open_daily(page, live_server)
    half = len(moves) // 2
    for move, after in zip(moves[:half], states[1 : half + 1], strict=True):
        pour(view, move, after)
    assert "daily=1" in page.url and "board=" not in page.url
    page.reload()
    view.wait_state(states[half])
    assert view.moves() == half
    expect(view.testid("moves-line")).to_contain_text(f"Moves: {half}")
    page.goto(f"{live_server}/")  # away and Back: the same puzzle and moves again
    page.go_back()
    view.wait_state(states[half])
    assert view.moves() == half and "daily=1" in page.url
    for move, after in zip(moves[half:], states[half + 1 :], strict=True):
        pour(view, move, after)
    view.wait_status("solved")
    expect(view.testid("rank")).to_have_text(RANK, timeout=10_000)
    # the finish is on record: the coach opens (analysis after the game)
    expect(view.testid("graph-point")).to_have_count(len(states), timeout=10_000)
    # every position of the line is analysed now, one after another, for the review
    middle = page.locator(f'[data-testid="graph-point"][data-ply="{half}"]')
    expect(middle).to_have_attribute("data-distance", str(len(moves) - half), timeout=10_000)
    view.assert_no_errors()


def test_the_coach_stays_closed_in_a_ranked_daily_until_the_button(page, live_server):
    view, moves, states = open_daily(page, live_server)
    pour(view, moves[0], states[1])
    page.wait_for_timeout(500)
    assert asked(view) == 0  # no analyse: nothing about the attempt reached the solver
    expect(view.testid("option")).to_have_count(0)
    expect(view.testid("graph-point")).to_have_count(0)
    expect(view.testid("distance")).not_to_contain_text("to solve")
    expect(view.testid("ranked-state")).to_contain_text("Ranked attempt")
    expect(view.testid("open-coach")).to_be_visible()
    view.click("open-coach")
    expect(view.testid("option").first).to_be_visible(timeout=10_000)
    expect(view.testid("open-coach")).to_be_hidden()
    expect(view.testid("ranked-state")).to_contain_text("Unranked")
    for move, after in zip(moves[1:], states[2:], strict=True):
        pour(view, move, after)
    view.wait_status("solved")
    expect(view.testid("rank")).to_have_text("unranked", timeout=10_000)
    view.assert_no_errors()


def test_a_hint_during_a_ranked_daily_makes_the_result_unranked(page, live_server):
    view, moves, states = open_daily(page, live_server)
    expect(view.testid("hint")).to_have_attribute("title", re.compile("unranked"))
    view.follow_two_click_hint("jug")
    view.wait_state(states[1])
    for move, after in zip(moves[1:], states[2:], strict=True):
        pour(view, move, after)
    view.wait_status("solved")
    expect(view.testid("rank")).to_have_text("unranked", timeout=10_000)
    view.assert_no_errors()


def test_the_daily_clock_is_the_servers_from_the_page_opening(page, live_server):
    """The clock a ranked player sees is the attempt's, the one the leaderboard keeps: it
    runs from the moment the server handed the puzzle out (not from the first move), a
    reload does not set it back, and at the finish it shows the seconds ranked."""
    view, moves, states = open_daily(page, live_server)
    page.wait_for_timeout(2_500)
    assert view.moves() == 0
    page.wait_for_function(SHOWS_TWO_SECONDS, timeout=2_000)  # no move yet, the clock runs
    page.reload()
    view.wait_state(states[0])
    page.wait_for_function(SHOWS_TWO_SECONDS, timeout=2_000)
    for move, after in zip(moves, states[1:], strict=True):
        pour(view, move, after)
    view.wait_status("solved")
    expect(view.testid("rank")).to_have_text(RANK, timeout=10_000)
    board = page.request.get(f"{live_server}/api/leaderboard/jugs").json()
    ranked = board["me"]["best"]["seconds"]
    minutes, seconds = view.testid("timer").inner_text().split(":")
    assert abs(int(minutes) * 60 + int(seconds) - ranked) < 1.5, (ranked, minutes, seconds)
    view.assert_no_errors()
