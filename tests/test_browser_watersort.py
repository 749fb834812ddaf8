"""The water-sort page played in Chromium: clicks, number keys, refusals, hint, solve."""

import re

import pytest
from helpers.browser import GamePage, engine_distance, engine_solution
from playwright.sync_api import expect

from solver.engine import parse_board

pytestmark = pytest.mark.browser

SMALL = "AAB,BBA,,"  # capacity 3: two colours, a few pours
MEDIUM = "ABA,BAB,,"


def legal_pours(board, capacity):
    """(from, to) pairs the solver's own rules allow from ``board``."""
    domain, state = parse_board("watersort", board, capacity=capacity)
    return {
        (info["from"], info["to"])
        for info in (domain.move_info(move) for move, _ in domain.moves(state))
    }


def pour(page, source, target):
    page.locator(f'[data-tube="{source}"]').click()
    page.locator(f'[data-tube="{target}"]').click()


def test_play_to_solved_by_clicking_tubes(page, live_server):
    moves, states = engine_solution("watersort", SMALL, capacity=3)
    view = GamePage(page, live_server).open("watersort", SMALL, capacity=3)
    view.wait_distance(len(moves))
    for move, after in zip(moves, states[1:], strict=True):
        pour(page, move["from"], move["to"])
        view.wait_state(after)
    view.wait_status("solved")
    expect(view.testid("status")).to_contain_text(f"optimal {len(moves)}")
    assert view.moves() == len(moves)
    view.assert_no_errors()


def test_number_keys_pour(page, live_server):
    moves, states = engine_solution("watersort", MEDIUM, capacity=3)
    view = GamePage(page, live_server).open("watersort", MEDIUM, capacity=3)
    for move, after in zip(moves, states[1:], strict=True):
        page.keyboard.press(str(move["from"] + 1))
        page.keyboard.press(str(move["to"] + 1))
        view.wait_state(after)
    view.wait_status("solved")
    view.assert_no_errors()


def test_illegal_pour_is_refused(page, live_server):
    view = GamePage(page, live_server).open("watersort", SMALL, capacity=3)
    tubes = SMALL.split(",")
    legal = legal_pours(SMALL, 3)
    source, target = next(
        (i, j)
        for i in range(len(tubes))
        for j in range(len(tubes))
        if i != j and tubes[i] and (i, j) not in legal
    )
    pour(page, source, target)
    expect(page.locator(f'[data-tube="{target}"]')).to_have_class(re.compile("refused"))
    assert view.state() == SMALL
    assert view.moves() == 0
    # an empty tube cannot be chosen as the source
    empty = tubes.index("")
    page.locator(f'[data-tube="{empty}"]').click()
    expect(page.locator(f'[data-tube="{empty}"]')).to_have_class(re.compile("refused"))
    view.assert_no_errors()


def test_hint_marks_a_pour_that_reduces_the_distance(page, live_server):
    before = engine_distance("watersort", MEDIUM, capacity=3)
    view = GamePage(page, live_server).open("watersort", MEDIUM, capacity=3)
    view.wait_distance(before)
    view.follow_two_click_hint("tube")
    view.wait_distance(before - 1)
    expect(view.testid("distance")).to_contain_text("optimal move")
    assert engine_distance("watersort", view.state(), capacity=3) == before - 1
    view.assert_no_errors()


def test_solve_plays_back_to_sorted_tubes(page, live_server):
    moves, states = engine_solution("watersort", MEDIUM, capacity=3)
    view = GamePage(page, live_server).open("watersort", MEDIUM, capacity=3)
    view.solve_then_undo_and_redo(moves, states)
    view.assert_no_errors()


def test_default_deal_screenshot(page, live_server):
    view = GamePage(page, live_server).open("watersort")
    tubes = view.state().split(",")
    expect(page.locator("[data-tube]")).to_have_count(len(tubes))
    # every unit carries its colour letter, drawn with a colour and a symbol
    expect(page.locator(".unit")).to_have_count(sum(len(t) for t in tubes))
    assert page.locator(".unit svg").count() == sum(len(t) for t in tubes)
    first = next(i for i, t in enumerate(tubes) if t)
    page.locator(f'[data-tube="{first}"]').click()
    view.screenshot("watersort.png")
    view.assert_no_errors()
