"""Browser: what a screen reader and a keyboard get. Every piece, tile, tube and jug is
named with its place and size; a move is announced in the status line (an aria-live
region) with what moved, where the gap is and the distance the solver proved; the gap
is on the board's accessibility tree; "?" lists every key; headings read as words.

Expected words come from the reference rules (helpers.klotski, helpers.npuzzle) and the
solver's own distances (helpers.browser.engine_distance), never typed in by hand."""

from __future__ import annotations

import re

import pytest
from helpers.browser import GamePage, engine_distance
from helpers.npuzzle import neighbour
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

KLOTSKI = "BAAC/BAAC/DEEF/DGHF/I..J"


def test_klotski_pieces_are_named_moves_announced_and_keys_listed(page, live_server):
    view = GamePage(page, live_server).open("klotski", KLOTSKI)
    expect(page.locator("h1")).to_have_accessible_name("Klotski")
    assert page.locator("h1").aria_snapshot() == '- heading "Klotski" [level=1]'
    piece = page.locator('[data-piece="A"]')
    expect(piece).to_have_accessible_name(
        "piece A, 2 by 2, at row 1, column 2; it goes to the exit"
    )
    expect(page.locator('[data-piece="G"]')).to_have_accessible_name(
        "piece G, 1 by 1, at row 4, column 2"
    )
    page.keyboard.press("?")
    keys = view.testid("shortcuts")
    expect(keys).to_be_visible()
    for words in ("Ctrl+Z", "undo the last move", "Arrow keys", "move the selected piece one cell"):
        expect(keys).to_contain_text(words)
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    view.testid("shortcuts-button").click()
    expect(keys).to_be_visible()
    view.testid("shortcuts-close").click()
    expect(keys).to_be_hidden()

    page.locator('[data-piece="G"]').click()
    page.keyboard.press("ArrowDown")
    after = "BAAC/BAAC/DEEF/D.HF/IG.J"
    view.wait_state(after)
    distance = engine_distance("klotski", after)
    view.wait_status(f"Moved G down; {distance} moves to solve.")
    expect(page.locator('[data-piece="G"]')).to_have_accessible_name(
        "piece G, 1 by 1, at row 5, column 2"
    )
    view.assert_no_errors()


def test_the_tiles_and_the_gap_are_named_where_they_are_and_a_slide_says_so(page, live_server):
    start = neighbour(neighbour("1 2 3 4 5 6 7 8 0", +1), +1)  # two slides from solved
    view = GamePage(page, live_server).open("npuzzle", start)
    tiles = start.split()
    gap = tiles.index("0")
    gap_name = f"the gap, row {gap // 3 + 1}, column {gap % 3 + 1}"
    expect(page.locator("[data-gap]")).to_have_accessible_name(gap_name)
    for i, tile in enumerate(tiles):
        if tile != "0":
            expect(page.locator(f'[data-tile="{tile}"]')).to_have_accessible_name(
                f"tile {tile}, row {i // 3 + 1}, column {i % 3 + 1}"
            )
    after = neighbour(start, -1)
    moved = start.split()[after.split().index("0")]
    page.locator(f'[data-tile="{moved}"]').click()
    view.wait_state(after)
    now = after.split().index("0")
    words = f"the gap, row {now // 3 + 1}, column {now % 3 + 1}"
    distance = engine_distance("npuzzle", after)
    assert distance == 1
    view.wait_status(
        re.compile(rf"^Moved {moved} (up|down|left|right); {words}; 1 move to solve\.$")
    )
    expect(page.locator("[data-gap]")).to_have_accessible_name(words)
    view.assert_no_errors()


def test_tubes_say_what_they_hold_and_jugs_what_they_hold_of_what(page, live_server):
    view = GamePage(page, live_server).open("watersort", "ABAB,BABA,,", capacity="4")
    expect(page.locator('[data-tube="0"]')).to_have_accessible_name(
        re.compile(r"^tube 1, 4 of 4, from the bottom: A \w+, B \w+, A \w+, B \w+$")
    )
    expect(page.locator('[data-tube="2"]')).to_have_accessible_name("tube 3, empty, holds 4")
    view.open("jugs", "0/3,0/5,8/8")
    expect(page.locator('[data-jug="2"]')).to_have_accessible_name(
        re.compile(r"^jug 3, 8 litres: 8 / 8 L goal: ")
    )
    view.assert_no_errors()


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/play/npuzzle",
        "/editor/jugs",
        "/lab?game=jugs&board=0/3,0/5,8/8",
        "/race/new",
        "/streak/npuzzle",
        "/player",
    ],
)
def test_every_heading_reads_as_words(page, live_server, path):
    page.goto(live_server + path)
    headings = page.get_by_role("heading")
    expect(headings.first).to_be_attached()
    for name in [headings.nth(i).aria_snapshot() for i in range(headings.count())]:
        assert re.match(r"""^- '?heading "\w""", name), f"{path}: {name!r} does not read as words"
