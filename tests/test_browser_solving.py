"""Solving from the page: cancelling a long search, and a player interrupting playback."""

import datetime as dt

import pytest
from helpers.browser import GamePage, engine_solution
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

#: a 6x6 Klotski layout far too big for a table: its search runs until cancelled
LONG_KLOTSKI = "BAACxy/BAACzw/DEEF12/DGHF34/I....J/KLMNOP"
#: an 8-puzzle position many moves from solved, so playback takes a while
FAR = "8 6 7 2 5 4 3 0 1"
#: where the page's clock starts when a test holds it
START = dt.datetime(2024, 1, 1, 12, 0, 0)


def test_cancel_stops_a_long_search_and_nothing_plays(page, live_server):
    view = GamePage(page, live_server).open("klotski", LONG_KLOTSKI, wait_analysis=False)
    view.click("solve")
    cancel = view.testid("cancel")
    cancel.wait_for(state="visible", timeout=20_000)  # the socket may still be connecting
    from playwright.sync_api import expect

    expect(view.testid("progress")).to_contain_text("positions", timeout=10_000)
    cancel.click()
    expect(view.testid("progress")).to_contain_text("cancelled", timeout=5_000)
    expect(cancel).to_be_hidden()
    page.wait_for_timeout(1500)  # a stale solution or progress must not arrive
    assert view.state() == LONG_KLOTSKI
    assert view.moves() == 0
    assert "cancelled" in view.testid("progress").inner_text()
    view.assert_no_errors()


def test_a_player_move_stops_playback_and_played_moves_can_be_undone(page, live_server):
    """Playback steps on the page's timers; the test holds the page's clock and moves it
    by hand, so "three more moves would have played by now" needs no waiting."""
    page.clock.install(time=START)
    page.clock.pause_at(START + dt.timedelta(seconds=1))
    view = GamePage(page, live_server).open("npuzzle", FAR, speed=500)
    moves, states = engine_solution("npuzzle", FAR)
    view.click("solve")
    expect(view.testid("play-pause")).to_have_attribute("data-playing", "true", timeout=15_000)
    for _ in range(40):  # a tenth of a second at a time
        if view.moves() == 2:
            break
        page.clock.run_for(100)
    # the player slides a tile other than the one playback would move next
    current = view.state()
    assert view.moves() == 2 and current == states[2]
    tiles = current.split()
    blank = tiles.index("0")
    neighbour = next(
        t
        for i, t in enumerate(tiles)
        if t != "0"
        and t != str(moves[2]["tile"])
        and abs(i // 3 - blank // 3) + abs(i % 3 - blank % 3) == 1
    )
    page.locator(f'[data-tile="{neighbour}"]').click()
    page.clock.run_for(1500)  # playback would have made 3 more moves by now
    assert view.moves() == 3
    assert view.state() != states[3]
    # undo takes back the player's move, then the two played ones
    view.click("undo")
    view.wait_state(states[2])
    view.click("undo")
    view.click("undo")
    view.wait_state(FAR)
    view.assert_no_errors()


def test_the_playback_bar_shows_only_once_there_is_a_solution_to_play(page, live_server):
    """Before Solve there is nothing to play: no bar of disabled buttons; Solve's
    solution brings it, ready."""
    view = GamePage(page, live_server).open("npuzzle", "1 2 3 4 5 6 0 7 8", speed=1500)
    bar = view.testid("playback")
    expect(bar).to_be_hidden()
    expect(view.testid("play-pause")).to_be_hidden()
    view.click("solve")
    expect(bar).to_be_visible(timeout=15_000)
    expect(view.testid("step-back")).to_be_visible()
    view.assert_no_errors()
