"""15-puzzle: pattern-database IDA* against exact search, Korf's instances, budgets."""

import random
import threading

import pytest
from helpers.npuzzle import assert_replays, scramble
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.results import BUDGET, CANCELLED, SOLVED, Budget
from solver.core.search import bidirectional
from solver.engine import analyse_board, analyse_stages, solve_board
from solver.npuzzle import NPuzzle, goal_state
from solver.npuzzle import domain as npuzzle
from solver.npuzzle import pdb as npuzzle_pdb
from solver.npuzzle.instances import load

DOMAIN = NPuzzle()

INSTANCES = load("korf100")["instances"]
# quick ones of Korf's 100 for the 6-6-3 databases, numbered 1-100 as published
# (#2: 12k positions, #12: 3k, #55: 2.5k, #97: 7k); index 0-based into INSTANCES
EASY = [1, 11, 54, 96]


@pytest.fixture(scope="module")
def tables():
    """Built once per test session into the isolated cache (about 50 s)."""
    return npuzzle_pdb.tables()


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
def test_heuristic_is_zero_only_at_the_goal_and_never_below_manhattan(tables, k, rng):
    """Each group's entry counts at least its tiles' Manhattan distances.

    (Not consistent: a table keeps the minimum over blank positions, so one
    move may lower it by more than one; admissibility is what IDA* needs.)
    """
    board = scramble(4, k, rng)
    h = npuzzle_pdb.lower_bound(board)
    assert (h == 0) == DOMAIN.is_goal(board)
    manhattan = sum(
        abs(c // 4 - (t - 1) // 4) + abs(c % 4 - (t - 1) % 4) for c, t in enumerate(board) if t
    )
    assert h >= manhattan


@pytest.mark.parametrize("number", EASY)
def test_korf_instances_are_solved_optimally(tables, number):
    instance = INSTANCES[number]
    board = DOMAIN.parse(instance["board"])
    result = DOMAIN.solve(board, budget=Budget(max_seconds=30))
    assert result.status == SOLVED and result.optimal
    assert result.length == instance["optimal"]
    assert_replays(board, result)


def test_budget_exhaustion_still_gives_a_valid_solution(tables):
    board = DOMAIN.parse(INSTANCES[0]["board"])  # 57 moves, millions of positions
    result = DOMAIN.solve(board, budget=Budget(max_nodes=3000))
    assert result.status == SOLVED and not result.optimal
    assert result.length >= INSTANCES[0]["optimal"]
    assert "not proven" in result.message
    assert_replays(board, result)
    report = solve_board("npuzzle", INSTANCES[0]["board"], budget=Budget(max_nodes=3000))
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
    report = analyse_board("npuzzle", far, budget=Budget(max_nodes=3000))
    assert report["solvable"] and report["optimal"] is False
    assert report["distance"] >= INSTANCES[0]["optimal"]
    assert report["best_move"]["tile"] in range(1, 16)
    nxt = DOMAIN.parse(report["next_board"])
    assert nxt in [s for _, s in DOMAIN.moves(DOMAIN.parse(far))]


def _assert_legal_hint(board, analysis):
    assert analysis.solvable and analysis.distance >= 1
    assert (analysis.best_move, analysis.next_state) in list(DOMAIN.moves(board))


def test_quick_analysis_answers_a_hard_board_without_proving_it(tables, monkeypatch):
    """(The bench times this hint.)"""
    # a proof attempt too short for #60 (66 moves, millions of positions), whatever the machine
    monkeypatch.setattr(npuzzle, "QUICK_PROOF", Budget(max_nodes=20_000))
    board = DOMAIN.parse(INSTANCES[59]["board"])
    quick = DOMAIN.quick_analyse(board)
    assert not quick.optimal and quick.distance >= INSTANCES[59]["optimal"]
    _assert_legal_hint(board, quick)


def test_quick_analysis_is_final_near_the_goal(tables):
    board = scramble(4, 16, random.Random(7))
    quick = DOMAIN.quick_analyse(board)
    assert quick.optimal and quick.distance == bidirectional(DOMAIN, board).length
    _assert_legal_hint(board, quick)
    stages = list(analyse_stages("npuzzle", DOMAIN.format(board)))
    assert len(stages) == 1 and stages[0]["final"] and stages[0]["optimal"]


def test_stages_send_an_interim_hint_then_the_proven_distance(tables, monkeypatch):
    instance = INSTANCES[0]  # #1: 57 moves, 0.5M positions
    monkeypatch.setattr(npuzzle, "QUICK_PROOF", Budget(max_nodes=20_000))
    stages = list(analyse_stages("npuzzle", instance["board"], budget=Budget(max_seconds=60)))
    assert [(s["final"], s["optimal"]) for s in stages] == [(False, False), (True, True)]
    assert stages[0]["distance"] >= stages[1]["distance"] == instance["optimal"]


def test_quick_analysis_without_tables_uses_the_reduction(monkeypatch):
    monkeypatch.setattr(npuzzle_pdb, "search_ready", lambda: False)
    board = DOMAIN.parse(INSTANCES[0]["board"])
    quick = DOMAIN.quick_analyse(board)
    assert not quick.optimal
    _assert_legal_hint(board, quick)


def test_quick_analysis_of_other_sizes():
    assert DOMAIN.quick_analyse(DOMAIN.parse("8 6 7 2 5 4 3 0 1")) is None
    board = scramble(5, 300, random.Random(4))
    quick = DOMAIN.quick_analyse(board)
    assert not quick.optimal
    _assert_legal_hint(board, quick)
    unsolvable = DOMAIN.parse(" ".join(map(str, [2, 1] + list(range(3, 25)) + [0])))
    assert DOMAIN.quick_analyse(unsolvable).solvable is False
    assert DOMAIN.quick_analyse(goal_state(5)).distance == 0
