"""The Klotski level packs: enough distinct layouts, and stored counts the solver agrees with."""
import pytest

from solver.klotski import levels as solver_levels
from solver.engine import parse_board, solve_board
from solver.klotski.levels import PACKS as KLOTSKI_PACKS, klotski_levels
from solver.core.search import replay_keys

LEVELS = klotski_levels()


def test_at_least_thirty_distinct_layouts_on_several_sizes():
    boards = [level["board"] for level in LEVELS]
    assert len(boards) >= 30
    assert len(set(boards)) == len(boards)
    names = [level["name"] for level in LEVELS]
    assert len(set(names)) == len(names)
    sizes = {level["size"] for level in LEVELS}
    assert "4x5" in sizes and len(sizes) >= 4


def test_classic_pack_keeps_its_name_and_board_keys():
    classic = solver_levels.load("klotski-classic")["levels"]
    assert classic[0]["name"] == "横刀立马"
    assert all({"name", "board", "moves"} <= set(level) for level in classic)
    assert [level["pack"] for level in LEVELS].count(KLOTSKI_PACKS[0]) == len(classic)


@pytest.mark.parametrize("level", LEVELS, ids=[level["board"] for level in LEVELS])
def test_stored_counts_are_the_solvers_proven_optimum(level):
    rows = level["board"].split("/")
    assert level["size"] == f"{len(rows[0])}x{len(rows)}"
    for metric in ("piece", "straight", "step"):
        report = solve_board("klotski", level["board"], metric=metric)
        assert report["status"] == "solved" and report["optimal"], report["message"]
        assert report["length"] == level["moves"][metric], (level["name"], metric)
        # the solution really is one: replay it with the rules
        domain, state = parse_board("klotski", level["board"], metric=metric)
        path = [domain.key(domain.parse(board)) for board in report["states"]]
        _moves, states = replay_keys(domain, state, path[1:])
        assert domain.is_goal(states[-1])
    assert level["moves"]["step"] >= level["moves"]["straight"] >= level["moves"]["piece"]
