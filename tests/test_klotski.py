"""Klotski domain: notation, rules, optimal lengths, distance tables, errors, speed.

Solutions are checked by the reference rules on plain strings (``helpers.klotski``,
no code shared with solver/), and optimal lengths are compared against its string
BFS, the generic algorithms and the tables.
"""

import collections
import os
import random
from pathlib import Path

import pytest
from helpers.klotski import (
    CLASSIC,
    cells_of,
    check_solution,
    goal_met,
    grid,
    group_distances,
    random_small_board,
    reachable,
    shapes_of,
    string_bfs,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.core import mapped
from solver.core.errors import BoardError
from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE, Budget, Monitor, StopSearch
from solver.core.search import astar, bidirectional, breadth_first
from solver.klotski import Klotski, KlotskiMove, levels, warm_table
from solver.klotski import domain as klotski_domain
from solver.klotski import tables as klotski_search

ROOT = Path(__file__).resolve().parent.parent
STAGE_138 = "GHIB/AACB/AACD/.EED/.JFF"
LEVELS = levels.load("klotski-classic")["levels"]


def random_walk(domain, board, steps, rnd):
    state = domain.parse(board)
    for _ in range(steps):
        state = rnd.choice(domain.moves(state))[1]
    return state


@pytest.fixture(autouse=True)
def fresh_tables():
    klotski_search.forget_tables()
    yield
    klotski_search.forget_tables()


# -- known figures -------------------------------------------------------------------


@pytest.mark.parametrize(
    "board,metric,length",
    [
        (CLASSIC, "piece", 81),
        (CLASSIC, "straight", 90),
        (CLASSIC, "step", 116),
        (STAGE_138, "piece", 138),
        (STAGE_138, "step", 179),
    ],
)
def test_known_optimal_lengths_replay_legally(board, metric, length):
    domain = Klotski(metric)
    state = domain.parse(board)
    result = domain.solve(state)
    assert result.status == SOLVED and result.optimal
    assert result.length == length
    infos = [domain.move_info(m) for m in result.moves]
    states = [domain.format(s) for s in result.states]
    final = check_solution(board, infos, states, metric)
    assert goal_met(final, "A", 3, 1)
    assert domain.is_goal(result.states[-1])
    assert not any(domain.is_goal(s) for s in result.states[:-1])


def test_every_classic_level_solves_optimally_and_legally():
    """(How fast: ``python -m solver bench`` times the pack, cold.)"""
    assert len(LEVELS) >= 20
    domain = Klotski("piece")
    for level in LEVELS:
        state = domain.parse(level["board"])
        result = domain.solve(state)
        assert result.status == SOLVED and result.optimal, level["name"]
        check_solution(
            level["board"],
            [domain.move_info(m) for m in result.moves],
            [domain.format(s) for s in result.states],
            "piece",
        )


def test_step_metric_agrees_with_the_reference_string_bfs():
    """(The bench compares its speed with the seed-style baseline: ``python -m solver bench``.)"""
    board = "GAAH/IAAJ/BCDD/BCEE/.FF."
    expected = string_bfs(board, "A", 3, 1, "step")
    domain = Klotski("step")
    assert domain.solve(domain.parse(board)).length == expected == 53


def reference_reachable(board, goal_label, row, col):
    """Every position ``board`` reaches, each with its fewest steps to a goal (-1: none);
    any piece of the goal piece's shape may meet the goal (the reference rules)."""
    _labels, shape, _xlat = shapes_of(board)
    dist, _ = group_distances(board, "step", shape[goal_label], (row, col))
    return {key: dist.get(key, -1) for key in reachable(board)}


@pytest.mark.parametrize(
    "board, goal, at",
    [
        (CLASSIC, None, ("A", 3, 1)),
        ("AABB/AABB/..../CD..", "A@2,2", ("A", 2, 2)),  # two 2x2 pieces: either may win
        ("BBCC/DD../.EE./F..G", "B@3,2", ("B", 3, 2)),  # four 1x2 pieces
        ("BCDE/F.GH/IJ.K", "B@2,3", ("B", 2, 3)),  # every piece 1x1
        ("AA./AA./BBB", None, ("A", 1, 0)),  # no goal reachable
    ],
)
def test_tables_hold_exactly_the_reachable_set_of_an_independent_search(board, goal, at):
    """Same reachable count (the classic level's 25,955 is the published figure), and
    in the step metric the same number of positions at every distance."""
    reference = reference_reachable(board, *at)
    by_distance = collections.Counter(reference.values())
    for metric in ("step", "piece"):
        domain = Klotski(metric, goal=goal)
        table = domain.warm(domain.parse(board), disk="off")
        assert len(table) == len(reference)
        counts = collections.Counter(table.distance.values())
        assert counts[0] == by_distance[0] and counts[-1] == by_distance[-1]
        if metric == "step":
            assert counts == by_distance


# -- notation ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    level=st.sampled_from([CLASSIC, STAGE_138] + [lv["board"] for lv in LEVELS]),
    steps=st.integers(0, 60),
    seed=st.integers(0, 10**6),
    metric=st.sampled_from(["piece", "step"]),
)
def test_format_parse_round_trip_on_random_positions(level, steps, seed, metric):
    domain = Klotski(metric)
    state = random_walk(domain, level, steps, random.Random(seed))
    text = domain.format(state)
    assert domain.parse(text) == state
    assert domain.format(domain.parse(text)) == text
    assert sorted(text) == sorted(level)  # same pieces, same blanks


def test_describe_and_move_info():
    domain = Klotski("piece", goal="A@2,0")
    state = domain.parse("A.../A.B./..../....")
    texts = {domain.describe(m): domain.move_info(m) for m, _ in domain.moves(state)}
    assert texts["A down 2"] == {
        "piece": "A",
        "from": [0, 0],
        "to": [2, 0],
        "path": [[1, 0], [2, 0]],
        "text": "A down 2",
    }
    assert "A down" in texts and "A right" in texts
    corner = Klotski("piece").parse("AA../AA.J/CC.D")  # J cannot go down first: D is there
    assert "J left, down" in {domain.describe(m) for m, _ in domain.moves(corner)}
    stepper = Klotski("step")
    step_texts = [stepper.describe(m) for m, _ in stepper.moves(corner)]
    assert sorted(step_texts) == ["A right", "C right", "D left", "J left", "J up"]


# -- optimal lengths agree across algorithms ------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    metric=st.sampled_from(["piece", "straight", "step"]),
    size=st.sampled_from([(3, 4), (4, 3), (3, 3)]),
)
def test_bfs_bidirectional_table_and_oracle_agree(seed, metric, size):
    rnd = random.Random(seed)
    board = random_small_board(rnd, *size)
    domain = Klotski(metric)
    state = domain.parse(board)
    row, col = size[0] - 2, (size[1] - 2) // 2
    expected = string_bfs(board, "A", row, col, metric)

    assert domain.format(state) == board
    ours = domain.solve(state)
    generic = breadth_first(domain, state)
    both_ways = bidirectional(domain, state)
    guided = astar(domain, state)
    table = domain.warm(state, disk="off")
    analysis = domain.analyse(state)
    if expected is None:
        assert ours.status == generic.status == both_ways.status == guided.status == UNSOLVABLE
        assert analysis.solvable is False and not table.solvable
        return
    for result in (ours, generic, both_ways, guided):
        assert result.status == SOLVED and result.optimal
        assert result.length == expected
        check_solution(
            board,
            [domain.move_info(m) for m in result.moves],
            [domain.format(s) for s in result.states],
            metric,
        )
    assert analysis.solvable and analysis.distance == expected
    via_table = domain.solve(state)  # now answered by walking the table
    assert via_table.length == expected
    check_solution(
        board,
        [domain.move_info(m) for m in via_table.moves],
        [domain.format(s) for s in via_table.states],
        metric,
    )


def test_goal_states_are_all_goals_and_distinct():
    domain = Klotski("step")
    state = domain.parse("AAB/AAC/D..")
    goals = list(domain.goal_states(state))
    keys = {domain.key(g) for g in goals}
    assert len(keys) == len(goals) > 1
    assert all(domain.is_goal(g) for g in goals)
    assert all(sorted(domain.format(g)) == sorted(domain.format(state)) for g in goals)


# -- distance tables -------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["piece", "straight", "step"])
def test_table_lookup_matches_bfs_and_best_move_gets_closer(metric):
    domain = Klotski(metric)
    rnd = random.Random(7)
    start = domain.parse(CLASSIC)
    table = domain.warm(start, disk="off")
    assert len(table) == 25955  # the classic level's reachable positions
    for _ in range(8):
        state = random_walk(domain, CLASSIC, rnd.randrange(5, 120), rnd)
        analysis = domain.analyse(state)
        mon = Monitor()
        chain, _ = klotski_search.bfs_key_path(state.layout, domain.key(state), metric, mon)
        assert analysis.optimal and analysis.solvable
        assert analysis.distance == len(chain) - 1
        if analysis.distance == 0:
            continue
        legal = {domain.key(nxt): move for move, nxt in domain.moves(state)}
        assert domain.key(analysis.next_state) in legal
        assert analysis.best_move == legal[domain.key(analysis.next_state)]
        after = domain.analyse(analysis.next_state)
        assert after.distance == analysis.distance - 1
        board = domain.format(state)
        info = domain.move_info(analysis.best_move)
        moved = check_solution(board, [info], [board, domain.format(analysis.next_state)], metric)
        assert moved == domain.format(analysis.next_state)


def test_once_built_the_table_answers_without_searching(monkeypatch):
    """(The bench times a lookup.)"""
    domain = Klotski("piece")
    state = domain.parse(STAGE_138)
    domain.warm(state, disk="off")
    monkeypatch.setattr(klotski_search, "build_table", lambda *args: pytest.fail("built"))
    monkeypatch.setattr(klotski_domain, "bfs_key_path", lambda *args: pytest.fail("searched"))
    analysis = domain.analyse(state)
    assert analysis.distance == 138 and analysis.optimal


def test_disk_cache_reloads_the_same_table(isolated_cache, monkeypatch):
    first = warm_table(CLASSIC, metric="step")
    assert any(p.name.startswith("klotski-") for p in isolated_cache.iterdir())
    klotski_search.forget_tables()
    monkeypatch.setattr(klotski_search, "build_table", lambda *args: pytest.fail("rebuilt"))
    again = warm_table(CLASSIC, metric="step")
    assert again is not first and again.distance == first.distance


def test_cache_names_change_with_the_rules_code(monkeypatch):
    state = Klotski().parse(CLASSIC)
    key = Klotski().key(state)
    name = klotski_search.table_name(state.layout.signature(), key, "piece")
    before = klotski_search.STORE.file_name(name)
    assert name != klotski_search.table_name(state.layout.signature(), key, "step")
    assert before.startswith("klotski-") and klotski_search.STORE.code in before
    monkeypatch.setattr(klotski_search.STORE, "code", "edited")
    assert before != klotski_search.STORE.file_name(name)


def _write_table_file(path, value):
    with open(path, "wb") as f:
        mapped.dump(value, f)


def test_a_foreign_cached_file_is_rebuilt(isolated_cache):
    state = Klotski().parse(CLASSIC)
    key = Klotski().key(state)
    signature = state.layout.signature()
    path = klotski_search.STORE.path(klotski_search.table_name(signature, key, "piece"))
    assert path.parent == isolated_cache
    _write_table_file(path, klotski_search.DistanceTable(signature, "piece", {key: 3}))
    assert len(warm_table(CLASSIC)) == 1  # a file named by its group is read...
    klotski_search.forget_tables()
    _write_table_file(path, klotski_search.DistanceTable(signature, "piece", {123: 3}))
    assert len(warm_table(CLASSIC)) == 25955  # ...one whose name lies about it is not


def shuffled_placement(board, rnd):
    """The same pieces as ``board`` dropped at random spots (another group, maybe)."""
    g = grid(board)
    labels = sorted({ch for row in g for ch in row} - {"."})
    for _ in range(200):
        out = [["."] * len(g[0]) for _ in g]
        for lab in labels:
            cs = cells_of(g, lab)
            h, w = cs[-1][0] - cs[0][0] + 1, cs[-1][1] - cs[0][1] + 1
            spots = [
                (r, c)
                for r in range(len(g) - h + 1)
                for c in range(len(g[0]) - w + 1)
                if all(out[r + i][c + j] == "." for i in range(h) for j in range(w))
            ]
            if not spots:
                break
            r, c = rnd.choice(spots)
            for i in range(h):
                for j in range(w):
                    out[r + i][c + j] = lab
        else:
            return "/".join("".join(row) for row in out)
    return board


def test_group_keys_agree_exactly_when_a_plain_search_connects_two_positions():
    rnd = random.Random(11)
    outcomes = set()
    for _ in range(40):
        board = random_small_board(rnd, 3, 4)
        other = shuffled_placement(board, rnd)
        domain = Klotski("step")
        a, b = domain.parse(board), domain.parse(other)
        same = klotski_search.reachable_group(
            a.layout, domain.key(a)
        ) == klotski_search.reachable_group(b.layout, domain.key(b))
        _labels, _shape, xlat = shapes_of(board)
        assert same == (other.translate(xlat) in reachable(board)), (board, other)
        outcomes.add(same)
    assert outcomes == {True, False}


def test_every_metric_and_position_of_a_group_names_the_same_table():
    domain = Klotski("piece")
    start = domain.parse(CLASSIC)
    group = klotski_search.reachable_group(start.layout, domain.key(start))
    rnd = random.Random(4)
    for _ in range(5):
        later = random_walk(domain, CLASSIC, rnd.randrange(1, 80), rnd)
        assert klotski_search.reachable_group(later.layout, domain.key(later)) == group
    for metric in ("piece", "straight", "step"):
        table = Klotski(metric).warm(start, disk="off")
        assert klotski_search.group_key(table) == group == min(table.distance)


def test_a_second_position_of_a_group_loads_the_table_another_process_saved(
    isolated_cache, monkeypatch
):
    import subprocess
    import sys

    made = subprocess.run(
        [
            sys.executable,
            "-c",
            "from solver.klotski import warm_table; "
            f"print(len(warm_table({CLASSIC!r}, metric='straight')))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert made.stdout.strip() == "25955"
    domain = Klotski("straight")
    later = random_walk(domain, CLASSIC, 40, random.Random(8))
    assert domain.format(later) != CLASSIC

    def no_build(*_args):
        raise AssertionError("the saved table should have been found")

    monkeypatch.setattr(klotski_search, "build_table", no_build)
    table = domain.warm(later, disk="read")
    assert len(table) == 25955 and domain.key(later) in table.distance
    assert domain.analyse(domain.parse(CLASSIC)).distance == 90


def test_any_position_of_a_built_component_finds_its_table():
    domain = Klotski("piece")
    start = domain.parse(CLASSIC)
    table = domain.warm(start, disk="off")
    later = random_walk(domain, CLASSIC, 30, random.Random(3))
    assert klotski_search.find_table(later.layout, domain.key(later), "piece") is table
    other = Klotski("step")
    assert klotski_search.find_table(later.layout, other.key(later), "step") is None


def test_budget_and_cancel_stop_table_building_and_solving(isolated_cache):
    """(A fresh cache folder: a table saved there by an earlier run would answer at once.)"""
    domain = Klotski("piece")
    state = domain.parse(STAGE_138)
    with pytest.raises(StopSearch) as stop:
        domain.warm(state, budget=Budget(max_nodes=500), disk="off")
    assert stop.value.status == BUDGET
    with pytest.raises(StopSearch) as stop:
        domain.warm(state, cancel=lambda: True, disk="off")
    assert stop.value.status == CANCELLED
    assert domain.solve(state, budget=Budget(max_nodes=500)).status == BUDGET
    assert domain.solve(state, cancel=lambda: True).status == CANCELLED
    analysis = domain.analyse(state, cancel=lambda: True)
    assert analysis.solvable is None and analysis.distance is None


def test_a_cancelled_analysis_does_not_answer_from_a_saved_table(isolated_cache):
    warm_table(STAGE_138)  # saved on disk under its group
    klotski_search.forget_tables()
    domain = Klotski("piece")
    analysis = domain.analyse(domain.parse(STAGE_138), cancel=lambda: True)
    assert analysis.solvable is None and analysis.distance is None
    assert domain.analyse(domain.parse(STAGE_138)).distance == 138


def test_too_big_level_falls_back_to_search(monkeypatch):
    monkeypatch.setattr(klotski_search, "TABLE_MAX_STATES", 300)
    domain = Klotski("piece")
    state = domain.parse(CLASSIC)
    with pytest.raises(klotski_search.TooBig):
        domain.warm(state, disk="off")
    monkeypatch.setattr(klotski_search, "build_table", lambda *args: pytest.fail("retried"))
    with pytest.raises(klotski_search.TooBig):  # remembered: no second attempt
        domain.warm(state, disk="off")
    analysis = domain.analyse(state)
    assert analysis.solvable and analysis.optimal and analysis.distance == 81
    assert analysis.best_move is not None


def test_analyse_gives_the_table_half_the_budget_then_searches(monkeypatch):
    """A node budget, so nothing depends on the machine: the build may use half of the
    20,000 positions (the level has far more), then breadth-first search (5,718) answers."""
    budgets = []
    real_build = klotski_search.build_table
    monkeypatch.setattr(
        klotski_search,
        "build_table",
        lambda layout, key, metric, mon, *rest: (
            budgets.append(mon.budget) or real_build(layout, key, metric, mon, *rest)
        ),
    )
    domain = Klotski("step")
    board = "AA..../AA..../..B.../...C../....D./.....E"  # wide open: huge level
    state = domain.parse(board)
    analysis = domain.analyse(state, budget=Budget(max_nodes=20_000))
    assert analysis.solvable and analysis.optimal and analysis.distance == 6
    assert analysis.best_move is not None
    assert domain.analyse(state, budget=Budget(max_nodes=20_000)).distance == 6
    assert budgets == [Budget(max_nodes=10_000)]  # and not tried again on the fly


def test_cancel_is_polled_at_every_position_on_wide_open_boards():
    """Hundreds of moves per position here, so polling every 256 positions would break
    the 100 ms cancel promise: each position polls."""
    domain = Klotski("piece")
    state = domain.parse("AA......../AA......../" + "........../" * 7 + "BCDEFGHIJK")
    polls = []
    result = domain.solve(state, cancel=lambda: polls.append(1) or len(polls) >= 5)
    assert result.status == CANCELLED
    assert result.nodes == len(polls) == 5


# -- unsolvable and goals ----------------------------------------------------------------


def test_proven_unsolvable_layout():
    board = "AA./AA./BBB"  # A can only shuffle right; the goal is A@1,0
    for metric in ("piece", "straight", "step"):
        domain = Klotski(metric)
        state = domain.parse(board)
        result = domain.solve(state)
        assert result.status == UNSOLVABLE and result.optimal
        assert "2 reachable positions" in result.message
        analysis = domain.analyse(state)
        assert analysis.solvable is False and analysis.optimal
        assert domain.solve(state).status == UNSOLVABLE  # via the table now
    assert string_bfs(board, "A", 1, 0, "piece") is None


def test_goal_option_and_interchangeable_goal_shape():
    domain = Klotski("piece", goal="B@0,0")
    state = domain.parse("..DD/C.EB/..EF")  # B itself is walled in
    result = domain.solve(state)
    # B, C and F are all 1x1: C reaches (0,0) in one move, which meets the goal.
    assert result.length == 1 and result.moves[0].piece == "C"
    there = Klotski("piece", goal="B@1,3")
    assert there.is_goal(there.parse("..DD/C.EB/..EF"))
    tall = Klotski("step", goal="A@3,0")
    result = tall.solve(tall.parse(CLASSIC))
    assert result.status == SOLVED and result.states[-1].tops[0] == 3 * 4 + 0


def test_digit_labels_and_other_sizes():
    domain = Klotski("step")
    board = "1AA2/1AA2/3..4"
    state = domain.parse(board)
    assert domain.format(state) == board
    result = domain.solve(state)
    assert result.length == string_bfs(board, "A", 1, 1, "step") == 1


def test_solved_position_has_distance_zero():
    domain = Klotski("piece")
    state = domain.parse("BCDE/FGHI/JAAK/.AA.")
    assert domain.is_goal(state)
    assert domain.solve(state).length == 0
    analysis = domain.analyse(state)
    assert analysis.distance == 0 and analysis.best_move is None


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "board,options,message",
    [
        ("BAAC/BAAC/DEEF/DGHFX/I..J", {}, "row 4 has 5 cells, expected 4"),
        ("BAAC/BAAC/DE#F/DGHF/I..J", {}, "'#' is not a piece"),
        ("BAAC/BAAC/DE F/DGHF/I..J", {}, "' ' is not a piece"),
        ("BAAC/BAAC/DEEF/DGHF/I..B", {}, "piece B is not a rectangle"),
        ("BAAC/BAAC/DEEF/DGHF/IE.J", {}, "piece E is not a rectangle"),
        ("AAB/A.B", {"goal": "B@0,2"}, "piece A is not a rectangle"),
        ("BCC./BDD./..EE", {}, "no 2x2 goal piece"),
        ("AABB/AABB/....", {}, "more than one 2x2 piece"),
        ("", {}, "board is empty"),
        ("..../....", {}, "board has no pieces"),
        ("BAAC//DEEF", {}, "row 2 is empty"),
        ("/".join(["A" * 11] * 2), {}, "at most 10"),
        ("/".join(["A...."] * 11), {}, "at most 10"),
        (
            "/".join(["ABCDEFGHIJ", "KLMNOPQRST", "UVWXYZabcd", "efghijklmn"]),
            {},
            "at most 36 are allowed",
        ),
        (CLASSIC, {"goal": "Z@3,1"}, "goal piece Z is not on the board"),
        (CLASSIC, {"goal": "A@9,1"}, "off the board"),
        (CLASSIC, {"goal": "A@4,1"}, "does not fit"),
        (CLASSIC, {"goal": "A@3,3"}, "does not fit"),
        (CLASSIC, {"goal": "A3,1"}, "must look like A@3,0"),
        (CLASSIC, {"goal": "A@-1,1"}, "must look like A@3,0"),
        (CLASSIC, {"goal": 5}, "goal must be text"),
        (CLASSIC, {"metric": "diagonal"}, "unknown metric 'diagonal'"),
        (None, {}, "board must be text"),
    ],
)
def test_bad_input_names_the_problem(board, options, message):
    with pytest.raises(BoardError) as error:
        Klotski(**options).parse(board)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_engine_reports_moves_and_rejects_options():
    from solver.engine import analyse_board, solve_board

    report = solve_board("klotski", CLASSIC, metric="step")
    assert report["length"] == 116 and report["optimal"] and report["solvable"]
    assert report["moves"][0] == report["move_details"][0]["text"]
    analysis = analyse_board("klotski", CLASSIC)
    assert analysis["distance"] == 81 and analysis["best_move"]["piece"]
    with pytest.raises(BoardError):
        solve_board("klotski", CLASSIC, capacity=4)


def test_move_objects_are_plain_and_hashable():
    domain = Klotski("step")
    move, _ = domain.moves(domain.parse(CLASSIC))[0]
    assert isinstance(move, KlotskiMove) and hash(move) == hash(KlotskiMove(*move))
