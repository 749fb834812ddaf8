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
