"""Streak and storm in Chromium, at a desktop's and a phone's width: a streak ended by a
move proven longer, which the page shows with a closer one; a storm's clock and the
seconds a longer move costs (the server's constants). Every move is the reference
rules' (helpers.npuzzle)."""

import re

import pytest
from helpers.browser import GamePage, slide_to
from helpers.npuzzle import neighbour
from playwright.sync_api import expect

from webapp.players.runs import PENALTY_SECONDS, STORM_SECONDS

pytestmark = pytest.mark.browser


def _begin(view):
    """Start a new run on this page (the last one may still show, over)."""
    view.testid("run-start").click()
    expect(view.testid("status")).to_contain_text("Solve it in")


def _slide(view, after: str) -> None:
    """Slide the tile that reaches ``after`` and wait for the server's judgement (the
    board is busy meanwhile; a solving move brings the next puzzle at once)."""
    slide_to(view, after, wait=False)
    expect(view.board).to_have_attribute("aria-busy", "false")


def _seconds(view) -> int:
    return int(view.testid("storm-clock").inner_text())


def test_a_streak_ends_at_a_proven_mistake_and_a_storm_charges_ten_seconds(page, live_server):
    view = GamePage(page, live_server)
    view.game = "npuzzle"
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(live_server + "/")
        page.get_by_test_id("streak-npuzzle").click()
        page.wait_for_url(re.compile(r"/streak/npuzzle$"))
        _begin(view)
        _slide(view, neighbour(view.state(), -1))  # the first puzzle: one move
        expect(view.testid("streak-count")).to_have_text("1")
        expect(view.testid("best")).to_have_text("2")  # the next is a little harder
        wrong = neighbour(view.state(), +1)
        _slide(view, wrong)
        over = view.testid("streak-over")
        expect(over).to_be_visible()
        expect(over).to_contain_text("2 → 3 moves to solve")
        # plain words (issue 47: "Better: 2 right (4 left)" read like a move)
        expect(over).to_contain_text(
            re.compile(
                r"The best move there was \d+ (up|down|left|right): it leaves 1 move to solve\."
            )
        )
        assert view.state() == wrong and view.testid("streak-count").inner_text() == "1"
        view.screenshot(f"streak-over-{width}.png")

        page.goto(live_server + "/storm/npuzzle")
        _begin(view)
        expect(view.testid("storm-score")).to_have_text("0")
        assert STORM_SECONDS - 10 < _seconds(view) <= STORM_SECONDS
        _slide(view, neighbour(view.state(), +1))
        expect(view.testid("status")).to_contain_text(f"−{PENALTY_SECONDS} seconds")
        assert (
            STORM_SECONDS - PENALTY_SECONDS - 10 < _seconds(view) <= STORM_SECONDS - PENALTY_SECONDS
        )
        while view.testid("storm-score").inner_text() == "0":
            _slide(view, neighbour(view.state(), -1))
            expect(view.testid("status")).not_to_contain_text(f"−{PENALTY_SECONDS}")
        assert (
            STORM_SECONDS - PENALTY_SECONDS - 20 < _seconds(view) <= STORM_SECONDS - PENALTY_SECONDS
        )
        view.screenshot(f"storm-{width}.png")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the storm page is {overflow} px wider than the screen"
    view.assert_no_errors()
