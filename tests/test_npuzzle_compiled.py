"""The compiled N-puzzle search: tables outside the budget, a cold cache, lazy numba, bounds."""

import json
import os
import random
import subprocess
import sys
import time

import pytest
from helpers.npuzzle import assert_replays, scramble

from solver import catalogue
from solver.core.results import SOLVED, Budget
from solver.core.search import bidirectional
from solver.npuzzle import NPuzzle
from solver.npuzzle import domain as npuzzle
from solver.npuzzle import pdb as npuzzle_pdb
from solver.npuzzle.instances import load

DOMAIN = NPuzzle()

INSTANCES = load("korf100")["instances"]
#: the issue's example: 41 moves, answered 47 "not proven" when the build ate the budget
FORTY_ONE = "5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3"


@pytest.fixture(scope="module")
def tables():
    return npuzzle_pdb.tables()


def _cli(*args, env=None):
    proc = subprocess.run(
        [sys.executable, "-m", "solver", *args], capture_output=True, text=True, env=env
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.cold_tables(order=0)
def test_a_cold_table_cache_still_yields_the_proven_optimum(cold_table_folder):
    """No budget given: the databases are built (said on stderr), then the search proves.
    (Runs before the cold build of every table, which then finds these in the folder.)"""
    tmp_path = cold_table_folder
    env = dict(os.environ, PUZZLE_ARCADE_CACHE=str(tmp_path))
    code, out, err = _cli("solve", "npuzzle", FORTY_ONE, "--json", env=env)
    assert code == 0, err
    report = json.loads(out)
    assert report["optimal"] is True and report["length"] == 41
    assert report["lower_bound"] == 41
    assert "building the 15-puzzle pattern databases" in err
    assert DOMAIN.is_goal(DOMAIN.parse(report["states"][-1]))
    assert any(p.name.startswith("npuzzle-4x4-pdb") for p in tmp_path.iterdir())


def test_a_table_build_is_not_charged_to_the_budget(tables, monkeypatch, isolated_cache):
    """The build (here: a stand-in that moves the clock on 100 s) happens before the clock.
    (A fresh cache folder: the shared one keeps the stand-in's table from the last run.)"""
    real = time.monotonic
    shift = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: real() + shift[0])

    def slow_build(*args, **kwargs):
        shift[0] += 100.0
        return {"groups": npuzzle_pdb.GROUPS, "tables": tables, "build_seconds": [100.0]}

    monkeypatch.setattr(npuzzle_pdb, "build_groups", slow_build)
    monkeypatch.setattr(npuzzle_pdb, "STORE", type(npuzzle_pdb.STORE)("npuzzle-test-slow"))
    board = DOMAIN.parse(FORTY_ONE)
    result = DOMAIN.solve(board, budget=Budget(max_seconds=50))
    assert shift[0] == 100.0  # the "build" did run
    assert result.status == SOLVED and result.optimal and result.length == 41
    assert result.seconds < 50
    assert_replays(board, result)


def test_build_progress_is_reported_before_the_search(tables, monkeypatch, isolated_cache):
    seen = []
    monkeypatch.setattr(npuzzle_pdb, "STORE", type(npuzzle_pdb.STORE)("npuzzle-test-fresh"))
    monkeypatch.setattr(
        npuzzle_pdb, "GROUPS", ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14, 15))
    )
    monkeypatch.setattr(npuzzle_pdb, "TABLE_NAME", "test-5-5-5")
    board = DOMAIN.parse(INSTANCES[11]["board"])  # #12: 45 moves
    result = npuzzle_pdb.ida_star_fifteen(board, progress=seen.append)
    assert result.optimal and result.length == INSTANCES[11]["optimal"]
    stages = [p.stage for p in seen if p.stage]
    assert stages and "(1/3)" in stages[0] and "(3/3)" in stages[-1]
    first_search = next(i for i, p in enumerate(seen) if not p.stage)
    assert all(not p.stage for p in seen[first_search:])


def test_small_games_never_import_numba():
    """The 3x3 and the other games answer without loading the compiler."""
    boards = [
        (name, game.default_board) for name, game in catalogue.games().items() if game.default_board
    ]
    script = (
        "import sys, contextlib, io\nfrom solver.cli import main\n"
        f"for name, board in {boards!r}:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        assert main(['solve', name, board]) in (0, 1), name\n"
        "print('numba' in sys.modules, 'llvmlite' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"]
    assert any(name == "npuzzle" for name, _ in boards)


def test_within_answers_whether_the_distance_is_at_most_k(tables):
    rng = random.Random(21)
    for _ in range(6):
        board = scramble(4, rng.randint(8, 20), rng)
        d = bidirectional(DOMAIN, board).length
        assert DOMAIN.within(board, d) is True
        assert DOMAIN.within(board, d - 1) is False
    hard = DOMAIN.parse(INSTANCES[0]["board"])
    assert DOMAIN.within(hard, INSTANCES[0]["optimal"] - 1) is False
    assert DOMAIN.within(hard, INSTANCES[0]["optimal"]) is True
    assert DOMAIN.within(hard, 70, budget=Budget(max_nodes=10)) is None


@pytest.mark.parametrize("number", [2, 9, 12, 55, 97])
def test_easy_korf_instances_are_proven_at_their_published_length(tables, number):
    instance = INSTANCES[number - 1]
    board = DOMAIN.parse(instance["board"])
    result = npuzzle_pdb.ida_star_fifteen(board)
    assert result.optimal and result.length == instance["optimal"]
    assert result.lower_bound == instance["optimal"]
    assert_replays(board, result)


def test_warm_loads_the_compiled_search(tables):
    npuzzle.warm_tables()
    result = npuzzle_pdb.ida_star_fifteen(npuzzle.WARM_BOARD)
    assert result.optimal and result.length == 1
