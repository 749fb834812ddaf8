"""Rough edges a player hit (issue 34): what the page shows, read as a player reads it."""

import re

import pytest
from helpers.browser import GamePage, engine_solution
from playwright.sync_api import expect

from solver import catalogue

pytestmark = pytest.mark.browser

# Klotski with G free to go down and then right: a long move text ("G down, right")
KLOTSKI = "BAAC/BAAC/DEEF/DGHF/I..J"


def test_on_a_phone_moves_and_numbers_stay_apart_and_how_to_play_comes_first(page, live_server):
    page.set_viewport_size({"width": 390, "height": 844})
    view = GamePage(page, live_server).open("klotski", KLOTSKI)
    options = view.testid("option")
    expect(options.first).to_be_visible(timeout=10_000)
    assert options.count() > 1
    long_moves = 0
    for option in options.all():
        move = option.locator(".option-move")
        number = option.locator(".option-distance")
        text, distance = move.inner_text(), number.inner_text()
        long_moves += "," in text
        # seen: the move's text ends before its number begins, none of it clipped
        fits = move.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert fits, f"{text!r} overflows its place"
        # the move's line above, or beside and before, its number: never over it
        seen, at = move.bounding_box(), number.bounding_box()
        assert seen["y"] + seen["height"] <= at["y"] or seen["x"] + seen["width"] <= at["x"]
        # heard and copied: the name and the text keep them apart ("right: 81", not "right81")
        apart = re.compile(rf"^{re.escape(text)}\W+{re.escape(distance)}\b")
        expect(option).to_have_accessible_name(apart)
        assert apart.match(option.evaluate("e => e.textContent")), option.text_content()
    assert long_moves, "no long move to check"
    # the instructions sit between the board and the panel, not below the whole panel
    how = view.page.locator(".how").bounding_box()
    assert (
        view.board.bounding_box()["y"] < how["y"] < view.page.locator(".panel").bounding_box()["y"]
    )
    view.assert_no_errors()


def test_a_solved_level_offers_the_next_one(page, live_server):
    levels = catalogue.get("jugs").levels()
    pack = [level for level in levels if level["pack"] == levels[0]["pack"]]
    first, second = pack[0], pack[1]
    view = GamePage(page, live_server).open("jugs", level=f"{first['pack']}/1")
    view.wait_state(first["board"])
    expect(view.testid("next-level")).to_be_hidden()
    moves, states = engine_solution("jugs", first["board"], **first["options"])
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-jug="{move["from"]}"]').click()
        page.locator(f'[data-jug="{move["to"]}"]').click()
        view.wait_state(after)
    view.wait_status("solved")
    expect(view.testid("next-level")).to_have_attribute("title", second["name"])
    view.testid("next-level").click()
    expect(page).to_have_url(re.compile(rf"level={re.escape(first['pack'])}(/|%2F)2$"))
    view.wait_state(second["board"])
    view.assert_no_errors()


#: twelve tubes: pours as long as "tube 10 → 12"
TWELVE_TUBES = "AB,BA,CD,DC,EF,FE,GH,HG,IJ,JI,,"
ONE_LINE = """el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size === 1
      && el.scrollWidth <= el.clientWidth;
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_pours_card_is_one_line_with_a_real_arrow(page, live_server, width):
    """ "tube 10 → 12" on one line of its card, phone and desktop, with "→", not "->"."""
    page.set_viewport_size({"width": width, "height": 844})
    view = GamePage(page, live_server).open("watersort", TWELVE_TUBES, capacity=2)
    expect(view.testid("option").first).to_be_visible(timeout=15_000)
    moves = page.locator(".option-move")
    assert moves.count() >= 20
    for move in moves.all():
        text = move.inner_text()
        assert re.fullmatch(r"tube\s\d+\s→\s\d+", text), text
        assert move.evaluate(ONE_LINE), f"{text!r} at {width} px takes more than one line"
    view.assert_no_errors()
