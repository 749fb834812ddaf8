"""The water-jugs page in Chromium: clicks, number keys, refusals, hint, solve, levels, editor."""

import re

import pytest
from helpers.browser import ARTIFACTS, GamePage, engine_distance, engine_solution
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SEED = "0/3,0/5,8/8"
GOAL = "0,4,4"


def pour(page, source, target):
    page.locator(f'[data-jug="{source}"]').click()
    page.locator(f'[data-jug="{target}"]').click()


def test_play_the_seed_puzzle_to_solved_by_clicking_jugs(page, live_server):
    moves, states = engine_solution("jugs", SEED, goal=GOAL)
    view = GamePage(page, live_server).open("jugs", SEED, goal=GOAL)
    view.wait_distance(len(moves))
    for move, after in zip(moves, states[1:], strict=True):
        pour(page, move["from"], move["to"])
        view.wait_state(after)
    view.wait_status("solved")
    expect(view.testid("status")).to_contain_text(f"optimal {len(moves)}")
    assert view.moves() == len(moves) == 7
    view.screenshot("jugs-solved.png")
    view.assert_no_errors()


def test_number_keys_pour_and_an_empty_jug_is_refused(page, live_server):
    moves, states = engine_solution("jugs", SEED, goal=GOAL)
    view = GamePage(page, live_server).open("jugs", SEED, goal=GOAL)
    page.locator('[data-jug="0"]').click()  # jug 1 is empty: nothing to pour
    expect(page.locator('[data-jug="0"]')).to_have_class(re.compile("refused"))
    assert view.state() == SEED
    for move, after in zip(moves[:3], states[1:4], strict=True):
        page.keyboard.press(str(move["from"] + 1))
        page.keyboard.press(str(move["to"] + 1))
        view.wait_state(after)
    assert view.moves() == 3
    view.assert_no_errors()


def test_hint_marks_a_pour_that_reduces_the_distance(page, live_server):
    before = engine_distance("jugs", SEED, goal=GOAL)
    view = GamePage(page, live_server).open("jugs", SEED, goal=GOAL)
    view.wait_distance(before)
    view.follow_two_click_hint("jug")
    view.wait_distance(before - 1)
    assert engine_distance("jugs", view.state(), goal=GOAL) == before - 1
    view.assert_no_errors()


def test_solve_plays_back_and_undo_redo_follow(page, live_server):
    moves, states = engine_solution("jugs", SEED, goal=GOAL)
    view = GamePage(page, live_server).open("jugs", SEED, goal=GOAL)
    view.solve_then_undo_and_redo(moves, states)
    view.assert_no_errors()


def test_lobby_links_the_jugs_page_and_its_levels(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/")
    expect(page.locator('a[href="/play/jugs"]')).to_have_count(1)
    levels = page.locator('a.level[href^="/play/jugs?"]')
    assert levels.count() >= 5
    expect(levels.first).to_be_hidden()  # its pack is folded: the player opens it
    page.locator("details.levels", has=levels.first).locator("summary").click()
    levels.first.click()
    view.game = "jugs"
    expect(view.board).to_have_attribute("data-state", re.compile(r"^\d+/\d+(,\d+/\d+)+$"))
    expect(view.testid("best")).to_have_text(re.compile(r"\d+"), timeout=10_000)
    view.assert_no_errors()


def test_editor_builds_jugs_and_the_server_judges_them(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/editor/jugs")
    testid = view.testid
    expect(testid("editor-message")).to_have_text("valid position")
    expect(testid("editor-board")).to_have_value(SEED)
    testid("editor-goal").fill("0,4")
    testid("editor-goal").dispatch_event("change")
    expect(testid("editor-message")).to_contain_text("goal '0,4' names 2 jugs; the board has 3")
    testid("editor-goal").fill("*,4,*")
    testid("editor-goal").dispatch_event("change")
    expect(testid("editor-message")).to_have_text("valid position")
    testid("editor-check").click()
    distance = engine_distance("jugs", SEED, goal="*,4,*")
    expect(testid("editor-verdict")).to_have_text(f"solvable: {distance} moves")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "editor-jugs.png"), full_page=True)
    testid("editor-play").click()
    view.game = "jugs"
    view.wait_state(SEED)
    view.wait_distance(distance)
    view.assert_no_errors()
