"""5x5 and larger: the row/column reduction always reaches the goal; the searches replay."""

import random

from helpers.npuzzle import assert_replays, scramble, solvable_boards
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.results import Budget
from solver.engine import solve_board
from solver.npuzzle import NPuzzle, replay_cells
from solver.npuzzle.reduce import cancel_undos, reduction_cells

DOMAIN = NPuzzle()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([4, 5]).flatmap(solvable_boards))
def test_reduction_reaches_the_goal_from_any_position(board):
    moves, states = replay_cells(board, reduction_cells(board))
    assert DOMAIN.is_goal(states[-1])
    assert len(moves) >= DOMAIN.heuristic(board)


@settings(max_examples=10, deadline=None)
@given(solvable_boards(5))
def test_5x5_solve_replays_with_a_sound_lower_bound(board):
    result = DOMAIN.solve(board, budget=Budget(max_nodes=200_000))
    assert_replays(board, result)
    assert DOMAIN.heuristic(board) <= result.lower_bound <= result.length
    assert result.optimal == (result.lower_bound == result.length)


def test_largest_board_is_solved():
    board = scramble(10, 2000, random.Random(1))
    report = solve_board("npuzzle", DOMAIN.format(board))
    assert report["status"] == "solved" and report["optimal"] is False
    assert report["states"][-1] == DOMAIN.format(tuple(range(1, 100)) + (0,))


def test_analysis_of_a_large_board_is_a_legal_unproven_hint():
    board = scramble(6, 300, random.Random(2))
    analysis = DOMAIN.analyse(board)
    assert analysis.solvable and not analysis.optimal
    assert (analysis.best_move, analysis.next_state) in list(DOMAIN.moves(board))


def test_moves_undone_at_once_are_cancelled():
    # blank at 8: slide 7, slide 8 (straight back), slide 5, slide 4, slide 5 (back)
    assert cancel_undos(8, [7, 8, 5, 4, 5, 2]) == [5, 2]
    assert cancel_undos(8, [5, 8]) == []
