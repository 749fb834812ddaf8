"""15-puzzle: pattern-database IDA* against exact search, Korf's instances, budgets."""
import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import npuzzle, npuzzle_pdb
from solver.engine import analyse_board, solve_board
from solver.levels import load
from solver.npuzzle import goal_state
from solver.search import BUDGET, CANCELLED, SOLVED, Budget, bidirectional

from test_npuzzle import DOMAIN, assert_replays, scramble

INSTANCES = load("korf100")["instances"]
# the two quickest of Korf's 100 for our heuristic (about 12k and 42k positions)
EASY = [54, 41]


@pytest.fixture(scope="module")
def tables():
    """Built once per test session into the isolated cache (about 9 s)."""
    return npuzzle_pdb.tables()


def test_tables_cover_every_placement_of_each_group(tables):
    assert len(tables) == 3
    for table in tables:
        assert sum(1 for v in table if v != npuzzle_pdb.UNSEEN) == 16 * 15 * 14 * 13 * 12
        assert table.count(0) == 1


def test_mirror_maps_the_goal_to_itself():
    goal = goal_state(4)
    mirrored = [0] * 16
    for cell, t in enumerate(goal):
        mirrored[npuzzle_pdb.MIRROR_CELL[cell]] = npuzzle_pdb.MIRROR_TILE[t]
    assert tuple(mirrored) == goal


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 18), st.randoms(use_true_random=False))
def test_ida_star_matches_bidirectional_search(tables, k, rng):
    board = scramble(4, k, rng)
    exact = bidirectional(DOMAIN, board)
    bound = npuzzle_pdb.lower_bound(board)
    assert bound <= exact.length
    result = DOMAIN.solve(board)
    assert result.optimal and result.length == exact.length
    assert_replays(board, result)


@settings(max_examples=30, deadline=None)
@given(st.integers(20, 200), st.randoms(use_true_random=False))
def test_heuristic_is_consistent_and_zero_only_at_the_goal(tables, k, rng):
    board = scramble(4, k, rng)
    h = npuzzle_pdb.lower_bound(board)
    assert (h == 0) == DOMAIN.is_goal(board)
    for _, nxt in DOMAIN.moves(board):
        assert abs(npuzzle_pdb.lower_bound(nxt) - h) <= 1


@pytest.mark.parametrize("number", EASY)
def test_korf_instances_are_solved_optimally(tables, number):
    instance = INSTANCES[number]
    board = DOMAIN.parse(instance["board"])
    result = DOMAIN.solve(board, budget=Budget(max_seconds=30))
    assert result.status == SOLVED and result.optimal
    assert result.length == instance["optimal"]
    assert_replays(board, result)


def test_budget_exhaustion_still_gives_a_valid_solution(tables):
    board = DOMAIN.parse(INSTANCES[0]["board"])           # 57 moves, millions of positions
    result = DOMAIN.solve(board, budget=Budget(max_nodes=3000))
    assert result.status == SOLVED and not result.optimal
    assert result.length >= INSTANCES[0]["optimal"]
    assert "not proven" in result.message
    assert_replays(board, result)
    report = solve_board("npuzzle", INSTANCES[0]["board"], budget=Budget(max_seconds=0.2))
    assert report["solvable"] and report["optimal"] is False
    assert report["states"][-1] == DOMAIN.format(goal_state(4))


def test_reduction_answers_when_no_weighted_search_is_allowed(tables, monkeypatch):
    monkeypatch.setattr(npuzzle, "FALLBACKS", [])
    board = DOMAIN.parse(INSTANCES[0]["board"])
    result = DOMAIN.solve(board, budget=Budget(max_nodes=1000))
    assert result.status == SOLVED and not result.optimal
    assert_replays(board, result)


def test_weighted_search_is_never_called_optimal(tables):
    board = DOMAIN.parse(INSTANCES[EASY[0]]["board"])
    result = npuzzle_pdb.ida_star_fifteen(board, weight=(2, 1))
    assert result.status == SOLVED and not result.optimal
    assert INSTANCES[EASY[0]]["optimal"] <= result.length <= 2 * INSTANCES[EASY[0]]["optimal"]
    assert_replays(board, result)


def test_cancel_stops_the_search(tables):
    board = DOMAIN.parse(INSTANCES[0]["board"])
    cancel = threading.Event()
    cancel.set()
    result = npuzzle_pdb.ida_star_fifteen(board, cancel=cancel)
    assert result.status == CANCELLED and not result.moves
    assert DOMAIN.solve(board, cancel=cancel).status == CANCELLED


def test_progress_reports_the_growing_bound(tables):
    seen = []
    board = DOMAIN.parse(INSTANCES[EASY[1]]["board"])
    result = npuzzle_pdb.ida_star_fifteen(board, progress=seen.append)
    assert result.optimal
    depths = [p.depth for p in seen]
    assert depths == sorted(depths) and depths[-1] <= result.length
    assert len(set(depths)) >= 2


def test_node_budget_is_honoured(tables):
    board = DOMAIN.parse(INSTANCES[0]["board"])
    result = npuzzle_pdb.ida_star_fifteen(board, budget=Budget(max_nodes=5000))
    assert result.status == BUDGET
    assert 5000 <= result.nodes < 5000 + 300


def test_analysis_is_optimal_near_the_goal_and_a_hint_far_away(tables):
    board = scramble(4, 14, random.Random(5))
    analysis = DOMAIN.analyse(board)
    assert analysis.optimal and analysis.distance == bidirectional(DOMAIN, board).length
    far = INSTANCES[0]["board"]
    report = analyse_board("npuzzle", far, budget=Budget(max_seconds=0.1))
    assert report["solvable"] and report["optimal"] is False
    assert report["distance"] >= INSTANCES[0]["optimal"]
    assert report["best_move"]["tile"] in range(1, 16)
    nxt = DOMAIN.parse(report["next_board"])
    assert nxt in [s for _, s in DOMAIN.moves(DOMAIN.parse(far))]
