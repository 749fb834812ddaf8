"""A race in Chromium: two players (two browser contexts) in one private race, at a
desktop's and a phone's width. Each move is the reference rules' (helpers.npuzzle)."""

import re

import pytest
from helpers.browser import CONTEXT, GamePage, slide_to
from helpers.npuzzle import neighbour
from helpers.sockets import LiveClient
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def resize(views, width):
    for view in views:
        view.page.set_viewport_size({"width": width, "height": 844})


def test_two_players_race_on_the_page(page, browser, live_server):
    guest_context = browser.new_context(**CONTEXT)
    try:
        owner, guest = GamePage(page, live_server), GamePage(guest_context.new_page(), live_server)
        both = (owner, guest)
        resize(both, 1280)
        owner.page.goto(live_server + "/race/new")
        expect(owner.testid("race-share")).to_be_visible()
        shared = owner.testid("race-link").get_attribute("href")
        assert shared and not shared.endswith("/new")
        guest.page.goto(shared)
        expect(owner.testid("racer")).to_have_count(2)
        expect(guest.testid("race-start")).to_be_hidden()  # only the owner starts it
        owner.testid("race-start").click()
        for view in both:
            expect(view.testid("status")).to_contain_text("one closer", timeout=5000)
        first = owner.state()
        assert first == guest.state()  # the same puzzle for both
        slide_to(owner, neighbour(owner.state(), -1), wait=False)
        expect(owner.testid("race-score")).to_have_text("1")
        expect(guest.testid("racer-score").first).to_have_text("1")  # seen live
        owner.screenshot("race-1280.png")
        resize(both, 390)  # the phone's width, mid-race
        slide_to(guest, neighbour(guest.state(), -1), wait=False)
        expect(guest.testid("race-score")).to_have_text("1")
        expect(owner.testid("racer-score")).to_have_text(["1", "1"])
        for view in both:
            expect(view.testid("race-over")).to_be_visible(timeout=10000)
            expect(view.testid("race-rematch")).to_be_visible()
        expect(guest.testid("race-results")).to_contain_text(": 1 (")
        line = guest.testid("race-line").first.get_attribute("href")
        assert line.startswith("/play/npuzzle?") and first.replace(" ", "+") in line
        # each puzzle a small board with its fewest moves, not its notation
        puzzle = guest.testid("race-puzzle").first
        expect(puzzle.get_by_test_id("race-puzzle-board").locator("[data-tile]")).to_have_count(8)
        expect(puzzle).to_contain_text(re.compile(r"N-puzzle: \d+ moves?"))
        assert first not in guest.testid("race-over").inner_text()
        owner.screenshot("race-over-390.png")
        assert owner.errors == [] and guest.errors == []
    finally:
        guest_context.close()


@pytest.fixture(scope="module")
def proxied_server():
    """A server behind a proxy it trusts (``TRUSTED_PROXIES`` 1), so each browser context
    can race from an address of its own: a rated race rates one racer per address."""
    from helpers.apps import make_app, serving

    app = make_app(RACE_COUNTDOWN_SECONDS=1, RACE_SECONDS=6, RACE_PUZZLES=2, TRUSTED_PROXIES=1)
    with serving(app) as url:
        yield url


def test_a_public_race_shows_each_players_new_rating(page, browser, proxied_server):
    """Two players on the page (two addresses) and a third racer without a player (a
    bare socket) in the public lobby: the race is rated for the two, and the results
    show their new ratings, the winner's up."""
    live_server = proxied_server
    other_context = browser.new_context(
        **CONTEXT, extra_http_headers={"X-Forwarded-For": "10.9.0.2"}
    )
    third = None
    try:
        ann, bo = GamePage(page, live_server), GamePage(other_context.new_page(), live_server)
        # names no other test takes: the browser tests share one server, and a taken
        # name is a 409
        for view, name in ((ann, "RaceAnn"), (bo, "RaceBo")):
            made = view.page.context.request.post(live_server + "/api/player", data={"name": name})
            assert made.ok
            view.page.goto(live_server + "/race")
        expect(ann.testid("racer")).to_have_count(2)
        expect(ann.testid("racer").filter(has_text="RaceBo")).to_have_count(1)  # their name
        third = LiveClient(live_server)
        third.emit("race_join", {"name": "Guest"})
        expect(ann.testid("status")).to_contain_text("one closer", timeout=15000)
        expect(ann.testid("race-rated")).to_have_attribute("data-rated", "true")
        slide_to(ann, neighbour(ann.state(), -1), wait=False)
        expect(ann.testid("race-score")).to_have_text("1")
        for view in (ann, bo):
            expect(view.testid("race-rating")).to_have_count(2, timeout=15000)
        rows = bo.testid("race-result")
        expect(rows).to_have_count(3)
        assert int(rows.first.get_attribute("data-change")) > 0  # Ann, first by score
        assert int(rows.nth(1).get_attribute("data-change")) < 0
        assert rows.nth(2).get_attribute("data-rating") is None  # the guest: unrated
        expect(ann.testid("race-rated")).to_be_hidden()
        bo.screenshot("race-rated.png")
        won = rows.first.get_attribute("data-rating")
        ann.page.goto(live_server + "/player")  # the player's page shows it too
        expect(ann.testid("player-race-rating")).to_have_attribute("data-rating", won)
        assert ann.errors == [] and bo.errors == []
    finally:
        if third is not None:
            third.close()
        other_context.close()


def test_a_guest_names_themself_in_the_header_and_the_public_race_rates_them(page, live_server):
    """The race page's note for a guest points at the header's name box, and it is true:
    a name chosen there makes the waiting public race rate this racer, under that name."""
    view = GamePage(page, live_server)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server + "/race")
    note = view.testid("race-rated")
    expect(note).to_have_attribute("data-rated", "false")
    expect(note).to_contain_text("button at the top of the page")
    expect(view.testid("me-button")).to_be_visible()
    view.testid("me-button").click()
    view.testid("name-box").fill("RaceCy")
    view.testid("name-box").press("Enter")
    expect(note).to_have_attribute("data-rated", "true")
    expect(view.testid("racer").filter(has_text="RaceCy")).to_have_count(1)
    expect(view.testid("racer")).to_have_count(1)  # the guest racer it was left the race
    assert view.errors == []
