"""Browser: seeded levels with their minimum, New game, the extra tube, progress keys and marks in the lobby."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from helpers.browser import ARTIFACTS, GamePage, engine_distance, engine_solution
from playwright.sync_api import expect

from solver.klotski.levels import klotski_levels
from solver.npuzzle.generate import npuzzle_at_distance
from solver.watersort.generate import watersort_level

pytestmark = pytest.mark.browser


def test_seeded_npuzzle_shows_min_and_solving_marks_progress(page, live_server):
    level = npuzzle_at_distance(3, 3, seed=9)
    view = GamePage(page, live_server).open("npuzzle", size=3, distance=3, seed=9)
    view.wait_state(level["board"])
    expect(view.testid("moves-line")).to_have_text("Moves: 0 (min 3)")
    moves, states = engine_solution("npuzzle", level["board"])
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-tile="{move["tile"]}"]').click()
        view.wait_state(after)
    view.wait_status("solved in 3 moves (optimal 3)")
    expect(view.testid("moves-line")).to_have_text("Moves: 3 (min 3)")
    stored = page.evaluate("localStorage.getItem('arcade-progress-v1')")
    assert f"npuzzle||{level['board']}" in stored
    view.assert_no_errors()


def test_new_game_picker_navigates_to_a_seeded_link(page, live_server):
    view = GamePage(page, live_server).open("npuzzle")
    view.testid("new-distance").select_option("7")
    view.testid("new-game-go").click()
    expect(page).to_have_url(re.compile(r"seed=\d+"))
    query = parse_qs(urlparse(page.url).query)
    level = npuzzle_at_distance(3, 7, int(query["seed"][0]))
    view.wait_state(level["board"])
    expect(view.testid("moves-line")).to_have_text("Moves: 0 (min 7)")
    view.assert_no_errors()


def test_extra_tube_is_added_and_counted_in_the_result(page, live_server):
    level = watersort_level(3, 3, 1, seed=2)
    view = GamePage(page, live_server).open("watersort", colours=3, capacity=3, empty=1, seed=2)
    view.wait_state(level["board"])
    view.click("extra-tube")
    view.wait_state(level["board"] + ",")
    expect(page.locator("[data-tube]")).to_have_count(level["board"].count(",") + 2)
    board = level["board"] + ","
    # the tube is no move: it is not rated "+1" like one, the line says what it saved
    view.wait_distance(engine_distance("watersort", board, capacity=3))
    expect(view.testid("distance")).to_contain_text("extra tube")
    expect(view.testid("distance")).not_to_contain_text(re.compile(r"\+\d|optimal move"))
    moves, states = engine_solution("watersort", board, capacity=3)
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-tube="{move["from"]}"]').click()
        page.locator(f'[data-tube="{move["to"]}"]').click()
        view.wait_state(after)
    n = len(moves)
    view.wait_status(
        f"solved in {n} move{'s' if n != 1 else ''} with 1 extra tube (optimal {level['pours']})"
    )
    view.assert_no_errors()


LEVEL_KEY = """async ([options, board]) => {
    const { levelKey } = await import('/static/js/progress.js');
    const info = JSON.parse(document.getElementById('config').textContent).game_info;
    return levelKey(info, options, board);
}"""


@pytest.mark.parametrize(
    "game, options, variant",
    [
        ("klotski", {}, "piece"),
        ("klotski", {"metric": ""}, "piece"),
        ("klotski", {"metric": "step"}, "step"),
        ("klotski", {"metric": "straight"}, "straight"),
        ("watersort", {}, "4"),
        ("watersort", {"capacity": 3}, "3"),
        ("watersort", {"capacity": "5"}, "5"),
        ("npuzzle", {}, ""),
        ("npuzzle", {"size": 4}, ""),
    ],
)
def test_progress_keys_are_the_stored_ones(page, live_server, game, options, variant):
    """Keys read from the declaration match those browsers already hold: game|variant|board."""
    GamePage(page, live_server).open(game, wait_analysis=False)
    assert page.evaluate(LEVEL_KEY, [options, "B"]) == f"{game}|{variant}|B"


def test_lobby_marks_a_solved_level(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/")
    small = page.locator('a.level[data-board="AA./AAG/FEB/CD."]')
    expect(small.locator('[data-testid="level-min"]')).to_have_text("min 12 moves")
    straight = engine_distance("klotski", "AA./AAG/FEB/CD.", metric="straight")
    variant = page.locator("li", has=small).locator('[data-variant="straight"]')
    expect(variant).to_have_text(f"straight {straight}")
    page.evaluate("""localStorage.setItem('arcade-progress-v1', JSON.stringify(
        {'klotski|piece|AA./AAG/FEB/CD.': {moves: 12, extra: 0, min: 12}}))""")
    page.reload()
    expect(small).to_have_attribute("data-solved", "true")
    expect(small.locator('[data-testid="level-best"]')).to_contain_text("solved in 12")
    view.screenshot("lobby-levels.png")
    view.assert_no_errors()


def test_lobby_shows_traps_and_which_levels_are_the_hardest_start_of_their_group(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/")
    page.evaluate("document.querySelectorAll('details.levels').forEach(d => { d.open = true; })")
    for level in klotski_levels():
        card = page.locator(f'[data-pack="{level["pack"]}"] a.level[data-board="{level["board"]}"]')
        expect(card.locator('[data-testid="level-traps"]')).to_have_text(
            f"· {level['traps']['piece']} traps"
        )
        farthest = level["group"]["farthest"]["piece"]
        if farthest == level["moves"]["piece"]:
            expect(card.locator('[data-testid="level-hardest"]')).to_be_visible()
        else:
            expect(card.locator('[data-testid="level-group"]')).to_have_text(
                f"its group's hardest start: {farthest}"
            )
    big = page.locator('[data-pack="klotski-big"] a.level')
    expect(big.locator('[data-testid="level-hardest"]')).to_have_count(big.count())
    assert big.count() >= 12
    view.assert_no_errors()


LOBBY_SECTIONS = ["lobby-today", "lobby-levels", "lobby-modes", "lobby-tools"]


@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_is_in_sections_today_levels_modes_tools(page, live_server, width):
    """Each part of the lobby under its own heading, in that order: the dailies alone in
    today's, the level packs, the ladder, streak, storm and race each headed, then the new
    games, the editor and the lab; nothing wider than the screen."""
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(live_server + "/")
    tops = []
    for testid in LOBBY_SECTIONS:
        section = page.get_by_test_id(testid)
        expect(section).to_be_visible()
        expect(section.locator("> h2")).to_have_count(1)
        tops.append(section.bounding_box()["y"])
        box = section.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{testid} at {width} px: {box}"
    assert tops == sorted(tops), f"the sections out of order: {tops}"
    today, levels, modes, tools = (page.get_by_test_id(t) for t in LOBBY_SECTIONS)
    expect(today.locator("a")).to_have_count(today.locator("[data-daily]").count())
    expect(levels.locator("details.levels").first).to_be_visible()
    for heading in ("The ladder", "Streak", "Storm", "Race"):
        expect(modes.get_by_role("heading", name=heading, exact=True)).to_have_count(1)
    expect(tools.get_by_test_id("open-editor")).to_be_visible()
    expect(tools.get_by_test_id("open-lab")).to_be_visible()
    expect(tools.locator('a[href*="seed="]').first).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(ARTIFACTS / f"lobby-{width}.png"), full_page=True)
