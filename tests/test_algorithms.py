"""Algorithms by name (``--algorithm`` in the CLI, ``algorithm=`` in ``solve_board``):
each one runs over the game's rules, and the positions it expands are counted alike."""

import json
import random

import pytest

from solver.cli import main
from solver.core.search import ALGORITHMS
from solver.core.space import state_space
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


def layers(board: str) -> dict[int, int]:
    """How many 8-puzzle positions lie at each distance from ``board`` (our own pass)."""
    domain = make_domain("npuzzle")
    start = domain.parse(board)
    seen, layer, depth, sizes = {start}, [start], 0, {0: 1}
    while layer:
        depth += 1
        nxt = [c for s in layer for _m, c in domain.moves(s) if c not in seen and not seen.add(c)]
        if nxt:
            sizes[depth] = len(nxt)
        layer = nxt
    return sizes


@pytest.mark.parametrize("seed", [4, 5])
def test_the_seeds_solvers_run_by_name_replayed_and_counted_like_ours(seed, capsys):
    board = hidden_eight_puzzle(seed, steps=30)
    ours = solve_board("npuzzle", board, algorithm="bfs")
    length = ours["length"]
    below = sum(n for d, n in layers(board).items() if d < length)
    at_most = below + layers(board).get(length, 0)
    seed_bfs = solve_board("npuzzle", board, algorithm="seed-bfs")
    # the generic seed tests the goal when it takes a position: every position nearer
    # than the goal is expanded, none beyond it
    assert seed_bfs["optimal"] and seed_bfs["length"] == length
    assert below <= seed_bfs["stats"]["nodes"] < at_most
    replayed(board, seed_bfs["states"])
    both_ways = solve_board("npuzzle", board, algorithm="seed-bidirectional")
    assert (
        both_ways["status"] == "solved" and not both_ways["optimal"]
    )  # first contact proves nothing
    assert both_ways["length"] >= length
    replayed(board, both_ways["states"])
    assert both_ways["stats"]["nodes"] < seed_bfs["stats"]["nodes"]
    assert main(["solve", "npuzzle", board, "--algorithm", "seed-bfs", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stats"]["nodes"] == seed_bfs["stats"]["nodes"]


def test_the_water_sort_seeds_astar_is_replayed_with_the_rules_and_not_called_shortest():
    board = "ABCD,DCBA,BADC,CDAB,,"
    shortest = solve_board("watersort", board, algorithm="bfs")
    found = solve_board("watersort", board, algorithm="seed-astar")
    assert found["status"] == "solved" and not found["optimal"]
    assert found["length"] >= shortest["length"] and found["stats"]["nodes"] > 0
    domain = make_domain("watersort")
    state = domain.parse(board)
    for after in found["states"][1:]:
        state = {domain.format(c): c for _m, c in domain.moves(state)}[after]
    assert domain.is_goal(state) and len(found["moves"]) == found["length"]


def test_a_seed_the_game_lacks_is_one_clear_line(capsys):
    assert main(["solve", "jugs", "0/3,0/5,8/8", "--algorithm", "seed-astar"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "seed-astar" in lines[0], lines


@pytest.mark.parametrize("algorithm", ["bfs", "dfs", "astar", "seed-bfs"])
def test_memory_is_the_entries_held_times_their_size(algorithm):
    """A search that finds no solution holds every reachable position at the end."""
    board, goal = "0/6,0/7,13/13", "3,3,7"  # after a pour some jug is empty or full
    domain = make_domain("jugs", goal=goal)
    space = state_space(domain, domain.parse(board))
    report = solve_board("jugs", board, goal=goal, algorithm=algorithm)
    stats = report["stats"]
    assert report["status"] == "unsolvable" and stats["stored"] >= len(space.boards)
    if algorithm != "astar":  # A* also counts its open list
        assert stats["stored"] == len(space.boards)
    assert stats["memory"] > 50 * stats["stored"] and stats["memory"] % stats["stored"] == 0
