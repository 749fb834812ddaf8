"""The Rush Hour page played in Chromium: a shipped level by dragging, by keys and by
Hint with click-to-target, finished with accuracy and stars; Solve's playback; refusals
in words; the cars' names; the editor.

The moves to play are the solver's own answer (its proven shortest line), checked
position by position against the page.
"""

import re

import pytest
from helpers.browser import GamePage, engine_solution, finish_shown
from playwright.sync_api import expect

from solver import catalogue
from solver.engine import analyse_board

pytestmark = pytest.mark.browser

KEY = {(0, 1): "ArrowRight", (0, -1): "ArrowLeft", (1, 0): "ArrowDown", (-1, 0): "ArrowUp"}
#: the hardest start without walls, 51 moves (the game's default board)
HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"


def car(page, label):
    return page.locator(f'[data-piece="{label}"]')


def drag(page, move):
    """Drag the move's vehicle by the pointer from its middle to where it ends, in steps."""
    box = car(page, move["piece"]).bounding_box()
    cell = page.locator(".floor").bounding_box()["width"] / 6
    dr, dc = move["to"][0] - move["from"][0], move["to"][1] - move["from"][1]
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 7):
        page.mouse.move(x + dc * cell * step / 6, y + dr * cell * step / 6)
    page.mouse.up()


def press_keys(page, move):
    """Select the move's vehicle by its letter, then an arrow press per cell."""
    page.keyboard.press(move["piece"])
    dr, dc = move["to"][0] - move["from"][0], move["to"][1] - move["from"][1]
    for _ in range(abs(dr + dc)):
        page.keyboard.press(KEY[(dr and dr // abs(dr), dc and dc // abs(dc))])


def far_cell(move, length):
    """The empty cell to click to send the move's vehicle there: the cell its front
    reaches (its first cell going left or up, its last going right or down)."""
    (r, c), (r0, c0) = move["to"], move["from"]
    if (r, c) > (r0, c0):
        return (r + length - 1, c) if c == c0 else (r, c + length - 1)
    return r, c


def test_a_level_by_drag_keys_and_hint_finishes_with_accuracy_and_stars(page, live_server):
    level = catalogue.get("rushhour").levels()[0]
    shortest = level["moves"][None]
    view = GamePage(page, live_server).open(
        "rushhour", level=f"{level['pack']}/1", wait_analysis=False
    )
    assert view.state() == level["board"]
    moves, states = engine_solution("rushhour", level["board"])
    assert len(moves) == shortest
    lengths = {label: view.state().count(label) for label in set(level["board"]) - set("ox")}
    for i, (move, after) in enumerate(zip(moves[:-2], states[1:-2], strict=True)):
        (drag if i % 2 == 0 else press_keys)(page, move)
        view.wait_state(after)
        assert view.moves() == i + 1  # a slide of several cells by keys is one move
    # Hint (the attempt goes unranked, its score still counts) shows the move to play
    # next: clicking its car, then the empty cell at its end, plays it
    for after in states[-2:]:
        view.click("hint")
        hinted = page.locator("[data-piece][data-hint]")
        expect(hinted).to_have_count(1, timeout=10_000)
        label = hinted.get_attribute("data-piece")
        ghost = page.locator(".hint-ghost")
        to = [int(ghost.evaluate(f"n => n.style.getPropertyValue('{v}')")) for v in ("--r", "--c")]
        move = next(m for m in moves if m["piece"] == label and m["to"] == to)
        hinted.click()
        r, c = far_cell(move, lengths[label])
        page.locator(f'[data-cell="{r},{c}"]').click()
        view.wait_state(after)
    view.wait_status("solved")
    assert view.moves() == shortest
    percent, stars = finish_shown(shortest, shortest)
    expect(view.testid("accuracy")).to_have_text(percent, timeout=10_000)
    expect(view.testid("stars")).to_have_text(stars)
    view.assert_no_errors()


def test_solve_plays_the_hardest_puzzle_back_to_the_exit(page, live_server):
    view = GamePage(page, live_server).open("rushhour", speed=20)
    assert view.state() == HARDEST
    view.wait_distance(51, timeout=20_000)
    view.click("hint")
    expect(page.locator("[data-piece][data-hint]")).to_have_count(1)
    view.screenshot("rushhour.png")
    view.click("solve")
    view.wait_status("solved", timeout=30_000)
    assert analyse_board("rushhour", view.state())["solved"]
    assert view.moves() == 51
    expect(view.testid("accuracy")).to_have_attribute("data-assisted", "true")
    expect(view.testid("stars")).to_have_text("")
    view.click("undo")
    expect(view.board).not_to_have_class(re.compile("won"))
    view.screenshot("rushhour-solved.png")
    view.assert_no_errors()


def test_refusals_say_why_and_cars_are_named_by_place_and_size(page, live_server):
    view = GamePage(page, live_server).open("rushhour", HARDEST)
    expect(car(page, "A")).to_have_attribute(
        "aria-label", "red car A, 2 cells long: row 3, columns 4 to 5"
    )
    expect(car(page, "G")).to_have_attribute(
        "aria-label", "truck G, 3 cells long: column 1, rows 1 to 3"
    )
    car(page, "B").click()
    page.keyboard.press("ArrowDown")
    view.wait_status("Vehicle B only moves left and right.")
    page.keyboard.press("ArrowLeft")
    view.wait_status("Vehicle B cannot move left: vehicle G is in the way.")
    expect(car(page, "B")).to_have_class(re.compile("refused"))
    page.locator('[data-cell="4,0"]').click()  # not on B's row
    view.wait_status("Vehicle B cannot reach row 5, column 1 in one move.")
    assert view.state() == HARDEST and view.moves() == 0
    page.keyboard.press("Shift+ArrowRight")  # as far as it goes: one cell, L is next
    view.wait_state("GoBBLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo")
    assert view.moves() == 1
    view.assert_no_errors()


def test_the_editor_places_cars_trucks_and_walls_then_plays(page, live_server):
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(f"{live_server}/editor/rushhour")
    page.locator('[data-testid="editor-clear"]').click()
    tool = page.locator("[data-tool]")
    page.locator('[data-tool="red"]').click()
    page.locator('[data-cell="2,0"]').click()
    page.locator('[data-tool="truck-upright"]').click()
    page.locator('[data-cell="0,3"]').click()
    page.locator('[data-tool="car-across"]').click()
    page.locator('[data-cell="5,4"]').click()
    page.locator('[data-tool="wall"]').click()
    page.locator('[data-cell="0,0"]').click()
    expect(tool).to_have_count(6)
    rows = ["xooBoo", "oooBoo", "AAoBoo", "oooooo", "oooooo", "ooooCC"]
    expect(page.locator('[data-testid="editor-board"]')).to_have_value("".join(rows))
    page.locator('[data-cell="1,3"]').click()  # a click on the truck takes it away
    board = "".join(rows).replace("B", "o")
    expect(page.locator('[data-testid="editor-board"]')).to_have_value(board)
    page.locator('[data-testid="editor-check"]').click()
    expect(page.locator('[data-testid="editor-verdict"]')).to_have_text("solvable: 1 move")
    page.locator('[data-testid="editor-play"]').click()
    view = GamePage(page, live_server)
    view.game = "rushhour"
    view.wait_state(board)
    expect(page.locator("[data-wall]")).to_have_count(1)
    assert errors == []
