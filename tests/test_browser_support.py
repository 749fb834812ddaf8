"""The page machinery every game uses, in Chromium: lobby, shareable links, bad-board
fallback, undo/redo keys, no console errors (the page driver is ``helpers.browser``).
"""

import re
import time
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from helpers.browser import GamePage, engine_distance, engine_solution
from playwright.sync_api import expect

from solver import catalogue

pytestmark = pytest.mark.browser


# ---------------------------------------------------------------------------
# the lobby and the machinery every game shares


def test_lobby_lists_games_and_levels(page, live_server):
    view = GamePage(page, live_server)
    page.goto(live_server + "/")
    for game in ("klotski", "watersort", "npuzzle"):
        expect(page.locator(f'a[href="/play/{game}"]')).to_have_count(1)
    level_links = page.locator('a.level[href^="/play/klotski?level="]')  # a level's own link
    assert level_links.count() >= 3
    # every level preview is drawn with the real Klotski view, one block per piece
    first = level_links.first
    board = first.get_attribute("data-board")
    # (drawn by the lobby script after the page loads: wait for it)
    expect(first.locator("[data-piece]")).to_have_count(len(set(board) - {".", "/"}))
    # the time to the next daily (midnight UTC), read against this machine's clock
    countdown = page.locator('[data-testid="daily-countdown"]')
    expect(countdown).to_have_text(re.compile(r"^Next daily in \d+ h \d+ min\.$"))
    hours, minutes = map(int, re.findall(r"\d+", countdown.inner_text()))
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC)
    assert abs(hours * 60 + minutes - (midnight - now).total_seconds() / 60) <= 2
    view.screenshot("lobby.png")
    first.click()
    view.game = "klotski"
    view.wait_state(board)
    view.assert_no_errors()


def test_titles_and_pack_headings_come_from_the_declarations(page, live_server):
    page.goto(live_server + "/")
    headings = {}
    for name, game in catalogue.games().items():
        expect(page.locator(f'a.game-card[data-game="{name}"] h2')).to_have_text(game.title)
        expect(page.locator(f'[data-testid="daily-{name}"]')).to_have_text(f"Daily {game.title}")
        headings.update(
            {level["pack"]: level["pack_title"] for level in game.levels() if "pack_title" in level}
        )
    assert headings, "no pack declares its title"
    for pack, title in headings.items():
        expect(page.locator(f'[data-pack="{pack}"] h3')).to_have_text(title)  # under "Levels"
    for name, game in catalogue.games().items():
        page.goto(f"{live_server}/play/{name}")
        expect(page).to_have_title(f"{game.title} · Puzzle Arcade")
        expect(page.locator("p.how")).to_have_text(game.how_to_play)


def test_url_and_copy_link_follow_the_position(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", "1 2 3 4 5 6 0 7 8")
    view.page.locator('[data-tile="7"]').click()
    view.wait_state("1 2 3 4 5 6 7 0 8")
    query = parse_qs(urlparse(page.url).query)
    assert query["board"] == ["1 2 3 4 5 6 7 0 8"]
    link = view.testid("copy-link").get_attribute("data-link")
    assert link.startswith(live_server + "/play/npuzzle?")
    # the shared link opens the same position
    page.goto(link)
    view.wait_state("1 2 3 4 5 6 7 0 8")
    view.assert_no_errors()


def test_bad_board_in_url_is_explained_and_default_shown(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", "1 2 3 banana")
    expect(view.testid("status")).to_contain_text("could not be used")
    default = view.state()
    assert default and default != "1 2 3 banana"
    assert engine_distance("npuzzle", default) is not None
    # the page itself is a 400 (its link is wrong), which the browser reports; nothing else
    assert [e for e in view.errors if "status of 400" not in e] == []
    assert len(view.errors) == 1


def test_undo_redo_keys_and_restart(page, live_server):
    start = "4 1 3 7 2 6 0 5 8"
    moves, states = engine_solution("npuzzle", start)
    view = GamePage(page, live_server).open("npuzzle", start)
    for move, after in zip(moves[:3], states[1:4], strict=True):
        view.page.locator(f'[data-tile="{move["tile"]}"]').click()
        view.wait_state(after)
    assert view.moves() == 3
    page.keyboard.press("Control+z")
    view.wait_state(states[2])
    view.click("undo")
    view.wait_state(states[1])
    assert view.moves() == 1
    page.keyboard.press("Control+y")
    view.wait_state(states[2])
    view.click("redo")
    view.wait_state(states[3])
    assert view.moves() == 3
    view.click("restart")
    view.wait_state(start)
    assert view.moves() == 0
    expect(view.testid("undo")).to_be_disabled()
    view.assert_no_errors()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_tiles_slide_unless_the_player_asks_for_reduced_motion(browser, live_server, motion):
    """A moved tile slides over the board's ``--move-ms``; with reduced motion it jumps,
    and a hinted tile wears a steady ring instead of a pulse. (Every other browser test
    asks for reduced motion: see ``browser_context_args`` in conftest.)"""
    context = browser.new_context(reduced_motion=motion)
    try:
        view = GamePage(context.new_page(), live_server).open("npuzzle", "1 2 3 4 5 6 0 7 8")
        tile = view.page.locator('[data-tile="7"]')
        tile.click()
        view.wait_state("1 2 3 4 5 6 7 0 8")
        style = tile.evaluate(
            "t => [getComputedStyle(t).transitionDuration,"
            " getComputedStyle(t.closest('.board')).getPropertyValue('--move-ms')]"
        )
        if motion == "reduce":
            assert style[0] == "0s", style
        else:
            assert style[0] not in ("", "0s") and style[1].strip() not in ("", "0ms"), style
        view.click("hint")
        hinted = view.page.locator("[data-hint] span").first
        expect(hinted).to_be_visible(timeout=10_000)
        animation = hinted.evaluate("s => getComputedStyle(s).animationName")
        assert animation == ("none" if motion == "reduce" else "pulse"), animation
        # solving it: a short celebration on the board, none with reduced motion
        view.page.locator('[data-tile="8"]').click()
        view.wait_status("solved")
        board = view.board.evaluate("b => getComputedStyle(b).animationName")
        assert board == ("none" if motion == "reduce" else "celebrate"), board
        view.assert_no_errors()
    finally:
        context.close()


# ---------------------------------------------------------------------------
# themes

#: the page's background and text as [r, g, b] lists, and <html data-theme>
COLOURS = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const body = getComputedStyle(document.body);
  return {
    theme: document.documentElement.dataset.theme,
    paper: rgb(body.backgroundColor),
    ink: rgb(body.color),
  };
}"""


def _lightness(rgb):
    return sum(rgb) / (3 * 255)


def _assert_theme(page, theme):
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    shown = page.evaluate(COLOURS)
    paper, ink = _lightness(shown["paper"]), _lightness(shown["ink"])
    if theme == "dark":
        assert paper < 0.2 and ink > 0.8, shown
    else:
        assert paper > 0.8 and ink < 0.2, shown


def test_the_theme_follows_the_system_until_chosen_and_the_choice_is_kept(browser, live_server):
    """Dark or light as the system says; a choice in the top bar wins, is written on
    ``<html>`` by the server on the next page (no light flash), and "Auto" follows the
    system again, also when it changes. A desktop's width, then a phone's from the lobby."""
    context = browser.new_context(
        color_scheme="dark", reduced_motion="reduce", viewport={"width": 1280, "height": 844}
    )
    try:
        page = context.new_page()
        view = GamePage(page, live_server).open("npuzzle", "1 2 3 4 5 6 0 7 8")
        _assert_theme(page, "dark")
        control = page.get_by_test_id("theme")
        expect(control).to_have_value("system")
        control.select_option("light")
        _assert_theme(page, "light")

        # the page's cookie reaches the context's jar a moment after the page has it
        deadline = time.monotonic() + 5
        while {"name": "arcade_theme", "value": "light"} not in [
            {"name": c["name"], "value": c["value"]} for c in context.cookies()
        ]:
            assert time.monotonic() < deadline, context.cookies()
            time.sleep(0.05)
        served = page.request.get(live_server + "/").text()  # the context's cookie goes too
        assert '<html lang="en" data-theme="light">' in served
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(live_server + "/")
        _assert_theme(page, "light")
        expect(control).to_have_value("light")

        page.get_by_test_id("prefs-button").click()  # on a phone the theme folds behind it
        page.get_by_test_id("theme").select_option("system")
        _assert_theme(page, "dark")
        page.emulate_media(color_scheme="light")
        _assert_theme(page, "light")
        served = page.request.get(live_server + "/").text()
        assert "data-theme" not in served.split(">", 2)[1]  # Auto: the stylesheet decides
        view.assert_no_errors()
    finally:
        context.close()
