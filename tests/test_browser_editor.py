"""Browser: build a small position in the editor, see live validation, play it, share it."""

import re

import pytest
from helpers.browser import ARTIFACTS, GamePage
from playwright.sync_api import expect

from solver.engine import analyse_board

pytestmark = pytest.mark.browser


def test_build_a_klotski_position_play_it_and_share_its_link(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/editor/klotski")
    testid = view.testid
    expect(testid("editor-message")).to_have_text("valid position")
    # a 3x3 board: width 3, height 3, cleared
    testid("editor-width").fill("3")
    testid("editor-width").dispatch_event("change")
    testid("editor-height").fill("3")
    testid("editor-height").dispatch_event("change")
    testid("editor-clear").click()
    expect(testid("editor-board")).to_have_value(".../.../...")
    expect(testid("editor-message")).to_have_text("board has no pieces")
    # the 2x2 goal piece A at the top left, then a piece B painted as an L: not a rectangle
    page.locator('[data-label="A"]').click()
    for cell in ("0,0", "0,1", "1,0", "1,1"):
        page.locator(f'[data-cell="{cell}"]').click()
    testid("editor-new-piece").click()
    for cell in ("0,2", "1,2", "2,1"):
        page.locator(f'[data-cell="{cell}"]').click()
    expect(testid("editor-board")).to_have_value("AAB/AAB/.B.")
    expect(testid("editor-message")).to_have_text("piece B is not a rectangle")
    page.locator('[data-cell="2,1"]').click()  # clicking B's cell again clears it
    board = "AAB/AAB/..."
    expect(testid("editor-board")).to_have_value(board)
    expect(testid("editor-message")).to_have_text("valid position")
    testid("editor-check").click()
    distance = analyse_board("klotski", board)["distance"]
    expect(testid("editor-verdict")).to_have_text(
        f"solvable: {distance} move{'' if distance == 1 else 's'}"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "editor-klotski.png"), full_page=True)
    testid("editor-copy").click()
    expect(testid("editor-copy")).to_have_attribute(
        "data-copied", re.compile("/play/klotski\\?board=")
    )
    shared = testid("editor-copy").get_attribute("data-copied")
    testid("editor-play").click()
    view.game = "klotski"
    view.wait_state(board)
    view.wait_distance(distance)
    # the shared link opens the same position
    page.goto(shared)
    view.wait_state(board)
    view.assert_no_errors()


def test_water_sort_editor_names_the_colour_count_problem(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/editor/watersort?board=AB,BA,&capacity=2")
    testid = view.testid
    expect(testid("editor-message")).to_have_text("valid position")
    page.locator('[data-colour="A"]').click()
    page.locator('[data-tube="2"]').click()
    expect(testid("editor-board")).to_have_value("AB,BA,A")
    expect(testid("editor-message")).to_have_text("colour A has 3 units, tubes hold 2")
    testid("editor-remove").click()
    page.locator('[data-tube="2"]').click()
    expect(testid("editor-message")).to_have_text("valid position")
    testid("editor-check").click()
    expect(testid("editor-verdict")).to_have_text(re.compile(r"solvable: \d+ moves?|unsolvable"))
    page.screenshot(path=str(ARTIFACTS / "editor-watersort.png"), full_page=True)
    view.assert_no_errors()


def test_npuzzle_editor_swaps_tiles_and_typed_text_is_validated(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/editor/npuzzle?board=1+2+3+4+5+6+7+8+0")
    testid = view.testid
    page.locator('[data-tile="8"]').click()
    page.locator('[data-tile="0"]').click()
    expect(testid("editor-board")).to_have_value("1 2 3 4 5 6 7 0 8")
    testid("editor-check").click()
    expect(testid("editor-verdict")).to_have_text("solvable: 1 move")
    testid("editor-board").fill("1 2 3 4 5 6 7 8 8")
    expect(testid("editor-message")).to_have_text(re.compile("^tile 8 appears twice"))
    expect(testid("editor-play")).to_have_attribute("aria-disabled", "true")
    view.assert_no_errors()
