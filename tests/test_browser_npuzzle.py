"""The N-puzzle page played in Chromium: clicks, arrow keys, hint, solve, parity."""

import re

import pytest
from helpers.browser import GamePage, engine_distance, engine_solution
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NEAR_GOAL = "1 2 3 4 5 6 0 7 8"
GOAL = "1 2 3 4 5 6 7 8 0"
MODERATE = "4 1 3 7 2 6 0 5 8"
ARROW = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


def test_play_to_solved_by_clicking_tiles(page, live_server):
    moves, states = engine_solution("npuzzle", NEAR_GOAL)
    assert states[-1] == GOAL
    view = GamePage(page, live_server).open("npuzzle", NEAR_GOAL)
    view.wait_distance(len(moves))
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-tile="{move["tile"]}"]').click()
        view.wait_state(after)
    view.wait_status("solved")
    expect(view.testid("status")).to_contain_text(f"{len(moves)} moves (optimal {len(moves)})")
    assert view.moves() == len(moves)
    expect(view.testid("distance")).to_contain_text("optimal move")
    view.screenshot("npuzzle-solved.png")
    view.assert_no_errors()


def test_arrow_keys_slide_the_tile_beside_the_blank(page, live_server):
    moves, states = engine_solution("npuzzle", MODERATE)
    view = GamePage(page, live_server).open("npuzzle", MODERATE)
    for move, after in zip(moves, states[1:], strict=True):
        page.keyboard.press(ARROW[move["dir"]])
        view.wait_state(after)
    view.wait_status("solved")
    assert view.moves() == len(moves)
    view.assert_no_errors()


def test_illegal_tile_is_refused(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", MODERATE)
    # tile 3 is in a corner far from the blank (bottom-left): not adjacent
    tiles = MODERATE.split()
    blank, three = tiles.index("0"), tiles.index("3")
    assert abs(blank // 3 - three // 3) + abs(blank % 3 - three % 3) > 1
    page.locator('[data-tile="3"]').click()
    expect(page.locator('[data-tile="3"]')).to_have_class(re.compile("refused"))
    assert view.state() == MODERATE
    assert view.moves() == 0
    view.assert_no_errors()


def test_hint_marks_a_move_that_reduces_the_distance(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", MODERATE)
    before = engine_distance("npuzzle", MODERATE)
    view.wait_distance(before)
    view.click("hint")
    hinted = page.locator("[data-tile][data-hint]")
    expect(hinted).to_have_count(1)
    assert view.state() == MODERATE  # a hint never plays the move
    hinted.click()
    view.wait_distance(before - 1)
    expect(view.testid("distance")).to_contain_text("optimal move")
    assert engine_distance("npuzzle", view.state()) == before - 1
    expect(page.locator("[data-hint]")).to_have_count(0)
    view.assert_no_errors()


def test_a_wasted_move_is_marked_with_its_cost(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", MODERATE)
    before = engine_distance("npuzzle", MODERATE)
    view.wait_distance(before)
    tiles = MODERATE.split()
    blank = tiles.index("0")
    neighbours = [
        int(tiles[i])
        for i in (blank - 3, blank + 3, blank - 1, blank + 1)
        if 0 <= i < 9 and abs(i // 3 - blank // 3) + abs(i % 3 - blank % 3) == 1
    ]
    bad = next(t for t in neighbours if engine_distance("npuzzle", _slide(tiles, t)) > before - 1)
    page.locator(f'[data-tile="{bad}"]').click()
    after = engine_distance("npuzzle", _slide(tiles, bad))
    view.wait_distance(after)
    # the cost in plain words (issue 47: a bare "+2" beside the distance was never explained)
    cost = after - (before - 1)
    expect(view.testid("distance")).to_contain_text(
        f"that move cost {cost} extra move{'s' if cost > 1 else ''}"
    )
    view.assert_no_errors()


def _slide(tiles, tile):
    """The board after sliding ``tile`` into the blank (rules written out here)."""
    out = list(tiles)
    i, j = out.index(str(tile)), out.index("0")
    out[i], out[j] = out[j], out[i]
    return " ".join(out)


def test_solve_plays_the_shortest_solution_back(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", MODERATE)
    length = engine_distance("npuzzle", MODERATE)
    view.click("solve")
    view.wait_state(GOAL, timeout=15_000)
    view.wait_status("solved")
    assert view.moves() == length
    # the played moves joined the history: step back, then forward again
    view.click("step-back")
    assert view.state() != GOAL
    assert engine_distance("npuzzle", view.state()) == 1
    view.click("step-forward")
    view.wait_state(GOAL)
    view.screenshot("npuzzle.png")
    view.assert_no_errors()


def test_odd_parity_is_shown_unsolvable(page, live_server):
    board = "2 1 3 4 5 6 7 8 0"
    assert engine_distance("npuzzle", board) is None
    view = GamePage(page, live_server).open("npuzzle", board)
    view.wait_status("unsolvable")
    expect(view.testid("distance")).to_contain_text("unsolvable")
    view.assert_no_errors()
