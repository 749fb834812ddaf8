"""The engine's JSON-ready entry points shared by the CLI and the web app."""

import pytest

from solver import BoardError
from solver.core.domain import Analysis
from solver.engine import analyse_board, analyse_stages, make_domain, solve_board
from solver.npuzzle import NPuzzle


def test_solve_board_reports_moves_states_and_stats():
    report = solve_board("npuzzle", "1 2 3 4 5 6 0 7 8")
    assert report["status"] == "solved" and report["length"] == 2
    assert report["states"] == ["1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 0"]
    assert [m["tile"] for m in report["move_details"]] == [7, 8]
    assert report["stats"]["nodes"] == 0  # walked down the 8-puzzle table: no search
    assert set(report["stats"]) == {"nodes", "seconds"}


def test_analyse_board_is_one_final_payload():
    payload = analyse_board("npuzzle", "1 2 3 4 5 6 7 0 8")
    assert payload["final"] and payload["distance"] == 1 and payload["optimal"]
    assert payload["next_board"] == "1 2 3 4 5 6 7 8 0"


def test_stages_send_a_quick_hint_before_the_proven_answer(monkeypatch):
    def quick(self, state, cancel=None):
        return Analysis(solvable=True, distance=99, optimal=False, message="interim")

    monkeypatch.setattr(NPuzzle, "quick_analyse", quick, raising=False)
    stages = list(analyse_stages("npuzzle", "1 2 3 4 5 6 0 7 8"))
    assert [s["final"] for s in stages] == [False, True]
    assert stages[0]["distance"] == 99 and not stages[0]["optimal"]
    assert stages[1]["distance"] == 2 and stages[1]["optimal"]


def test_stages_stop_early_when_the_quick_answer_is_proven(monkeypatch):
    def quick(self, state, cancel=None):
        return Analysis(solvable=False, distance=None, optimal=True)

    monkeypatch.setattr(NPuzzle, "quick_analyse", quick, raising=False)
    stages = list(analyse_stages("npuzzle", "1 2 3 4 5 6 0 7 8"))
    assert len(stages) == 1 and stages[0]["final"] and stages[0]["solvable"] is False


@pytest.mark.parametrize(
    "puzzle,board,options,fragment",
    [
        ("sudoku", "", {}, "unknown game"),
        ("npuzzle", 12, {}, "board must be text"),
        ("npuzzle", "1 " * 1500, {}, "limit is 2000"),
        ("watersort", "AB,BA", {"metric": "step"}, "metric does not apply"),
    ],
)
def test_bad_requests_raise_board_error(puzzle, board, options, fragment):
    with pytest.raises(BoardError, match=fragment):
        solve_board(puzzle, board, **options)


def test_none_options_are_ignored():
    assert make_domain("klotski", metric=None, goal=None, capacity=None).name == "klotski"


def test_every_analysis_carries_a_proven_lower_bound(monkeypatch):
    """The page says "at least N%" from it: the distance itself when proven, else the
    search's bound or the admissible heuristic, never above the true distance."""
    board = "1 2 3 4 5 6 0 7 8"  # two moves from solved
    proven = analyse_board("npuzzle", board)
    assert proven["optimal"] and proven["lower_bound"] == proven["distance"] == 2

    def quick(self, state, cancel=None):
        return Analysis(solvable=True, distance=99, optimal=False, message="interim")

    monkeypatch.setattr(NPuzzle, "quick_analyse", quick, raising=False)
    interim = next(iter(analyse_stages("npuzzle", board)))
    domain = make_domain("npuzzle")
    state = domain.parse(board)
    assert not interim["optimal"] and interim["lower_bound"] == domain.heuristic(state) == 2
    dead = analyse_board("npuzzle", "2 1 3 4 5 6 7 8 0")
    assert dead["solvable"] is False and dead["lower_bound"] is None


def test_the_declaration_says_whether_moves_can_be_undone():
    from solver import catalogue

    for name in ("klotski", "npuzzle", "watersort", "jugs"):
        game = catalogue.get(name)
        assert game.describe()["reversible"] is game.domain.reversible
    assert catalogue.get("npuzzle").describe()["reversible"] is True
    assert catalogue.get("watersort").describe()["reversible"] is False
