"""The player's page in Chromium at 1280 and 390 px: two ladder puzzles played through
the API with the page's cookie, then the rating, its line's points, the recovery code
made only on a click, and the lobby's ladder link with the rating; a name chosen in the
header, then the dailies' calendar, the levels solved and the results played again."""

import re
import uuid

import pytest
from helpers.browser import engine_solution
from playwright.sync_api import expect

from solver import catalogue
from webapp.levels.facts import level_ref

pytestmark = pytest.mark.browser


def _overflow(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def test_the_player_page_shows_ratings_history_and_the_code_behind_a_click(page, live_server):
    page.set_viewport_size({"width": 1280, "height": 844})
    page.goto(live_server + "/")
    after = None
    for _ in range(2):
        puzzle = page.request.post(live_server + "/api/ladder/npuzzle", data={}).json()
        _moves, states = engine_solution("npuzzle", puzzle["board"])
        body = {
            "game": "npuzzle",
            "board": puzzle["board"],
            "options": puzzle["options"],
            "states": states,
            "seconds": 5,
            "assisted": False,
        }
        reply = page.request.post(live_server + "/api/results", data=body).json()
        after = reply["rating"]["after"]
    page.goto(live_server + "/player")
    rating = page.get_by_test_id("player-rating")
    expect(rating).to_have_count(1)
    expect(rating).to_have_attribute("data-game", "npuzzle")
    expect(rating).to_have_attribute("data-rating", str(after))
    expect(page.get_by_test_id("rating-history")).to_have_attribute("data-points", "2")
    expect(page.get_by_test_id("strengths")).to_contain_text("None yet")
    code = page.get_by_test_id("recovery-code")
    expect(code).to_be_hidden()
    assert not code.inner_text()  # never in the page until asked for
    page.get_by_test_id("show-code").click()
    expect(code).to_be_visible()
    expect(code).to_have_text(re.compile(r"\S{8,}"))
    moved = page.request.post(live_server + "/api/player/restore", data={"code": code.inner_text()})
    assert moved.ok
    assert _overflow(page) <= 0

    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_test_id("rating-history")).to_be_visible()
    assert _overflow(page) <= 0, "the player's page is wider than a phone"
    page.goto(live_server + "/")
    mark = page.get_by_test_id("ladder-rating-npuzzle")
    expect(mark).to_have_text(f"· rating {after}")
    expect(page.get_by_test_id("ladder-npuzzle")).to_contain_text("Continue the ladder")
    assert _overflow(page) <= 0


def _solve_through_the_api(page, base, game, board, options):
    _moves, states = engine_solution(
        game, board, **{k: v for k, v in options.items() if v is not None}
    )
    body = {
        "game": game,
        "board": board,
        "options": options,
        "states": states,
        "seconds": 9,
        "assisted": False,
    }
    reply = page.request.post(base + "/api/results", data=body)
    assert reply.ok, reply.text()
    return states


@pytest.mark.parametrize("width", [1280, 390])
def test_a_name_from_the_header_then_the_page_of_dailies_levels_and_replays(
    page, live_server, width
):
    """The header's name box names the player on any page, before any finish; the
    player's page then shows today's daily on the jugs calendar with a streak of 1, the
    level solved from its own link with three stars, and both results, the newest
    first, each with a link that plays its line back on its start's page."""
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(live_server + "/")
    name = f"Mia{uuid.uuid4().hex[:6]}"
    page.get_by_test_id("me-button").click()
    page.get_by_test_id("name-box").fill(name)
    page.get_by_test_id("name-box").press("Enter")
    expect(page.get_by_test_id("name-note")).to_contain_text("recovery code")
    expect(page.get_by_test_id("me-name")).to_have_text(name)

    daily = page.request.get(live_server + "/api/daily/jugs").json()
    daily_states = _solve_through_the_api(
        page, live_server, "jugs", daily["board"], daily["options"]
    )
    level = catalogue.get("jugs").levels()[2]
    page.request.get(live_server + f"/play/jugs?level={level_ref(catalogue.get('jugs'), level)}")
    page.wait_for_timeout(1500)  # the human floor: 0.1 s a move on the server's clock
    level_states = _solve_through_the_api(
        page, live_server, "jugs", level["board"], level["options"]
    )

    page.goto(live_server + "/player")
    expect(page.get_by_test_id("player-title")).to_have_text(name)
    expect(page.get_by_test_id("me-name")).to_have_text(name)  # every page's header knows it
    today = daily["date"]
    cell = page.locator(f'[data-testid="daily-calendar"][data-game="jugs"] [data-day="{today}"]')
    expect(cell).to_have_attribute("data-solved", "true")
    expect(page.locator('[data-testid="daily-calendar"] [data-solved="true"]')).to_have_count(1)
    expect(page.locator('[data-testid="profile-streak"][data-game="jugs"]')).to_have_attribute(
        "data-streak", "1"
    )
    solved = page.get_by_test_id("levels-solved").get_by_test_id("level-solved")
    expect(solved).to_have_count(1)
    expect(solved).to_contain_text(level["name"])
    expect(solved.get_by_test_id("stars")).to_have_attribute("data-stars", "3")
    recent = page.get_by_test_id("recent-result")
    expect(recent).to_have_count(2)
    expect(recent.first).to_contain_text(level["name"])
    assert _overflow(page) <= 0, f"the player's page is wider than {width} px"

    for row, states in ((recent.nth(1), daily_states), (recent.first, level_states)):
        row.get_by_test_id("replay-link").click()
        expect(page.get_by_test_id("board")).to_have_attribute("data-state", states[0])
        expect(page.get_by_test_id("status")).to_contain_text("press Play", timeout=10_000)
        page.get_by_test_id("play-pause").click()
        expect(page.get_by_test_id("board")).to_have_attribute(
            "data-state", states[-1], timeout=10_000
        )
        expect(page.get_by_test_id("moves")).to_have_text(str(len(states) - 1))
        page.go_back()
