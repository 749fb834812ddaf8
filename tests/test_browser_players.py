"""Players in Chromium: solving the daily shows the rank, the streak and the leaderboard,
and another player (a second browser context) appears on the same leaderboard; a result
answered 503 is kept and sent again."""

import json
import re

import pytest
from helpers.browser import CONTEXT, GamePage, engine_solution
from playwright.sync_api import expect

from solver import catalogue

pytestmark = pytest.mark.browser

RANK = re.compile(r"^#\d+$")


def solve_daily_by_hand(page, base):
    """Open today's water-jugs daily and pour the shortest line, jug by jug."""
    daily = page.request.get(f"{base}/api/daily/jugs").json()
    moves, states = engine_solution("jugs", daily["board"], goal=daily["options"]["goal"])
    assert len(moves) == daily["shortest"]
    view = GamePage(page, base).open("jugs", daily=1)
    assert view.state() == daily["board"]
    for move, after in zip(moves, states[1:], strict=True):
        page.locator(f'[data-jug="{move["from"]}"]').click()
        page.locator(f'[data-jug="{move["to"]}"]').click()
        view.wait_state(after)
    view.wait_status("solved")
    return view


def test_the_daily_shows_rank_streak_and_leaderboard_with_another_player(
    page, browser, live_server
):
    ann = solve_daily_by_hand(page, live_server)
    expect(ann.testid("rank")).to_have_text(RANK, timeout=10_000)
    expect(ann.testid("streak")).to_have_text("1")
    expect(ann.testid("standing")).to_contain_text(re.compile(r"streak 1 day(?!s)"))
    expect(ann.testid("leaderboard-row").first).to_be_visible()
    # the recovery-code box lines up with the page's layout, not the screen's left edge
    summary = ann.testid("player-restore").locator("summary").bounding_box()
    assert summary["x"] >= page.locator(".stage").bounding_box()["x"] - 1
    # naming yourself on the page: markup is refused in words, a plain name is saved
    ann.testid("player-name").fill("<b>Ann</b>")
    ann.testid("player-name-form").locator("button").click()
    expect(ann.testid("player-note")).to_contain_text("not '<'")
    ann.errors.remove(
        "Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"
    )
    ann.testid("player-name").fill("Ann")
    ann.testid("player-name-form").locator("button").click()
    expect(ann.testid("player-note")).to_contain_text("recovery code")
    expect(page.locator('[data-testid="leaderboard-row"]', has_text="Ann")).to_have_count(1)
    ann.assert_no_errors()
    code = re.search(r"recovery code is (\S+):", ann.testid("player-note").inner_text())[1]

    # Ann on another browser: her recovery code, typed into the page, makes her Ann there
    laptop = browser.new_context(**CONTEXT)
    try:
        again = GamePage(laptop.new_page(), live_server).open("jugs", daily=1)
        again.testid("player-restore").locator("summary").click()
        again.testid("player-code").fill("not-a-code")
        again.testid("player-restore-form").locator("button").click()
        expect(again.testid("player-restore-note")).to_contain_text("no player has that")
        again.errors.clear()
        again.testid("player-code").fill(code)
        again.testid("player-restore-form").locator("button").click()
        expect(again.testid("player-restore-note")).to_contain_text("Welcome back, Ann")
        me = again.page.request.get(f"{live_server}/api/player").json()
        assert me["name"] == "Ann"
        again.assert_no_errors()
        # back in the first browser: two browsers play as Ann, and she signs the other out
        ann.testid("player-sessions").locator("summary").click()
        expect(ann.testid("session")).to_have_count(2)
        expect(ann.testid("session").filter(has_text="this browser")).to_have_count(1)
        ann.testid("end-session").click()
        expect(ann.testid("session")).to_have_count(1)
        assert again.page.request.get(f"{live_server}/api/player").json()["known"] is False
        ann.assert_no_errors()
    finally:
        laptop.close()

    other = browser.new_context(**CONTEXT)
    try:
        bob_page = other.new_page()
        assert bob_page.request.post(f"{live_server}/api/player", data={"name": "Bob"}).ok
        bob = solve_daily_by_hand(bob_page, live_server)
        expect(bob.testid("rank")).to_have_text(RANK, timeout=10_000)
        expect(bob.testid("streak")).to_have_text("1")
        rows = bob_page.locator('[data-testid="leaderboard-row"]')
        expect(rows.filter(has_text="Bob")).to_have_count(1)
        expect(rows.filter(has_text="Ann")).to_have_count(1)
        bob.assert_no_errors()
    finally:
        other.close()
    board = page.request.get(f"{live_server}/api/leaderboard/jugs").json()
    assert {"Ann", "Bob"} <= {entry["name"] for entry in board["entries"]}
    assert board["me"]["rank"] is not None and board["streak"] == 1

    # back at the start, the coach's first move shows that both players took it
    first_move = engine_solution("jugs", board["board"], goal=board["options"]["goal"])[0][0]
    view = GamePage(page, live_server).open("jugs", daily=1)
    view.click("restart")  # the finished line came back with the page (the tab kept it)
    view.wait_state(board["board"])
    option = page.locator(f'[data-testid="option"][data-move="{first_move["text"]}"]')
    expect(option).to_have_attribute("data-players", re.compile(r"^\d+$"), timeout=10_000)
    assert int(option.get_attribute("data-players")) >= 2
    expect(option.locator('[data-testid="option-players"]')).to_contain_text("players")
    view.assert_no_errors()
    # the lobby marks the daily Ann finished today, with her rank and streak; not the others
    page.goto(f"{live_server}/")
    expect(page.locator('[data-testid="daily-done-jugs"]')).to_have_text(
        re.compile(r"^✓ done today, #\d+ · streak 1 day$")
    )
    expect(page.locator('[data-testid="daily-done-watersort"]')).to_be_hidden()


def test_level_cards_show_how_many_played_and_solved(page, live_server):
    level = catalogue.get("jugs").levels()[0]
    _moves, states = engine_solution("jugs", level["board"], **level["options"])
    body = {"game": "jugs", "board": level["board"], "options": level["options"], "states": states}
    assert page.request.post(f"{live_server}/api/results", data=body).ok
    page.goto(f"{live_server}/")
    card = page.locator(f'a.level[data-game="jugs"][data-board="{level["board"]}"]').first
    note = card.locator('[data-testid="level-players"]')
    expect(note).to_contain_text("% solved", timeout=10_000)
    assert int(note.get_attribute("data-players")) >= 1


def test_a_result_answered_503_is_sent_again_after_retry_after(page, live_server):
    posts = []

    def first_refused(route):
        posts.append(route.request.post_data)
        if len(posts) == 1:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body=json.dumps({"ok": False, "error": "the database is unavailable"}),
            )
        else:
            route.continue_()

    page.route("**/api/results", first_refused)
    view = solve_daily_by_hand(page, live_server)
    expect(view.testid("standing")).to_contain_text("sending again", timeout=5_000)
    expect(view.testid("rank")).to_have_text(RANK, timeout=10_000)
    assert len(posts) == 2 and posts[0] == posts[1]  # the same result, kept and sent again
    view.errors[:] = [error for error in view.errors if "status of 503" not in error]
    view.assert_no_errors()
