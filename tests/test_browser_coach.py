"""The coach in Chromium: every move rated, the distance graph, accuracy, review, share.

Listed distances are checked against a plain breadth-first search over each game's
reference rules (``tests/helpers``); the boards the moves lead to come from the
solver's own legal moves only to pair a move's text with its board.
"""

import random
import re
from urllib.parse import parse_qs, urlparse

import pytest
from helpers.browser import ARTIFACTS, GamePage, engine_distance, engine_solution
from helpers.jugs import capacities_of, contents_of, goal_met, jug_pours
from helpers.klotski import coach_rules
from helpers.npuzzle import GOAL_8, scramble, slides, tiles_of
from helpers.search import bfs_distance
from helpers.watersort import pours, sorted_out, tubes_of
from playwright.sync_api import expect

from solver import catalogue
from solver.core.coach import accuracy
from solver.engine import parse_board
from solver.npuzzle import NPuzzle
from solver.npuzzle import pdb as npuzzle_pdb

DOMAIN = NPuzzle()

pytestmark = pytest.mark.browser

EIGHT = "4 1 3 7 2 6 0 5 8"  # 8-puzzle, a few moves from solved
TWO_AWAY = "1 2 3 4 5 6 0 7 8"  # 8-puzzle, two moves from solved
SPARK = re.compile("[▁▂▃▄▅▆▇█]{3,}")


def photograph(page, name, width=1280, height=1300):
    """A screenshot for people to look at (not checked): a tall viewport rather than
    full_page, whose resize would restart the boards' own size transitions (off here:
    reduced motion, so the new layout is drawn at once and there is nothing to wait for)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(ARTIFACTS / name))


# the reference rules of each game (tests/helpers): (neighbours, is_goal, to_state)
def eight_rules(_board, _options):
    return slides, GOAL_8.__eq__, tiles_of


def water_rules(_board, options):
    cap = options["capacity"]
    return pours(cap), sorted_out(cap), tubes_of


def jug_rules(board, options):
    return jug_pours(capacities_of(board)), goal_met(options["goal"]), contents_of


def klotski(board, _options):
    return coach_rules(board)


SMALL_BOARDS = [
    ("npuzzle", EIGHT, {}, eight_rules),
    ("watersort", "AAA,BCB,BCC,", {"capacity": 3}, water_rules),
    ("klotski", "AA./AAG/FEB/CD.", {}, klotski),
    ("jugs", "0/3,0/5,8/8", {"goal": "0,4,4"}, jug_rules),
]


def shown_options(view, timeout=10_000):
    """{move text: (distance, verdict)} as the page lists them, once they are rated."""
    options = view.testid("option")
    expect(options.first).to_be_visible(timeout=timeout)
    expect(view.page.locator('[data-testid="option"][data-verdict="unknown"]')).to_have_count(
        0, timeout=timeout
    )
    return {
        o.get_attribute("data-move"): (
            o.get_attribute("data-distance"),
            o.get_attribute("data-verdict"),
        )
        for o in options.all()
    }


def expected_options(game, board, options, rules):
    """{move text: (distance text, verdict)} from a plain BFS over the test's own rules."""
    neighbours, is_goal, to_state = rules(board, options)
    domain, state = parse_board(game, board, **options)
    here = bfs_distance(to_state(board), neighbours, is_goal)
    children = [
        (domain.describe(move), domain.format(child)) for move, child in domain.legal_moves(state)
    ]
    assert {to_state(after) for _, after in children} == set(neighbours(to_state(board)))
    expected = {}
    for text, after in children:
        d = bfs_distance(to_state(after), neighbours, is_goal)
        verdict = "dead" if d is None else "best" if d < here else "equal" if d == here else "worse"
        expected[text] = ("unsolvable" if d is None else str(d), verdict)
    return expected


@pytest.mark.parametrize("game,board,options,rules", SMALL_BOARDS, ids=[b[0] for b in SMALL_BOARDS])
def test_every_move_is_listed_with_its_distance_and_verdict(
    page, live_server, game, board, options, rules
):
    view = GamePage(page, live_server).open(game, board, **options)
    assert shown_options(view) == expected_options(game, board, options, rules)
    # every option is a keyboard-reachable button that says its verdict in words
    first = view.testid("option").first
    assert first.evaluate("el => el.tagName") == "BUTTON"
    expect(first).to_contain_text(re.compile("best|equal|worse|dead"))
    view.assert_no_errors()


def test_a_careless_pour_is_marked_dead(page, live_server):
    view = GamePage(page, live_server).open("watersort", "AAA,BCB,BCC,", capacity=3)
    dead = view.page.locator('[data-testid="option"][data-verdict="dead"]')
    expect(dead.first).to_have_attribute("data-distance", "unsolvable", timeout=10_000)
    expect(dead.first).to_contain_text("dead: unsolvable")
    dead.first.click()
    view.wait_status("unsolvable")
    view.assert_no_errors()


@pytest.mark.parametrize("game,board,options,rules", SMALL_BOARDS, ids=[b[0] for b in SMALL_BOARDS])
def test_clicking_an_option_plays_it(page, live_server, game, board, options, rules):
    view = GamePage(page, live_server).open(game, board, **options)
    listed = shown_options(view)
    text = next(t for t, (_, verdict) in listed.items() if verdict == "best")
    domain, state = parse_board(game, board, **options)
    after = next(
        domain.format(child)
        for move, child in domain.legal_moves(state)
        if domain.describe(move) == text
    )
    view.page.locator(f'[data-testid="option"][data-move="{text}"]').click()
    view.wait_state(after)
    assert view.moves() == 1
    view.wait_distance(int(listed[text][0]))
    view.assert_no_errors()


def test_an_option_that_extends_the_last_move_says_so(page, live_server):
    """Klotski's piece metric: the same piece again is the same move, and the list says so."""
    start = "BAAC/BAAC/DEEF/DGHF/I..J"
    view = GamePage(page, live_server).open("klotski", start)
    listed = shown_options(view)
    first = next(text for text in listed if text.startswith("G "))
    view.page.locator(f'[data-testid="option"][data-move="{first}"]').click()
    expect(view.testid("moves")).to_have_text("1")
    shown_options(view)
    again = view.page.locator('[data-testid="option"][data-move^="G "]')
    others = view.page.locator('[data-testid="option"]:not([data-move^="G "])')
    # the option that moves G back where it started takes the move back: it extends nothing
    domain, state = parse_board("klotski", view.state())
    back = {domain.describe(m) for m, c in domain.legal_moves(state) if domain.format(c) == start}
    assert back and {o.get_attribute("data-move") for o in again.all()} > back
    for option in again.all():
        if option.get_attribute("data-move") in back:
            expect(option).to_contain_text("takes back your last move")
            expect(option).not_to_contain_text("extends")
        else:
            expect(option).to_contain_text("extends your last move")
    for option in others.all():
        expect(option).not_to_contain_text("your last move")
    # G on to a third place (not back to its start, which would undo the move)
    text, board = next(
        (domain.describe(m), domain.format(c))
        for m, c in domain.legal_moves(state)
        if m.piece == "G" and domain.format(c) != start
    )
    view.page.locator(f'[data-testid="option"][data-move="{text}"]').click()
    view.wait_state(board)
    expect(view.testid("moves")).to_have_text("1")
    view.assert_no_errors()


def test_an_option_plays_from_the_keyboard(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", EIGHT)
    shown_options(view)
    option = view.page.locator('[data-testid="option"][data-verdict="worse"]').first
    move = option.get_attribute("data-move")
    option.focus()
    page.keyboard.press("Enter")
    expect(view.testid("moves")).to_have_text("1")
    tile = int(move.split()[0])
    before = EIGHT.split()
    i, j = before.index(str(tile)), before.index("0")
    before[i], before[j] = before[j], before[i]
    view.wait_state(" ".join(before))
    view.assert_no_errors()


# -- larger N-puzzles: proven by bounded searches, or shown as bounds -------------------


@pytest.fixture(scope="module")
def fifteen_tables():
    """Built (or loaded) before any page asks, so the workers read them from the cache."""
    return npuzzle_pdb.tables()


def test_fifteen_puzzle_moves_are_proven_by_bounded_searches(page, live_server, fifteen_tables):
    board = DOMAIN.format(scramble(4, 40, random.Random(12)))
    view = GamePage(page, live_server).open("npuzzle", board)
    listed = shown_options(view, timeout=30_000)  # a shared machine may be slow
    d = engine_distance("npuzzle", board)
    domain, state = parse_board("npuzzle", board)
    for move, child in domain.legal_moves(state):
        distance, verdict = listed[domain.describe(move)]
        truth = engine_distance("npuzzle", domain.format(child))
        assert distance == str(truth) and truth in (d - 1, d + 1)
        assert verdict == ("best" if truth < d else "worse")
    photograph(page, "coach-fifteen.png")
    view.assert_no_errors()


def test_unproven_distances_are_bounds_and_never_judged(page, live_server):
    board = DOMAIN.format(scramble(5, 200, random.Random(8)))
    view = GamePage(page, live_server).open("npuzzle", board)
    options = view.testid("option")
    expect(options.first).to_be_visible(timeout=10_000)
    assert options.count() == len(list(DOMAIN.moves(DOMAIN.parse(board))))
    for option in options.all():
        expect(option).to_have_attribute("data-verdict", "unknown")
        expect(option).to_have_attribute("data-optimal", "false")
        expect(option).to_contain_text("≤")
        expect(option).to_contain_text("unproven")
    view.assert_no_errors()


# -- the distance graph ----------------------------------------------------------------


def play_line(view, start, wasted_first=True):
    """A wasted slide, its undoing slide, then the shortest solution: returns the boards."""
    moves, states = engine_solution("npuzzle", start)
    domain, state = parse_board("npuzzle", start)
    detour = next(
        (move, child)
        for move, child in domain.moves(state)
        if engine_distance("npuzzle", domain.format(child)) > len(moves)
    )
    line = [start, domain.format(detour[1]), start] + states[1:]
    taps = [detour[0].tile, detour[0].tile] + [m["tile"] for m in moves]
    for tile, after in zip(taps, line[1:], strict=True):
        view.page.locator(f'[data-tile="{tile}"]').click()
        view.wait_state(after)
    return line


def graph_points(view):
    return view.testid("graph-point")


def test_graph_shows_every_position_and_marks_the_wasted_move(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", TWO_AWAY)
    line = play_line(view, TWO_AWAY)
    points = graph_points(view)
    expect(points).to_have_count(len(line))
    for ply, board in enumerate(line):
        point = points.nth(ply)
        expect(point).to_have_attribute("data-ply", str(ply))
        expect(point).to_have_attribute("data-distance", str(engine_distance("npuzzle", board)))
    wasted = view.page.locator('[data-testid="graph-point"][data-wasted]')
    expect(wasted).to_have_count(1)
    expect(wasted).to_have_attribute("data-ply", "1")
    view.assert_no_errors()


def test_clicking_a_point_jumps_there_and_later_moves_stay_redoable(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", TWO_AWAY)
    line = play_line(view, TWO_AWAY)
    graph_points(view).nth(1).click()
    view.wait_state(line[1])
    assert view.moves() == 1
    expect(graph_points(view)).to_have_count(len(line))
    view.click("redo")
    view.wait_state(line[2])
    # the graph follows undo, arrow keys and restart too
    view.click("undo")
    view.wait_state(line[1])
    expect(view.page.locator('[data-testid="graph-point"][data-current]')).to_have_attribute(
        "data-ply", "1"
    )
    view.page.locator('[data-testid="graph-point"][data-current]').focus()
    page.keyboard.press("End")
    view.wait_state(line[-1])
    page.keyboard.press("ArrowLeft")
    view.wait_state(line[-2])
    view.click("restart")
    view.wait_state(TWO_AWAY)
    expect(graph_points(view)).to_have_count(1)
    view.assert_no_errors()


def test_graph_follows_solution_playback(page, live_server):
    moves, states = engine_solution("npuzzle", EIGHT)
    view = GamePage(page, live_server).open("npuzzle", EIGHT)
    view.click("solve")
    view.wait_state(states[-1], timeout=15_000)
    points = graph_points(view)
    expect(points).to_have_count(len(states))
    for ply in range(len(states)):
        expect(points.nth(ply)).to_have_attribute("data-distance", str(len(moves) - ply))
    expect(view.page.locator('[data-testid="graph-point"][data-wasted]')).to_have_count(0)
    view.assert_no_errors()


# -- accuracy, review, share --------------------------------------------------------


def test_accuracy_when_solved_is_kept_as_the_level_best(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", TWO_AWAY)
    expect(view.testid("accuracy")).to_be_hidden()
    line = play_line(view, TWO_AWAY)
    view.wait_status("solved")
    shortest = engine_distance("npuzzle", TWO_AWAY)
    made = len(line) - 1
    expect(view.testid("accuracy")).to_have_text(f"{accuracy(shortest, made)}%")
    expect(view.testid("stars")).to_have_attribute("aria-label", re.compile(r"\d of 3 stars"))
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('arcade-progress-v1'))")
    assert [entry["accuracy"] for entry in stored.values()] == [accuracy(shortest, made)]
    # a perfect solve afterwards raises the best
    view.click("restart")
    view.wait_state(TWO_AWAY)
    moves, states = engine_solution("npuzzle", TWO_AWAY)
    for move, after in zip(moves, states[1:], strict=True):
        view.page.locator(f'[data-tile="{move["tile"]}"]').click()
        view.wait_state(after)
    expect(view.testid("accuracy")).to_have_text("100%")
    expect(view.testid("best-accuracy")).to_have_text("best 100%")
    view.assert_no_errors()


def test_review_jumps_to_a_mistake_and_judges_the_retry(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", TWO_AWAY)
    line = play_line(view, TWO_AWAY)
    view.click("review")
    mistakes = view.testid("mistake")
    expect(mistakes).to_have_count(1)
    expect(mistakes.first).to_have_attribute("data-ply", "0")
    mistakes.first.click()
    view.wait_state(line[0])
    view.wait_status("better move")
    # the same wasted slide again: try again
    tile = next(
        t
        for t in line[1].split()
        if line[0].split().index(t) != line[1].split().index(t) and t != "0"
    )
    view.page.locator(f'[data-tile="{tile}"]').click()
    view.wait_state(line[1])
    view.wait_status("try again")
    view.click("undo")
    view.wait_state(line[0])
    moves, states = engine_solution("npuzzle", TWO_AWAY)
    view.page.locator(f'[data-tile="{moves[0]["tile"]}"]').click()
    view.wait_state(states[1])
    view.wait_status("best move")
    photograph(page, "coach-review.png")
    view.assert_no_errors()


def test_share_copies_one_line_with_a_sparkline(page, live_server):
    view = GamePage(page, live_server).open("npuzzle", TWO_AWAY)
    line = play_line(view, TWO_AWAY)
    view.wait_status("solved")
    view.click("share-result")
    share = view.testid("share-result")
    expect(share).to_have_attribute("data-copied", re.compile("."))
    text = share.get_attribute("data-copied")
    shortest = engine_distance("npuzzle", TWO_AWAY)
    made = len(line) - 1
    assert "\n" not in text
    assert text.startswith(catalogue.get("npuzzle").title + ":")
    assert f"{made} moves" in text and f"shortest {shortest}" in text
    assert f"{accuracy(shortest, made)}%" in text
    spark = SPARK.search(text)
    assert spark and len(spark.group()) == len(line)
    # the sparkline follows the line: it ends at the lowest block (solved)
    assert spark.group()[-1] == "▁" and spark.group()[1] == "█"
    # the line ends on a link to the puzzle's start, and so does Copy link once solved
    # (not the solved position: nothing to play there)
    shared = text.split()[-1]
    assert shared.startswith(f"{live_server}/play/npuzzle?"), text
    copied = view.testid("copy-link").get_attribute("data-link")
    for link in (shared, copied):
        assert parse_qs(urlparse(link).query)["board"] == [TWO_AWAY], link
    view.click("review")
    photograph(page, "coach-result.png")
    view.assert_no_errors()


# -- phones and screenshots --------------------------------------------------------------


@pytest.mark.parametrize("game,board,options,rules", SMALL_BOARDS, ids=[b[0] for b in SMALL_BOARDS])
def test_coach_fits_a_phone_and_is_photographed(page, live_server, game, board, options, rules):
    page.set_viewport_size({"width": 390, "height": 844})
    view = GamePage(page, live_server).open(game, board, **options)
    shown_options(view)
    first = view.testid("option").first
    first.click()
    expect(view.testid("moves")).to_have_text("1")
    expect(graph_points(view)).to_have_count(2)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for node in (view.testid("options"), view.testid("graph")):
        box = node.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    photograph(page, f"coach-{game}-390.png", 390, 1700)
    photograph(page, f"coach-{game}.png")
    view.assert_no_errors()


#: a screen's size, and the boards the coach must be seen with (each game's default)
SCREENS = {"phone": (390, 844), "desktop": (1280, 900)}
WITH_THE_BOARD = """() => {
  const box = (testid) => document.querySelector(`[data-testid="${testid}"]`).getBoundingClientRect();
  const option = document.querySelector('[data-testid="option"]').getBoundingClientRect();
  return {board: box("board"), distance: box("distance"), option, scrolled: window.scrollY,
          height: window.innerHeight};
}"""
HEADER = """() => [...document.querySelector('header.topbar').children]
  .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0)
  .map((r) => [r.top, r.bottom])"""


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("game", ["klotski", "watersort", "npuzzle"])
def test_the_distance_and_the_rated_moves_are_seen_with_the_board(page, live_server, game, screen):
    """At 390x844 as at 1280x900, with nothing scrolled: the whole board, the distance and
    the first rated move are on the screen together, and the header is one row."""
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    view = GamePage(page, live_server).open(game)
    expect(view.testid("option").first).to_be_visible(timeout=15_000)
    seen = page.evaluate(WITH_THE_BOARD)
    assert seen["scrolled"] == 0
    for part in ("board", "distance", "option"):
        box = seen[part]
        assert box["top"] >= 0 and box["bottom"] <= seen["height"], (
            f"{game} at {width} px: the {part} is at {box['top']:.0f}-{box['bottom']:.0f}, "
            f"the screen {seen['height']} px tall"
        )
    rows = page.evaluate(HEADER)
    top = max(t for t, _ in rows)
    bottom = min(b for _, b in rows)
    assert top < bottom, f"the header's parts are on more than one row: {rows}"
    view.assert_no_errors()
