"""Replaying a submitted line (solver.core.replay): honest lines pass and are counted by the
server, every kind of forgery is refused with a message naming the problem."""

import pytest

from solver.core.errors import BoardError
from solver.core.replay import MAX_LINE, replay_line
from solver.engine import make_domain, solve_board

JUGS = "0/3,0/5,8/8"
JUGS_GOAL = "0,4,4"
NPUZZLE = "1 2 3 4 5 6 0 7 8"  # two moves from solved
KLOTSKI = "BAAC/BAAC/DEEF/DGHF/I..J"


def solution(game, board, **options):
    return solve_board(game, board, **options)["states"]


def test_an_honest_line_replays_and_the_server_counts_its_length():
    states = solution("jugs", JUGS, goal=JUGS_GOAL)
    replay = replay_line(make_domain("jugs", goal=JUGS_GOAL), JUGS, states)
    assert replay.length == len(states) - 1 == 7
    assert replay.states == tuple(states)


def test_a_detour_is_legal_and_counted_in_full():
    away = "1 2 3 0 5 6 4 7 8"  # 4 slid down, then back up
    states = [NPUZZLE, away, NPUZZLE, *solution("npuzzle", NPUZZLE)[1:]]
    assert replay_line(make_domain("npuzzle"), NPUZZLE, states).length == 4


@pytest.mark.parametrize(
    ("forge", "message"),
    [
        (lambda s: [s[0], *s[2:]], "step 1 is not one legal move"),  # a move skipped
        (lambda s: s[1:], "starts at"),  # not the puzzle's start
        (lambda s: s[:-1], "not solved"),  # stops short
        (lambda s: [*s[:2], "0/3,9/5,8/8", *s[2:]], "position 2"),  # not a position
        (lambda s: [*s[:1], 42, *s[1:]], "position 1 must be board text"),
        (lambda s: [], "states must be a list"),
        (lambda s: "0/3,0/5,8/8", "states must be a list"),
    ],
)
def test_forged_lines_are_refused_naming_the_problem(forge, message):
    states = solution("jugs", JUGS, goal=JUGS_GOAL)
    with pytest.raises(BoardError, match=message):
        replay_line(make_domain("jugs", goal=JUGS_GOAL), JUGS, forge(states))


def test_a_line_is_counted_in_the_puzzles_metric():
    """Klotski's piece metric moves a piece any distance in one move; under the step
    metric the same line has steps of two cells and is refused."""
    piece_line = solution("klotski", KLOTSKI, metric="piece")
    assert replay_line(make_domain("klotski", metric="piece"), KLOTSKI, piece_line).length == 81
    with pytest.raises(BoardError, match="is not one legal move"):
        replay_line(make_domain("klotski", metric="step"), KLOTSKI, piece_line)


def test_interchangeable_pieces_may_carry_either_letter():
    """The classic layout's four 1x1 soldiers are interchangeable: a step that swaps two
    of their letters is the same position, so it is not a move (and not a free pass)."""
    domain = make_domain("klotski", metric="piece")
    line = solution("klotski", KLOTSKI, metric="piece")
    swapped = line[1].replace("G", "x").replace("H", "G").replace("x", "H")
    relabelled = [line[0], swapped, *line[2:]]
    assert replay_line(domain, KLOTSKI, relabelled).length == 81
    with pytest.raises(BoardError, match="step 1"):
        replay_line(domain, KLOTSKI, [line[0], line[0], *line[1:]])


def test_a_line_longer_than_the_limit_is_refused_before_any_work():
    with pytest.raises(BoardError, match=f"the limit is {MAX_LINE}"):
        replay_line(make_domain("npuzzle"), NPUZZLE, [NPUZZLE] * (MAX_LINE + 1))
