"""Searches that end without an answer (issue 34), at 1280 and 390 px: a 5x5 N-puzzle whose
search ends unproven shows its final bounds in words, and a board too big to solve within the
budget says so and shows what is known.

The server runs with short budgets, so every search here ends within seconds. What the page
shows is checked against what the server sent it (the frames on the websocket).
"""

import random
import re

import pytest
from helpers.apps import make_app, serving
from helpers.browser import Frames, GamePage
from helpers.npuzzle import scramble
from playwright.sync_api import expect

from solver.npuzzle import NPuzzle

pytestmark = pytest.mark.browser

#: a 5x5 board no search here proves (a 200-slide walk)
FIVE = NPuzzle().format(scramble(5, 200, random.Random(8)))
#: a 9x8 Klotski of 36 pieces: far too many positions to search in seconds
TOO_BIG = "BAACDDEE/BAACFGHH/IIJJFGKL/MNOOPPKL/MNQRSTUU/VVQRSTWX/YZ0123WX/YZ456789/........"
ANALYSE_SECONDS, SOLVE_SECONDS = 1, 3
WIDE, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def short_server():
    """A server whose searches give up within seconds (the quick lane's try included)."""
    app = make_app(
        ANALYSE_SECONDS=ANALYSE_SECONDS, SOLVE_SECONDS=SOLVE_SECONDS, ANALYSE_FAST_SECONDS=0.5
    )
    with serving(app) as url:
        yield url


def fits(view, testid):
    """The element's words stay inside it and it stays inside the panel."""
    node = view.testid(testid)
    inside = node.evaluate("e => e.scrollWidth <= e.clientWidth")
    right = node.bounding_box()["x"] + node.bounding_box()["width"]
    panel = view.page.locator(".panel").bounding_box()
    assert inside and right <= panel["x"] + panel["width"] + 0.5, f"{testid} overflows"


def test_a_5x5_search_that_ends_unproven_shows_its_final_bounds(page, short_server):
    page.set_viewport_size(WIDE)
    frames = Frames(page)
    view = GamePage(page, short_server).open("npuzzle", FIVE, wait_analysis=False)
    distance = view.testid("distance")
    # the final bounds in words replace the interim label
    expect(distance).to_have_text(
        re.compile(r"^between \d+ and \d+ moves to solve"), timeout=15_000
    )
    expect(distance).to_have_attribute("data-interim", "false")
    assert any(a["board"] == FIVE and a["final"] for a in frames.analyses)
    upper, lower = frames.bounds(FIVE)
    assert 0 < lower < upper
    expect(distance).to_have_text(
        f"between {lower} and {upper} moves to solve (best found; not proven)"
    )
    # no move left "? not rated": each unproven one says so, and the note says why
    options = view.testid("option")
    assert options.count() == len(list(NPuzzle().moves(NPuzzle().parse(FIVE))))
    for option in options.all():
        verdict = option.get_attribute("data-verdict")
        assert verdict in ("best", "worse", "unknown")
        if verdict == "unknown":
            expect(option.locator(".option-verdict")).to_have_text("? unproven")
    expect(view.testid("options")).to_contain_text("could not prove them within its budget")
    fits(view, "distance")
    # Solve's progress is the bounds the search has proven, not its raw depth
    view.click("solve")
    progress = view.testid("progress")
    shown = re.compile(r"best (\d+)(?:→[\d…]+)* moves, at least (\d+) · [\d,]+ positions")
    expect(progress).to_have_text(re.compile(shown.pattern), timeout=10_000)
    first, least = map(int, shown.search(progress.inner_text()).groups())
    sent = frames.of("progress")
    assert first == next(p["best"] for p in sent if "best" in p)
    assert least in {p["lower_bound"] for p in sent if "lower_bound" in p}
    assert "depth" not in progress.inner_text()
    view.click("cancel")
    # on a phone the words wrap inside the panel
    page.set_viewport_size(PHONE)
    expect(distance).to_contain_text(f"between {lower} and {upper} moves")
    fits(view, "distance")
    view.assert_no_errors()


def test_a_board_too_big_to_solve_says_so_and_what_is_known(page, short_server):
    page.set_viewport_size(WIDE)
    frames = Frames(page)
    view = GamePage(page, short_server).open("klotski", TOO_BIG, wait_analysis=False)
    view.click("hint")
    words = f"Too big to solve within the {ANALYSE_SECONDS} s budget: no solution among about "
    view.wait_status(words, timeout=15_000)
    (error,) = [e for e in frames.of("error") if e.get("event") == "analyse"]
    # the positions searched, rounded to two significant digits
    searched = int(
        re.search(r"about ([\d,]+) positions", view.testid("status").inner_text())[1].replace(
            ",", ""
        )
    )
    assert (
        len(str(searched).rstrip("0")) <= 2
        and abs(searched - error["nodes"]) <= error["nodes"] * 0.05
    )
    # what is known: the proven lower bound, in the distance line instead of "not evaluated"
    least = error["lower_bound"]
    assert least >= 1
    known = f"too big to solve within {ANALYSE_SECONDS} s: at least {least} move"
    expect(view.testid("distance")).to_contain_text(known)
    expect(view.testid("options")).to_have_text(
        f"Not rated: the board is too big to solve within {ANALYSE_SECONDS} s."
    )
    # no lone point that means nothing: the graph says why it is empty
    expect(view.testid("graph-point")).to_have_count(0)
    expect(view.testid("graph-note")).to_contain_text("too big to solve")
    expect(view.testid("best")).to_have_text(f"≥{least}")
    for testid in ("distance", "status"):
        fits(view, testid)
    # Solve stops at its own budget with the same honest words
    view.click("solve")
    expect(view.testid("progress")).to_contain_text("positions", timeout=10_000)
    view.wait_status(f"Too big to solve within the {SOLVE_SECONDS} s budget", timeout=20_000)
    expect(view.testid("progress")).to_have_text(f"search stopped after {SOLVE_SECONDS} s")
    expect(view.testid("distance")).to_contain_text(f"too big to solve within {SOLVE_SECONDS} s")
    page.set_viewport_size(PHONE)
    for testid in ("distance", "status", "options"):
        fits(view, testid)
    view.assert_no_errors()
