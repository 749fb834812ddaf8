"""The Klotski page played in Chromium: keys, clicks, dragging, hint, solve, undo.

Boards are late positions of the classic layout's shortest solution; the moves to
play are taken from the solver's own answer, and checked against the page.
"""

import re

import pytest
from helpers.browser import GamePage, engine_distance, engine_solution
from playwright.sync_api import expect

from solver.engine import analyse_board, parse_board

pytestmark = pytest.mark.browser

TWO_MOVES = "BDCF/BDCF/GHEE/AA../AAIJ"  # an L-shaped move, then the 2x2 block out
FOUR_MOVES = "BDCF/BDCF/G..H/AAEE/AAIJ"
ONE_MOVE = "BDCF/BDCF/GHEE/AA.I/AA.J"
KEY = {(-1, 0): "ArrowUp", (1, 0): "ArrowDown", (0, -1): "ArrowLeft", (0, 1): "ArrowRight"}


def arrow_keys(move):
    """The arrow presses that walk ``move``'s piece along its path, one cell each."""
    keys = []
    r, c = move["from"]
    for nr, nc in move["path"]:
        keys.append(KEY[(nr - r, nc - c)])
        r, c = nr, nc
    return keys


def test_letter_and_arrow_keys_play_to_solved(page, live_server):
    moves, states = engine_solution("klotski", TWO_MOVES)
    assert any(len(m["path"]) > 1 for m in moves), "want a multi-cell move to check counting"
    view = GamePage(page, live_server).open("klotski", TWO_MOVES)
    view.wait_distance(len(moves))
    for move, after in zip(moves, states[1:], strict=True):
        page.keyboard.press(move["piece"])  # a piece's letter selects it
        expect(page.locator(f'[data-piece="{move["piece"]}"]')).to_have_class(
            re.compile("selected")
        )
        for key in arrow_keys(move):
            page.keyboard.press(key)
        view.wait_state(after)
    view.wait_status("solved")
    # piece metric: the L-shaped walk of one piece counts as one move
    assert view.moves() == len(moves)
    expect(view.testid("status")).to_contain_text(f"optimal {len(moves)}")
    view.assert_no_errors()


def test_step_metric_counts_every_cell(page, live_server):
    moves, states = engine_solution("klotski", TWO_MOVES, metric="step")
    view = GamePage(page, live_server).open("klotski", TWO_MOVES, metric="step")
    view.wait_distance(len(moves))
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-piece="{move["piece"]}"]').click()
        for key in arrow_keys(move):
            page.keyboard.press(key)
        view.wait_state(after)
    view.wait_status("solved")
    assert view.moves() == len(moves)
    view.assert_no_errors()


def test_straight_metric_splits_a_turning_move(page, live_server):
    moves, states = engine_solution("klotski", TWO_MOVES, metric="straight")
    piece_moves, _ = engine_solution("klotski", TWO_MOVES)
    assert len(moves) > len(piece_moves), "the L-shaped move must count twice here"
    view = GamePage(page, live_server).open("klotski", TWO_MOVES, metric="straight")
    view.wait_distance(len(moves))
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-piece="{move["piece"]}"]').click()
        for key in arrow_keys(move):
            page.keyboard.press(key)
        view.wait_state(after)
    view.wait_status("solved")
    assert view.moves() == len(moves)
    view.assert_no_errors()


def test_rules_picker_restarts_the_level_in_another_metric(page, live_server):
    view = GamePage(page, live_server).open("klotski", "BAAC/BAAC/DEEF/DGHF/I..J")
    picker = view.testid("pick-metric")
    expect(picker.locator("option[value=straight]")).to_have_text("straight (min 90)")
    picker.select_option("straight")
    view.click("rules-go")
    page.wait_for_url(re.compile(r"metric=straight"))
    view.wait_distance(engine_distance("klotski", "BAAC/BAAC/DEEF/DGHF/I..J", metric="straight"))
    expect(view.testid("pick-metric")).to_have_value("straight")
    view.assert_no_errors()


def test_dragging_a_block_moves_it(page, live_server):
    moves, states = engine_solution("klotski", ONE_MOVE)
    (move,) = moves
    view = GamePage(page, live_server).open("klotski", ONE_MOVE)
    piece = page.locator(f'[data-piece="{move["piece"]}"]')
    box = piece.bounding_box()
    cell = page.locator(".floor").bounding_box()["width"] / 4
    ((dr, dc),) = [(move["to"][0] - move["from"][0], move["to"][1] - move["from"][1])]
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(x + dc * cell * step / 5, y + dr * cell * step / 5)
    page.mouse.up()
    view.wait_state(states[1])
    view.wait_status("solved")
    view.assert_no_errors()


def test_blocked_move_is_refused(page, live_server):
    view = GamePage(page, live_server).open("klotski", FOUR_MOVES)
    domain, state = parse_board("klotski", FOUR_MOVES)
    legal = {
        domain.move_info(m)["piece"] + str(domain.move_info(m)["path"][0])
        for m, _ in domain.moves(state)
    }
    # B sits in the top-left corner: up is a wall, and the solver agrees it cannot move up
    assert "B[-1, 0]" not in legal
    page.locator('[data-piece="B"]').click()
    page.keyboard.press("ArrowUp")
    expect(page.locator('[data-piece="B"]')).to_have_class(re.compile("refused"))
    assert view.state() == FOUR_MOVES
    assert view.moves() == 0
    view.assert_no_errors()


def test_hint_marks_a_move_that_reduces_the_distance(page, live_server):
    before = engine_distance("klotski", FOUR_MOVES)
    view = GamePage(page, live_server).open("klotski", FOUR_MOVES)
    view.wait_distance(before)
    view.click("hint")
    hinted = page.locator("[data-piece][data-hint]")
    expect(hinted).to_have_count(1)
    label = hinted.get_attribute("data-piece")
    ghost = page.locator(".hint-ghost")
    target = [int(ghost.evaluate(f"n => n.style.getPropertyValue('{v}')")) for v in ("--r", "--c")]
    # the solver's own move for that piece to the highlighted cell
    domain, state = parse_board("klotski", FOUR_MOVES)
    move = next(
        info
        for info in (domain.move_info(m) for m, _ in domain.moves(state))
        if info["piece"] == label and info["to"] == target
    )
    assert view.state() == FOUR_MOVES
    hinted.click()
    for key in arrow_keys(move):
        page.keyboard.press(key)
    view.wait_distance(before - 1)
    expect(view.testid("distance")).to_contain_text("optimal move")
    assert engine_distance("klotski", view.state()) == before - 1
    view.assert_no_errors()


def test_undo_takes_back_a_whole_piece_move(page, live_server):
    moves, states = engine_solution("klotski", TWO_MOVES)
    first = next(m for m in moves if len(m["path"]) > 1)
    view = GamePage(page, live_server).open("klotski", TWO_MOVES)
    page.locator(f'[data-piece="{first["piece"]}"]').click()
    for key in arrow_keys(first):
        page.keyboard.press(key)
    after = states[moves.index(first) + 1]
    view.wait_state(after)
    assert view.moves() == 1
    view.click("undo")
    view.wait_state(TWO_MOVES)
    assert view.moves() == 0
    view.click("redo")
    view.wait_state(after)
    view.click("restart")
    view.wait_state(TWO_MOVES)
    view.assert_no_errors()


def test_solve_plays_the_classic_back_to_the_exit(page, live_server):
    view = GamePage(page, live_server).open("klotski", speed=20)
    start = view.state()
    length = engine_distance("klotski", start)
    view.wait_distance(length)
    page.locator('[data-piece="A"]').click()
    view.click("hint")
    expect(page.locator("[data-piece][data-hint]")).to_have_count(1)
    view.screenshot("klotski.png")
    view.click("solve")
    view.wait_status("solved", timeout=30_000)
    assert analyse_board("klotski", view.state())["solved"]
    assert view.moves() == length
    expect(view.testid("status")).to_contain_text(f"{length} moves (optimal {length})")
    view.screenshot("klotski-solved.png")
    view.assert_no_errors()
