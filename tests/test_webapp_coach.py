"""The coach's ``options`` in the ``analysis`` payload, over Socket.IO.

Every listed distance is checked against a plain breadth-first search over each
game's reference rules in ``tests/helpers`` (written from the notation, never the
solver's own move generator), on boards small enough to search whole.
"""

import pytest
from helpers.jugs import capacities_of, contents_of, goal_met, jug_pours
from helpers.klotski import coach_rules
from helpers.npuzzle import GOAL_8, slides, tiles_of
from helpers.search import bfs_distance
from helpers.watersort import pours, sorted_out, tubes_of

from solver.npuzzle import pdb as npuzzle_pdb

VERDICTS = {"best", "equal", "worse", "dead"}


pytestmark = pytest.mark.app(ANALYSE_SECONDS=10, RATE_LIMIT=0)


def analysis(inbox, game, board, **options):
    inbox.client.emit("analyse", {"game": game, "board": board, "id": board, **options})
    _, reply = inbox.wait(
        "analysis", timeout=30, where=lambda p: p.get("id") == board and p.get("final") is not False
    )
    return reply


def check_options(reply, neighbours, is_goal, to_state):
    """Each option's board is a legal move away, and its distance and verdict are right."""
    here = to_state(reply["board"])
    expected = {nxt for nxt in neighbours(here)}
    listed = [to_state(option["board"]) for option in reply["moves_rated"]]
    assert set(listed) == expected, "options are not exactly the legal moves"
    assert len(listed) == len(reply["moves_rated"])
    d = reply["distance"]
    for option in reply["moves_rated"]:
        truth = bfs_distance(to_state(option["board"]), neighbours, is_goal)
        assert option["distance"] == truth, option
        assert option["optimal"] is True and option["solvable"] is (truth is not None)
        assert option["move"]["text"]
        want = (
            "dead" if truth is None else "best" if truth < d else "equal" if truth == d else "worse"
        )
        assert option["verdict"] == want, option
    return reply["moves_rated"]


# -- the 8-puzzle -------------------------------------------------------------------


@pytest.mark.parametrize("board", ["1 2 3 4 5 6 0 7 8", "4 1 3 7 2 6 0 5 8", "1 2 3 4 0 6 7 5 8"])
def test_eight_puzzle_options_match_a_plain_bfs(inbox, board):
    reply = analysis(inbox, "npuzzle", board)
    options = check_options(reply, slides, GOAL_8.__eq__, tiles_of)
    assert {o["verdict"] for o in options} <= {"best", "worse"}  # tiles never stay level
    assert options[0]["verdict"] == "best"


# -- water sort ----------------------------------------------------------------------


@pytest.mark.parametrize("board,capacity", [("AAB,BBA,,", 3), ("ABA,BAB,,", 3), ("AB,BA,", 2)])
def test_water_sort_options_match_a_plain_bfs(inbox, board, capacity):
    reply = analysis(inbox, "watersort", board, capacity=capacity)
    check_options(reply, pours(capacity), sorted_out(capacity), tubes_of)


def test_a_careless_pour_is_dead(inbox):
    """Pouring the blue onto the only empty tube leaves no pour that helps: dead, no distance."""
    board = "AAA,BCB,BCC,"
    reply = analysis(inbox, "watersort", board, capacity=3)
    options = check_options(reply, pours(3), sorted_out(3), tubes_of)
    dead = [o for o in options if o["verdict"] == "dead"]
    assert dead and all(o["distance"] is None and o["solvable"] is False for o in dead)
    assert any(o["verdict"] == "best" for o in options)
    assert options[-1]["verdict"] == "dead"  # dead moves are listed last


# -- Klotski (piece metric: one piece moved any distance is one move) -------------------


@pytest.mark.parametrize("board", ["AA./AAG/FEB/CD.", "AAB/AAC/D.E/F.G"])
def test_klotski_options_match_a_plain_bfs(inbox, board):
    neighbours, is_goal, to_state = coach_rules(board)
    reply = analysis(inbox, "klotski", board)
    options = check_options(reply, neighbours, is_goal, to_state)
    assert {o["verdict"] for o in options} <= VERDICTS


# -- water jugs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "board,goal", [("0/3,0/5,8/8", "0,4,4"), ("0/3,5/5,3/8", "0,4,4"), ("2/3,0/5,6/8", "*,4,*")]
)
def test_jugs_options_match_a_plain_bfs(inbox, board, goal):
    reply = analysis(inbox, "jugs", board, goal=goal)
    check_options(reply, jug_pours(capacities_of(board)), goal_met(goal), contents_of)


# -- the payload itself ----------------------------------------------------------------


@pytest.fixture(scope="module")
def fifteen_tables():
    """Built (or loaded) before the workers look, so they read them from the cache."""
    return npuzzle_pdb.tables()


def test_fifteen_puzzle_neighbours_are_one_nearer_or_one_farther(inbox, fifteen_tables):
    """Proven by a bounded search, never guessed: one option is d-1, the rest d+1."""
    board = "1 2 3 4 5 6 7 8 9 10 0 12 13 14 11 15"
    reply = analysis(inbox, "npuzzle", board)
    d = reply["distance"]
    assert reply["optimal"] is True
    got = sorted((o["distance"], o["verdict"]) for o in reply["moves_rated"])
    assert all(o["optimal"] for o in reply["moves_rated"])
    assert got[0] == (d - 1, "best")
    assert all(dist in (d - 1, d + 1) for dist, _ in got)
    # the position after each option, analysed on its own, agrees
    for option in reply["moves_rated"]:
        assert analysis(inbox, "npuzzle", option["board"])["distance"] == option["distance"]


def test_an_unsolvable_position_lists_every_move_as_dead(inbox):
    reply = analysis(inbox, "npuzzle", "1 2 3 4 5 6 8 7 0")
    assert reply["solvable"] is False
    assert len(reply["moves_rated"]) == 2
    assert all(o["verdict"] == "dead" and o["distance"] is None for o in reply["moves_rated"])


def test_a_solved_position_still_lists_its_moves(inbox):
    reply = analysis(inbox, "npuzzle", "1 2 3 4 5 6 7 8 0")
    assert reply["solved"] is True
    assert [(o["distance"], o["verdict"]) for o in reply["moves_rated"]] == [(1, "worse")] * 2


def test_moves_that_need_more_time_than_a_quick_analysis_move_on_to_the_solve_pool():
    """The proven distance goes out at once (as interim); the full rating follows from the
    long lane, where the same incomplete rating is final rather than escalated again."""
    from webapp.jobs.escalation import Chain, settle

    payload = {
        "id": 7,
        "game": "npuzzle",
        "board": "b",
        "solved": False,
        "solvable": True,
        "distance": 5,
        "optimal": True,
        "best_move": None,
        "next_board": None,
        "message": "",
        "final": True,
        "options": [],
        "moves_rated_complete": False,
    }
    chain = Chain()
    fast = settle("analyse", True, "analysis", dict(payload), chain)
    assert fast.escalate and [name for name, _ in fast.emit] == ["analysis"]
    assert fast.emit[0][1]["final"] is False and fast.emit[0][1]["distance"] == 5
    # the long lane's own interim hint is not sent again; its final answer is
    assert settle("analyse", False, "analysis", {**payload, "final": False}, chain).emit == []
    slow = settle("analyse", False, "analysis", dict(payload), chain)
    assert not slow.escalate and [(n, p["final"]) for n, p in slow.emit] == [("analysis", True)]


def test_a_try_that_runs_out_of_budget_moves_on_and_the_long_search_says_so():
    from webapp.jobs.escalation import Chain, settle

    gave_up = {"message": "gave up after 60 s", "event": "solve", "id": 1}
    assert settle("solve", True, "gave_up", gave_up, Chain()).escalate
    final = settle("solve", False, "gave_up", gave_up, Chain())
    assert not final.escalate and final.emit == [("error", gave_up)]
    unproven = {"id": 1, "optimal": False, "length": 40}
    assert settle("solve", True, "solution", unproven, Chain()).escalate
    assert settle("solve", False, "solution", unproven, Chain()).emit == [("solution", unproven)]
    assert settle("solve", True, "progress", {"nodes": 5}, Chain()).emit == []
