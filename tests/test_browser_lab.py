"""The solver lab in Chromium: opened from a play page's "Open in lab", it races two
algorithms on the board and draws the board's whole state space."""

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
