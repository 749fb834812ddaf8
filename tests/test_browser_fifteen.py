"""4x4 and 5x5 boards in Chromium: a hint within a second, the proven distance after it,
a solve that plays back, and a 5x5 board that plays and hints.

Expected boards and distances come from the solver (``solver.engine``) and the
rules written out in the test, never from typed-in numbers.
"""

import random
import re
import time

import pytest
from helpers.browser import GamePage, engine_distance, engine_solution
from helpers.npuzzle import scramble
from playwright.sync_api import expect

from solver.npuzzle import NPuzzle
from solver.npuzzle import pdb as npuzzle_pdb
from solver.npuzzle.domain import warm_tables
from solver.npuzzle.instances import load

DOMAIN = NPuzzle()

pytestmark = pytest.mark.browser

# Korf's #88: its proof takes 4.1M positions, more than the quick proof's 2M cap
# (npuzzle.domain.QUICK_PROOF) and less than an analysis's 5M, so the page first
# gets an unproven hint, then the proven distance
INTERIM_FIRST = load("korf100")["instances"][87]

#: records every text the distance line shows, so a short-lived one is seen too
RECORD_DISTANCES = """
window.__distances = [];
new MutationObserver(() => {
  const node = document.querySelector('[data-testid="distance"]');
  if (!node) return;
  const text = node.textContent;
  if (window.__distances[window.__distances.length - 1] !== text) window.__distances.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture(scope="module", autouse=True)
def tables():
    """Built (or loaded) before any page asks, with the compiled searches, so the workers
    read both from their caches (as a server's workers do after warming up)."""
    warm_tables()
    return npuzzle_pdb.tables()


def _neighbours(board, n):
    """Tiles next to the blank (the rules, written out here)."""
    tiles = board.split()
    blank = tiles.index("0")
    r, c = divmod(blank, n)
    return {
        int(tiles[i * n + j])
        for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= i < n and 0 <= j < n
    }


def _slide(board, tile):
    tiles = board.split()
    i, j = tiles.index(str(tile)), tiles.index("0")
    tiles[i], tiles[j] = tiles[j], tiles[i]
    return " ".join(tiles)


def test_4x4_hint_comes_first_then_the_proven_distance(page, live_server):
    """(How soon the hint comes is the bench's and the load test's business.)"""
    board = INTERIM_FIRST["board"]
    # in tests the solver's worker processes start on first use (a server warms
    # them at startup): let one start before the clock runs
    near = DOMAIN.format(scramble(4, 6, random.Random(2)))
    GamePage(page, live_server).open("npuzzle", near).wait_distance(
        engine_distance("npuzzle", near)
    )
    page.add_init_script(RECORD_DISTANCES)
    view = GamePage(page, live_server).open("npuzzle", board, wait_analysis=False)
    started = time.monotonic()
    view.click("hint")
    hinted = page.locator("[data-tile][data-hint]")
    expect(hinted).to_have_count(1, timeout=15_000)
    waited = time.monotonic() - started
    assert int(hinted.get_attribute("data-tile")) in _neighbours(board, 4)
    assert view.state() == board  # a hint never plays the move
    view.wait_distance(INTERIM_FIRST["optimal"], timeout=120_000)
    expect(view.testid("distance")).not_to_contain_text("≤")
    shown = page.evaluate("window.__distances")
    interim = [t for t in shown if re.search(r"≤ \d+ moves", t)]
    assert interim, shown  # "≤ N" came first ...
    assert int(re.search(r"≤ (\d+)", interim[0]).group(1)) >= INTERIM_FIRST["optimal"]
    assert shown.index(interim[0]) < max(
        i for i, t in enumerate(shown) if re.search(rf"^{INTERIM_FIRST['optimal']} moves", t)
    )
    view.screenshot("fifteen-hint.png")
    view.assert_no_errors()
    print(f"4x4 hint shown {waited:.2f} s after the click")


def test_4x4_solve_plays_the_shortest_solution_back(page, live_server):
    board = DOMAIN.format(scramble(4, 14, random.Random(21)))
    moves, states = engine_solution("npuzzle", board)
    goal = DOMAIN.format(DOMAIN.parse(states[-1]))
    assert DOMAIN.is_goal(DOMAIN.parse(goal))
    view = GamePage(page, live_server).open("npuzzle", board)
    view.wait_distance(len(moves))
    view.click("solve")
    view.wait_state(goal, timeout=15_000)
    view.wait_status("solved")
    assert view.moves() == len(moves)
    view.assert_no_errors()


def test_5x5_board_plays_and_hints(page, live_server):
    board = DOMAIN.format(scramble(5, 200, random.Random(8)))
    view = GamePage(page, live_server).open("npuzzle", board)
    # never claimed shortest: "≤ N" while searching, then "between L and N"
    expect(view.testid("distance")).to_have_attribute("data-optimal", "false")
    expect(view.testid("distance")).to_contain_text(re.compile(r"≤ \d+|between \d+ and \d+"))
    # tiles are a fifth of the board wide
    box, tile = view.board.bounding_box(), page.locator('[data-tile="1"]').bounding_box()
    assert abs(tile["width"] - (box["width"] - 24) / 5) < 2
    # a click slides a tile next to the blank
    tile_no = min(_neighbours(board, 5))
    page.locator(f'[data-tile="{tile_no}"]').click()
    after = _slide(board, tile_no)
    view.wait_state(after)
    assert view.moves() == 1
    # the hint names a tile next to the blank
    view.click("hint")
    hinted = page.locator("[data-tile][data-hint]")
    expect(hinted).to_have_count(1, timeout=5_000)
    hint_tile = int(hinted.get_attribute("data-tile"))
    assert hint_tile in _neighbours(after, 5)
    hinted.click()
    view.wait_state(_slide(after, hint_tile))
    view.screenshot("fivebyfive.png")
    view.assert_no_errors()
