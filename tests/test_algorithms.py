"""Algorithms by name (``--algorithm`` in the CLI, ``algorithm=`` in ``solve_board``):
each one runs over the game's rules, and the positions it expands are counted alike."""

import json
import random

import pytest

from solver.cli import main
from solver.core.search import ALGORITHMS
from solver.engine import make_domain, solve_board

OPTIMAL = ("bfs", "bidirectional", "astar", "idastar")


def hidden_eight_puzzle(seed: int, steps: int = 40) -> str:
    """An 8-puzzle position a seeded random walk from solved reaches (no answer known here)."""
    domain = make_domain("npuzzle")
    state = domain.parse("1 2 3 4 5 6 7 8 0")
    rng = random.Random(seed)
    for _ in range(steps):
        state = rng.choice([child for _move, child in domain.moves(state)])
    return domain.format(state)


def replayed(board: str, states: list[str]) -> None:
    """Each step of ``states`` is one legal move, from ``board`` to solved."""
    domain = make_domain("npuzzle")
    state = domain.parse(board)
    assert states[0] == domain.format(state)
    for after in states[1:]:
        nexts = {domain.format(child): child for _move, child in domain.moves(state)}
        assert after in nexts, f"{after} is not one move from {domain.format(state)}"
        state = nexts[after]
    assert domain.is_goal(state)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_optimal_algorithm_agrees_and_informed_ones_expand_fewer(seed):
    board = hidden_eight_puzzle(seed)
    reports = {name: solve_board("npuzzle", board, algorithm=name) for name in ALGORITHMS}
    for name in OPTIMAL:
        assert reports[name]["status"] == "solved" and reports[name]["optimal"], name
        replayed(board, reports[name]["states"])
    assert len({reports[name]["length"] for name in OPTIMAL}) == 1, reports
    assert reports["bfs"]["length"] == solve_board("npuzzle", board)["length"]
    nodes = {name: reports[name]["stats"]["nodes"] for name in ALGORITHMS}
    assert nodes["astar"] < nodes["bfs"] and nodes["bidirectional"] < nodes["bfs"], nodes
    depth_first = reports["dfs"]  # a solution, never called shortest
    assert not depth_first["optimal"] and depth_first["length"] >= reports["bfs"]["length"]
    replayed(board, depth_first["states"])


def test_the_cli_counts_the_positions_the_api_counts(capsys):
    board = hidden_eight_puzzle(3)
    for name in ("bfs", "astar"):
        assert main(["solve", "npuzzle", board, "--algorithm", name, "--json"]) == 0
        printed = json.loads(capsys.readouterr().out)
        api = solve_board("npuzzle", board, algorithm=name)
        assert printed["stats"]["nodes"] == api["stats"]["nodes"] > 0
        assert printed["length"] == api["length"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "jugs", "0/3,0/5,8/8", "--algorithm", "bidirectional"], "cannot"),
        (["solve", "npuzzle", "1 2 3 4 5 6 7 0 8", "--algorithm", "dijkstra"], "dijkstra"),
    ],
)
def test_an_algorithm_that_cannot_run_is_one_clear_line(capsys, argv, words):
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], lines
