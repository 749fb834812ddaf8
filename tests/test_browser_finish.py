"""One finish for every board on a page, in Chromium: the daily, a level, the ladder, a
streak, a storm and a race each score a solved puzzle the same way from the same facts,
its proven fewest moves and the moves made (accuracy by the server's rule, the stars the
page gives it). Lines with a move away and back show a score below 100% wherever the
mode lets a line be longer than the shortest (a streak ends at such a move). The
N-puzzle's lines are the reference rules' (helpers.npuzzle), the jugs' the solver's."""

import re

import pytest
from helpers.browser import GamePage, engine_solution, finish_shown, pour, slide_to
from helpers.npuzzle import line_home, reference_distances, tiles_of
from playwright.sync_api import expect

from solver import catalogue

pytestmark = pytest.mark.browser


def shortest_of(board: str) -> int:
    return reference_distances()[tiles_of(board)]


def expect_finish(view, shortest: int, length: int) -> None:
    percent, stars = finish_shown(shortest, length)
    expect(view.testid("result")).to_be_visible(timeout=10_000)
    expect(view.testid("accuracy")).to_have_text(percent, timeout=10_000)
    expect(view.testid("stars")).to_have_text(stars)


def judged_slide(view, after: str) -> None:
    """A slide the server judges: wait until it answered (the board takes moves again)."""
    slide_to(view, after, wait=False)
    expect(view.board).to_have_attribute("aria-busy", "false")


def test_every_mode_finishes_with_the_same_accuracy_and_stars(page, live_server):
    view = GamePage(page, live_server)
    view.game = "npuzzle"

    # the daily (its proven shortest in the page), with a move away and back
    daily = page.request.get(f"{live_server}/api/daily/npuzzle").json()
    view.open("npuzzle", daily=1, wait_analysis=False)
    line = line_home(daily["board"], detour=True)
    for after in line[1:]:
        slide_to(view, after)
    view.wait_status("solved")
    expect(view.testid("rank")).to_have_text(re.compile(r"^#\d+$"), timeout=10_000)
    expect_finish(view, daily["shortest"], len(line) - 1)

    # a shipped level, solved in its fewest moves
    jugs = catalogue.get("jugs")
    level = jugs.levels()[0]
    view.open("jugs", level=f"{level['pack']}/1", wait_analysis=False)
    options = {k: v for k, v in jugs.full_options(level.get("options")).items() if v is not None}
    moves, states = engine_solution("jugs", view.state(), **options)
    for move, after in zip(moves, states[1:], strict=True):
        pour(view, move, after)
    view.wait_status("solved")
    expect(view.testid("rank")).to_have_text(re.compile(r"^#\d+$"), timeout=10_000)
    expect_finish(view, len(moves), len(moves))

    # the ladder (the shortest known to the server only), with a move away and back
    page.goto(f"{live_server}/play/npuzzle?ladder=1")
    page.wait_for_url(re.compile(r"/play/npuzzle\?board=.+&ladder=1"))
    view.wait_for_controller()
    line = line_home(view.state(), detour=True)
    for after in line[1:]:
        slide_to(view, after)
    expect(view.testid("rating")).to_be_visible(timeout=10_000)
    expect_finish(view, shortest_of(line[0]), len(line) - 1)

    # a streak: every move one closer, so its finish is a perfect one
    page.goto(f"{live_server}/streak/npuzzle")
    view.testid("run-start").click()
    expect(view.testid("status")).to_contain_text("Solve it in")
    line = line_home(view.state())
    for after in line[1:]:
        judged_slide(view, after)
    expect(view.testid("streak-count")).to_have_text("1")
    expect_finish(view, len(line) - 1, len(line) - 1)

    # a storm, with a move away (it costs seconds) and back
    page.goto(f"{live_server}/storm/npuzzle")
    view.testid("run-start").click()
    expect(view.testid("status")).to_contain_text("Solve it in")
    line = line_home(view.state(), detour=True)
    for after in line[1:]:
        judged_slide(view, after)
    expect(view.testid("storm-score")).to_have_text("1")
    expect_finish(view, shortest_of(line[0]), len(line) - 1)

    # a race of one, its first puzzle with a move away and back
    page.goto(f"{live_server}/race/new")
    expect(view.testid("race-start")).to_be_visible()
    view.testid("race-start").click()
    expect(view.testid("status")).to_contain_text("one closer", timeout=5_000)
    line = line_home(view.state(), detour=True)
    for after in line[1:]:
        judged_slide(view, after)
    expect_finish(view, shortest_of(line[0]), len(line) - 1)
    expect(view.testid("status")).to_contain_text(f"optimal {shortest_of(line[0])}")
    view.assert_no_errors()
