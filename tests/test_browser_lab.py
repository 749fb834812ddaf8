"""The solver lab in Chromium: opened from a play page's "Open in lab", it races two
algorithms on the board, draws the board's whole state space, and replays each
search's visiting order over it with pause, step and speed."""

import json
import re
import urllib.request
from urllib.parse import urlencode

import pytest
from helpers.browser import GamePage
from playwright.sync_api import expect

from solver.engine import solve_board

pytestmark = pytest.mark.browser

BOARD, GOAL = "0/3,0/5,8/8", "0,4,4"


def test_open_in_lab_races_two_algorithms_and_draws_every_position(page, live_server):
    view = GamePage(page, live_server).open("jugs", BOARD, wait_analysis=False, goal=GOAL)
    view.click("open-lab")
    expect(page).to_have_url(re.compile(r"/lab\?"))
    runs = view.testid("lab-run")
    expect(runs).to_have_count(2)
    for name in ("bfs", "astar"):
        report = solve_board("jugs", BOARD, goal=GOAL, algorithm=name)
        run = page.locator(f'[data-testid="lab-run"][data-algorithm="{name}"]')
        expect(run).to_have_attribute("data-length", str(report["length"]))
        expect(run).to_have_attribute("data-nodes", str(report["stats"]["nodes"]))
    query = urlencode({"board": BOARD, "goal": GOAL})
    with urllib.request.urlopen(f"{live_server}/api/graph/jugs?{query}") as reply:
        graph = json.load(reply)
    drawn = view.testid("state-graph")
    expect(drawn).to_have_attribute("data-nodes", str(len(graph["nodes"])))
    expect(drawn).to_have_attribute("data-edges", str(len(graph["edges"])))
    view.screenshot("lab-jugs.png")
    view.assert_no_errors()


def test_the_replay_pauses_steps_and_ends_on_the_searchs_own_solution(page, live_server):
    # a bigger jugs puzzle: dozens of positions, so the replay takes a while at 10 a second
    board, goal = "0/6,0/7,13/13", "*,*,3"
    view = GamePage(page, live_server)
    asked = {"game": "jugs", "board": board, "goal": goal, "algorithms": "bfs,seed-bfs"}
    page.goto(f"{live_server}/lab?{urlencode(asked)}")
    query = urlencode({"board": board, "goal": goal, "algorithm": "bfs"})
    with urllib.request.urlopen(f"{live_server}/api/visits/jugs?{query}") as reply:
        visits = json.load(reply)
    report = solve_board("jugs", board, goal=goal, algorithm="bfs")
    expect(view.testid("lab-replay")).to_be_visible(timeout=20_000)
    view.testid("lab-replay-speed").select_option("10")
    drawn = view.testid("state-graph")
    expect(drawn).not_to_have_attribute("data-step", "0", timeout=5_000)
    play = view.testid("lab-replay-play")
    play.click()  # pause
    expect(play).to_have_attribute("aria-pressed", "false")
    paused = int(drawn.get_attribute("data-step"))
    page.wait_for_timeout(600)
    assert int(drawn.get_attribute("data-step")) == paused, "the replay moved while paused"
    view.testid("lab-replay-step").click()
    expect(drawn).to_have_attribute("data-step", str(paused + 1))
    # breadth-first expands each position once: after k steps, k positions
    expect(drawn).to_have_attribute("data-visited", str(min(paused + 1, len(visits["order"]))))
    assert drawn.get_attribute("data-path") == ""  # the solution only at the end
    chart = view.testid("lab-chart")
    expect(chart).to_have_attribute("data-replay", "true")
    view.testid("lab-replay-speed").select_option("1000")
    play.click()
    expect(drawn).to_have_attribute("data-step", str(len(visits["order"])), timeout=10_000)
    expect(drawn).to_have_attribute("data-path", str(report["length"]))
    expect(play).to_have_attribute("aria-pressed", "false")
    memory = page.locator('[data-testid="lab-run"][data-algorithm="bfs"]')
    expect(memory).to_have_attribute("data-memory", str(report["stats"]["memory"]))
    view.screenshot("lab-replay.png")
    view.assert_no_errors()


HARDEST_EIGHT = "8 6 7 2 5 4 3 0 1"  # the 8-puzzle's farthest start: 31 moves
#: the polyline of one algorithm in the chart: its leftmost and rightmost x
LINE_SPAN = """(name) => {
  const line = document.querySelector(`[data-testid="lab-chart"] polyline[data-algorithm="${name}"]`);
  const xs = line.getAttribute('points').trim().split(' ').map((p) => Number(p.split(',')[0]));
  return [Math.min(...xs), Math.max(...xs)];
}"""
#: the highest point (the least y) of one algorithm's line in the chart
LINE_TOP = """(name) => {
  const line = document.querySelector(`[data-testid="lab-chart"] polyline[data-algorithm="${name}"]`);
  return Math.min(...line.getAttribute('points').trim().split(' ').map((p) => Number(p.split(',')[1])));
}"""


def test_depths_far_apart_share_a_log_scale_and_a_space_too_big_draws_no_box(page, live_server):
    """Depth-first search goes some 65,000 moves deep on the hardest 8-puzzle where
    breadth-first stops at 31: on one linear axis the breadth-first line would be a dot
    against the axis; on the log scale it keeps a good part of the width. A*'s frontier
    (about a thousand) beside depth-first's forty thousand likewise: on a log scale it
    rises well off the axis. The space (181,440 positions) is too big to send: the note
    says so, and no empty box stands for it."""
    view = GamePage(page, live_server)
    page.goto(
        f"{live_server}/lab?{urlencode({'game': 'npuzzle', 'board': HARDEST_EIGHT, 'algorithms': 'bfs,dfs,astar'})}"
    )
    for name in ("bfs", "dfs", "astar"):
        run = page.locator(f'[data-testid="lab-run"][data-algorithm="{name}"]')
        expect(run).to_have_attribute("data-length", re.compile(r"\d+"), timeout=60_000)
    chart = view.testid("lab-chart")
    expect(chart).to_have_attribute("data-scale", "log")
    _left, right = page.evaluate(LINE_SPAN, "bfs")  # a line, not a dot against the axis at 44
    assert right >= 44 + 0.25 * (400 - 44 - 10), f"breadth-first's line ends at x = {right} of 400"
    if chart.locator('polyline[data-algorithm="astar"]').count():
        expect(chart).to_have_attribute("data-frontier-scale", "log")
        top = page.evaluate(LINE_TOP, "astar")  # the axis at y = 150, the chart's top at 10
        assert top <= 150 - 0.25 * 140, f"A*'s line peaks at y = {top}: flat against the axis"
    else:  # A* ended before its first sample (a quick machine): its final mark stands instead
        expect(chart.locator('circle.lab-final[data-algorithm="astar"]')).to_have_count(1)
    expect(view.testid("state-graph-note")).to_contain_text("positions")
    expect(view.testid("state-graph")).to_be_hidden()
    expect(view.testid("state-graph-legend")).to_be_hidden()
    view.screenshot("lab-log-scale.png")
    view.assert_no_errors()


def test_a_run_too_quick_to_sample_is_drawn_from_its_final_figures(page, live_server):
    """Breadth-first and A* solve an 8-puzzle one move from solved in milliseconds, before
    any sample: the chart draws each one's final figures (a bar of the positions it
    expanded), not empty axes."""
    view = GamePage(page, live_server)
    board = "1 2 3 4 5 6 7 0 8"
    page.goto(
        f"{live_server}/lab?{urlencode({'game': 'npuzzle', 'board': board, 'algorithms': 'bfs,astar'})}"
    )
    for name in ("bfs", "astar"):
        report = solve_board("npuzzle", board, algorithm=name)
        run = page.locator(f'[data-testid="lab-run"][data-algorithm="{name}"]')
        expect(run).to_have_attribute("data-length", str(report["length"]))
        bar = view.testid("lab-chart").locator(f'rect[data-algorithm="{name}"]')
        expect(bar).to_have_count(1)
        expect(view.testid("lab-chart")).to_contain_text(f"{name}: {report['stats']['nodes']:,}")
    expect(view.testid("lab-chart")).to_have_attribute("data-final", "true")
    view.assert_no_errors()


#: a big Klotski space (6,393 positions, more than a big graph's 5,000) that is quick to make
HARBOUR = "CEAABB/CEAADH/IE.KDJ/GFFMNJ/GL.MNJ"
#: the longest frame (a long animation frame: the page not answering) while the graph was
#: drawn, but for the one that makes the WebGL renderer and its first frame (its
#: contexts and programs: what a headless software GL takes a while for, a GPU does not)
LONGEST_WHILE_DRAWING = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0].startTime;
  const [from, to] = [mark("lab-graph-received"), mark("lab-graph-drawn")];
  const made = mark("lab-graph-renderer-made");
  return Math.max(0, ...window.__frames.filter((f) => f.start + f.duration > from && f.start < to
    && !(f.start <= made && made <= f.start + f.duration)).map((f) => f.duration));
}"""
LONG_FRAMES = """window.__frames = [];
new PerformanceObserver((list) => { for (const e of list.getEntries())
  window.__frames.push({start: e.startTime, duration: e.duration}); })
  .observe({type: "long-animation-frame", buffered: true});"""


def test_a_big_space_draws_without_a_freeze_and_reads_in_both_themes(page, live_server):
    """Every position and the shortest line drawn thick (a big space's other moves left
    out), built a slice a frame: no task over 100 ms while it draws; the colours are
    the theme's and follow it; a position clicked is drawn as a board."""
    page.add_init_script(LONG_FRAMES)
    view = GamePage(page, live_server)
    page.goto(
        f"{live_server}/lab?{urlencode({'game': 'klotski', 'board': HARBOUR, 'algorithms': 'bfs,astar'})}"
    )
    graph = view.testid("state-graph")
    expect(graph).to_have_attribute("data-drawn", "true", timeout=60_000)
    shortest = solve_board("klotski", HARBOUR)["length"]
    expect(graph).to_have_attribute("data-line", str(shortest))
    expect(graph).to_have_attribute("data-drawn-edges", str(shortest))  # the line's moves only
    longest = page.evaluate(LONGEST_WHILE_DRAWING)
    assert longest < 100, f"a frame of {longest:.0f} ms while the graph was drawn"
    light = graph.get_attribute("data-edge-colour")
    assert re.fullmatch(r"#[0-9a-f]{6}", light)
    page.emulate_media(color_scheme="dark")
    expect(graph).not_to_have_attribute("data-edge-colour", light)
    assert re.fullmatch(r"#[0-9a-f]{6}", graph.get_attribute("data-edge-colour"))
    page.evaluate("window.arcade.graph.renderer.emit('clickNode', {node: '0'})")
    picked = view.testid("state-picked-board")
    expect(picked).to_have_attribute("data-board", HARBOUR)
    expect(picked.locator("[data-piece]")).to_have_count(len(set(HARBOUR) - {"/", "."}))
    view.screenshot("lab-big-space-dark.png")
    view.assert_no_errors()


def test_the_picked_position_of_a_small_space_is_a_board_to_play_from(page, live_server):
    view = GamePage(page, live_server)
    page.goto(f"{live_server}/lab?{urlencode({'game': 'jugs', 'board': BOARD, 'goal': GOAL})}")
    expect(view.testid("state-graph")).to_have_attribute("data-drawn", "true", timeout=30_000)
    page.evaluate("window.arcade.graph.renderer.emit('clickNode', {node: '0'})")
    picked = view.testid("state-picked-board")
    expect(picked).to_have_attribute("data-board", BOARD)
    expect(picked.locator("[data-jug]")).to_have_count(3)
    expect(view.testid("state-play")).to_have_attribute("href", re.compile(r"^/play/jugs\?"))
    view.assert_no_errors()
