"""5x5 and larger: the anytime search's answers replay, its lower bounds hold, it streams."""

import json
import random
import subprocess
import sys

import pytest
from helpers.apps import make_app
from helpers.npuzzle import assert_replays, scramble

from solver.core.results import SOLVED, Budget
from solver.core.search import bidirectional
from solver.npuzzle import NPuzzle, anytime
from solver.npuzzle.instances import load
from solver.npuzzle.reduce import reduction_cells

DOMAIN = NPuzzle()

KORF50 = load("korf50")["instances"]


@pytest.fixture(scope="module")
def tables():
    return anytime.tables()


def _manhattan(board, n):
    return sum(
        abs(c // n - (t - 1) // n) + abs(c % n - (t - 1) % n) for c, t in enumerate(board) if t
    )


def test_the_published_instances_are_boards_of_ours():
    assert len(KORF50) == 50
    for inst in KORF50:
        board = DOMAIN.parse(inst["board"])
        assert len(board) == 25 and DOMAIN.quick_solvable(board)
        assert inst["optimal"] >= _manhattan(board, 5)


@pytest.mark.parametrize("number", [25, 40, 29])
def test_published_optima_lie_between_the_bound_and_the_answer(tables, number):
    inst = KORF50[number - 1]
    board = DOMAIN.parse(inst["board"])
    result = anytime.anytime_search(board, budget=Budget(max_nodes=3_000_000))
    assert result.status == SOLVED
    assert_replays(board, result)
    assert _manhattan(board, 5) <= result.lower_bound <= inst["optimal"] <= result.length
    assert result.optimal == (result.lower_bound == result.length)
    assert result.length < len(reduction_cells(board))


def test_near_the_goal_the_answer_is_proven_optimal(tables):
    rng = random.Random(5)
    for _ in range(3):
        board = scramble(5, 14, rng)
        result = anytime.anytime_search(board, budget=Budget(max_nodes=5_000_000))
        assert result.optimal and result.lower_bound == result.length
        assert result.length == bidirectional(DOMAIN, board).length
        assert_replays(board, result)


def test_answers_stream_shorter_with_a_rising_bound(tables):
    seen = []
    board = DOMAIN.parse(KORF50[24]["board"])
    result = anytime.anytime_search(board, budget=Budget(max_nodes=2_000_000), progress=seen.append)
    bests = [p.best for p in seen]
    bounds = [p.lower_bound for p in seen]
    assert bests == sorted(bests, reverse=True) and len(set(bests)) >= 2
    assert bounds == sorted(bounds) and bests[-1] == result.length
    assert all(p.lower_bound <= p.best for p in seen)


def test_the_cli_json_carries_the_lower_bound(tables):
    board = KORF50[24]["board"]
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "solve", "npuzzle", board, "--json", "--nodes", "500000"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["optimal"] is False
    assert _manhattan(DOMAIN.parse(board), 5) <= report["lower_bound"] <= KORF50[24]["optimal"]
    assert report["length"] >= KORF50[24]["optimal"]
    assert DOMAIN.is_goal(DOMAIN.parse(report["states"][-1]))


@pytest.mark.parametrize("n, seed", [(6, 1), (7, 2)])
def test_larger_boards_are_shorter_than_rows_and_columns_alone(tables, n, seed):
    board = scramble(n, 400, random.Random(seed))
    result = DOMAIN.solve(board, budget=Budget(max_nodes=1_000_000))
    assert result.status == SOLVED and not result.optimal
    assert_replays(board, result)
    assert result.length < len(reduction_cells(board))
    assert _manhattan(board, n) <= result.lower_bound <= result.length


def test_the_socket_streams_shorter_answers_and_sends_the_lower_bound(tables):
    """``progress`` carries the best length so far and the bound; ``solution`` the bound."""
    from helpers.sockets import Inbox, replay_solution

    app = make_app(SOLVE_SECONDS=3, RATE_LIMIT=0)
    client = app.extensions["socketio"].test_client(app)
    inbox = Inbox(client)
    board = KORF50[24]["board"]
    client.emit("solve", {"game": "npuzzle", "board": board, "id": "k25"})
    _, solution = inbox.wait("solution", timeout=60)
    progress = [p for name, p in inbox.events if name == "progress" and "best" in p]
    client.disconnect()
    replay_solution("npuzzle", board, solution)
    assert solution["optimal"] is False
    assert _manhattan(DOMAIN.parse(board), 5) <= solution["lower_bound"] <= KORF50[24]["optimal"]
    assert KORF50[24]["optimal"] <= solution["length"]
    assert progress and all(p["lower_bound"] <= p["best"] for p in progress)
    assert progress[-1]["best"] >= solution["length"]
