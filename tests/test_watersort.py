"""Water sort: notation, rules, the lower bound's soundness and proven-shortest solving."""

import random
import threading

import pytest
from helpers.watersort import fewest_pours_by_bfs, reference_pour
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.errors import BoardError
from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE, Budget, Monitor
from solver.core.search import astar, breadth_first
from solver.engine import solve_board
from solver.watersort import Pour, WaterSort, lower_bound, random_deal
from solver.watersort.deals import bench
from solver.watersort.search import expand, solve_fewest_pours

# -- helpers --------------------------------------------------------------


def replay(domain, start, moves):
    """Apply each move with the rules (``pour``) and return every state on the way."""
    states = [start]
    for move in moves:
        applied, nxt = domain.pour(states[-1], move.src, move.dst)
        assert applied == move
        states.append(nxt)
    return states


def assert_valid_solution(domain, start, result):
    assert result.status == SOLVED
    states = replay(domain, start, result.moves)
    assert states == list(result.states)
    assert domain.is_goal(states[-1])


def random_position(domain, board, steps, rng):
    """``board`` after ``steps`` random legal pours (stops early when stuck)."""
    state = domain.parse(board)
    for _ in range(steps):
        options = list(domain.legal_pours(state))
        if not options:
            break
        state = rng.choice(options)[1]
    return state


deals = st.builds(
    lambda colours, capacity, empty, seed: (capacity, random_deal(colours, capacity, empty, seed)),
    st.integers(1, 8),
    st.integers(1, 6),
    st.integers(0, 3),
    st.integers(0, 10**6),
)

small_deals = st.builds(
    lambda colours, capacity, empty, seed, steps: (capacity, colours, empty, seed, steps),
    st.integers(2, 4),
    st.integers(2, 4),
    st.integers(1, 2),
    st.integers(0, 10**6),
    st.integers(0, 5),
)

# -- notation ---------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(deals, st.integers(0, 10**6), st.integers(0, 12))
def test_format_parse_round_trip_on_deals_and_play(deal, seed, steps):
    capacity, board = deal
    domain = WaterSort(capacity)
    assert domain.format(domain.parse(board)) == board
    state = random_position(domain, board, steps, random.Random(seed))
    text = domain.format(state)
    assert domain.parse(text) == state
    assert domain.format(domain.parse(text)) == text


def test_example_board_parses_to_player_order():
    domain = WaterSort()
    state = domain.parse("ABAB,BABA,,")
    assert state == ("ABAB", "BABA", "", "")
    assert domain.key(state) == domain.key(("", "BABA", "", "ABAB"))


@pytest.mark.parametrize(
    "board, capacity, message",
    [
        ("", 4, "empty board"),
        ("   ", 4, "empty board"),
        (",,", 4, "no colour"),
        ("RRRRR,,", 4, "tube 1 holds 5 units, capacity is 4"),
        ("AAAA,RRRRR", 4, "tube 2 holds 5 units, capacity is 4"),
        ("RRRR,R", 4, "colour R has 5 units, tubes hold 4"),
        ("AB?B,BABA", 4, "tube 1 has '?' at position 3"),
        ("AA-A,,", 4, "'-'"),
        ("ABAB,BA BA", 4, "' '"),
        ("ÄÄÄÄ", 4, "letters or digits"),
        (",".join(["AAAA"] * 41), 4, "41 tubes; the limit is 40"),
    ],
)
def test_bad_boards_name_the_problem(board, capacity, message):
    with pytest.raises(BoardError) as info:
        WaterSort(capacity).parse(board)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "capacity, message",
    [
        (0, "out of range"),
        (13, "use 1 to 12"),
        (-4, "out of range"),
        ("x", "not a whole number"),
        (2.5, "not a whole number"),
        (True, "whole number"),
        (None, "not a whole number"),
    ],
)
def test_bad_capacity_is_a_board_error(capacity, message):
    with pytest.raises(BoardError, match=message):
        WaterSort(capacity)


def test_capacity_given_as_text_is_accepted():
    assert WaterSort("3").capacity == 3


def test_non_text_board_is_a_board_error():
    with pytest.raises(BoardError, match="text"):
        WaterSort().parse(["AAAA"])


# -- rules --------------------------------------------------------------------


def test_partial_pour_moves_only_what_fits():
    domain = WaterSort()
    state = domain.parse("ABBB,AAB,A")
    move, nxt = domain.pour(state, 0, 1)
    assert move == Pour(0, 1, 1, "B")
    assert nxt == ("ABB", "AABB", "A")


def test_whole_run_moves_when_it_fits():
    domain = WaterSort()
    move, nxt = domain.pour(domain.parse("ABB,AABB,A,"), 0, 3)
    assert move == Pour(0, 3, 2, "B")
    assert nxt == ("A", "AABB", "A", "BB")


@pytest.mark.parametrize(
    "board, capacity, src, dst, message",
    [
        ("ABA,BAB,AB,", 4, 0, 1, "tube 2 has B on top, tube 1 pours A"),
        ("AB,BA,", 2, 2, 0, "tube 3 is empty"),
        ("AABB,AABB,", 4, 0, 0, "different tube"),
        ("AABB,AABB,", 4, 0, 7, "no tube 7"),
    ],
)
def test_illegal_pours_are_refused_with_a_reason(board, capacity, src, dst, message):
    domain = WaterSort(capacity)
    with pytest.raises(BoardError, match=message):
        domain.pour(domain.parse(board), src, dst)


def test_full_tube_takes_nothing():
    domain = WaterSort(2)
    state = domain.parse("AB,BB,A,B")
    with pytest.raises(BoardError, match="tube 2 is full"):
        domain.pour(state, 0, 1)


@settings(max_examples=100, deadline=None)
@given(deals, st.integers(0, 10**6), st.integers(0, 10))
def test_legal_pours_match_the_unit_by_unit_rules(deal, seed, steps):
    capacity, board = deal
    domain = WaterSort(capacity)
    state = random_position(domain, board, steps, random.Random(seed))
    expected = {}
    for src in range(len(state)):
        for dst in range(len(state)):
            if src != dst:
                moved, child = reference_pour(state, src, dst, capacity)
                if moved:
                    expected[(src, dst)] = (moved, child)
    got = {(m.src, m.dst): (m.amount, child) for m, child in domain.legal_pours(state)}
    assert got == expected
    for move, child in domain.moves(state):
        assert got[(move.src, move.dst)] == (move.amount, child)
        assert move.colour == state[move.src][-1]
    skipped = set(got) - {(m.src, m.dst) for m, _ in domain.moves(state)}
    for src, dst in skipped:  # only relabellings are left out of the search
        assert state[dst] == "" and state[src].count(state[src][0]) == len(state[src])


def test_goal_test():
    domain = WaterSort()
    assert domain.is_goal(domain.parse("AAAA,,BBBB"))
    assert not domain.is_goal(domain.parse("AAAA,BBB,B"))
    assert not domain.is_goal(domain.parse("AABB,BBAA,,"))


def test_describe_is_one_based_and_move_info_zero_based():
    domain = WaterSort()
    move, _ = domain.pour(domain.parse("ABAB,BABA,,"), 0, 2)
    assert domain.describe(move) == "tube 1 -> 3"
    assert domain.move_info(move) == {
        "from": 0,
        "to": 2,
        "amount": 1,
        "colour": "B",
        "text": "tube 1 -> 3",
    }


# -- the lower bound --------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(small_deals)
def test_lower_bound_never_exceeds_true_distance(params):
    capacity, colours, empty, seed, steps = params
    domain = WaterSort(capacity)
    state = random_position(
        domain, random_deal(colours, capacity, empty, seed), steps, random.Random(seed)
    )
    exact = breadth_first(domain, state)
    if exact.status == SOLVED:
        # every position on a shortest path is exactly len - i from solved
        for i, on_path in enumerate(exact.states):
            assert lower_bound(on_path, capacity) <= exact.length - i
    assert (lower_bound(state, capacity) == 0) == domain.is_goal(state)
    for _move, child in domain.moves(state):  # consistent: drops at most 1 per pour
        assert domain.heuristic(state) - domain.heuristic(child) <= 1


@settings(max_examples=100, deadline=None)
@given(deals, st.integers(0, 10**6), st.integers(0, 10))
def test_fast_expansion_agrees_with_the_rules_and_the_bound(deal, seed, steps):
    capacity, board = deal
    domain = WaterSort(capacity)
    state = random_position(domain, board, steps, random.Random(seed))
    key = domain.key(state)
    units = "".join(state)
    full = {c: units.count(c) // capacity for c in set(units)}
    fast = expand(key.split(","), capacity, full)
    keys = [child for child, _ in fast]
    assert set(keys) == {domain.key(child) for _m, child in domain.moves(state)}
    for child, delta in fast:  # the incremental bound is exact
        assert lower_bound(key.split(","), capacity) + delta == lower_bound(
            child.split(","), capacity
        )


def test_lower_bound_counts_raised_and_surplus_bottom_blocks():
    # A: raised blocks 0, bottoms 2 > 1 tube -> 1; B: one raised block -> 1
    assert lower_bound(("AB", "A"), 2) == 2
    assert lower_bound(("AA", "BB", ""), 2) == 0


# -- solving ----------------------------------------------------------------------


def test_example_solves_in_seven_pours():
    domain = WaterSort()
    start = domain.parse("ABAB,BABA,,")
    result = domain.solve(start)
    assert result.optimal and result.length == 7
    assert_valid_solution(domain, start, result)


@settings(max_examples=120, deadline=None)
@given(small_deals)
def test_astar_length_equals_breadth_first(params):
    capacity, colours, empty, seed, steps = params
    domain = WaterSort(capacity)
    start = random_position(
        domain, random_deal(colours, capacity, empty, seed), steps, random.Random(seed + 1)
    )
    exact = breadth_first(domain, start)
    fast = domain.solve(start)
    generic = astar(domain, start)
    assert fast.status == exact.status == generic.status
    assert fast.optimal and generic.optimal
    if exact.status == SOLVED:
        assert fast.length == exact.length == generic.length
        assert_valid_solution(domain, start, fast)


#: seeded deals of 5-8 colours (capacity 4, two empty tubes: the game's own deal) and a
#: few other shapes; each has at most ~15,000 positions, so breadth-first search settles
#: every one in well under a second (the whole table takes a few seconds)
REFERENCE_DEALS = (
    [(colours, 4, 2, seed) for colours in (5, 6, 7, 8) for seed in range(12)]
    + [(colours, 4, 1, seed) for colours in (5, 6, 7) for seed in range(4, 8)]
    + [(8, 3, 2, seed) for seed in range(4)]
    + [(6, 5, 2, seed) for seed in range(4)]
)


@pytest.mark.parametrize("colours, capacity, empty, seed", REFERENCE_DEALS)
def test_fewest_pours_equal_a_plain_breadth_first_search(colours, capacity, empty, seed):
    """Proven-shortest means exactly breadth-first search's length, on deals the size
    players get; an inadmissible ordering (f = g + 2h, say) returns some deals here
    a few pours too long and still calls them optimal."""
    board = random_deal(colours, capacity, empty, seed)
    expected = fewest_pours_by_bfs(board, capacity)
    domain = WaterSort(capacity)
    start = domain.parse(board)
    result = domain.solve(start)
    assert result.optimal
    if expected is None:
        assert result.status == UNSOLVABLE
        return
    assert result.status == SOLVED and result.length == expected
    assert_valid_solution(domain, start, result)


@pytest.mark.parametrize("colours", [6, 9, 12, 14])
def test_larger_deals_replay_to_solved_and_match_the_bound_chain(colours):
    domain = WaterSort()
    start = domain.parse(random_deal(colours, seed=colours))
    result = domain.solve(start, budget=Budget(max_seconds=20))
    assert result.optimal
    assert_valid_solution(domain, start, result)
    assert result.length >= domain.heuristic(start)


def test_tube_order_is_kept_in_the_answer():
    domain = WaterSort(2)
    start = domain.parse(",BA,AB")
    result = domain.solve(start)
    assert_valid_solution(domain, start, result)
    assert result.states[0] == ("", "BA", "AB")


@pytest.mark.parametrize("board, capacity", [("AB,BA", 2), ("ACB,ABC,ABC,", 3)])
def test_proven_unsolvable(board, capacity):
    domain = WaterSort(capacity)
    start = domain.parse(board)
    result = domain.solve(start)
    assert result.status == UNSOLVABLE and result.optimal
    assert breadth_first(domain, start).status == UNSOLVABLE


def test_solved_board_needs_no_pour():
    domain = WaterSort()
    result = domain.solve(domain.parse("BBBB,,AAAA"))
    assert result.status == SOLVED and result.optimal and result.length == 0


def test_budget_without_any_solution_gives_up_clearly():
    domain = WaterSort()
    start = domain.parse(random_deal(12, seed=9))
    result = domain.solve(start, budget=Budget(max_nodes=300))
    assert result.status == BUDGET and not result.optimal
    assert "gave up after" in result.message


def test_budget_returns_best_found_flagged_not_optimal():
    domain = WaterSort()
    board = random_deal(12, seed=37)
    fewest = fewest_pours_by_bfs(board, 4)  # 37; a few seconds of search
    start = domain.parse(board)
    assert domain.solve(start).length == fewest
    result = domain.solve(start, budget=Budget(max_nodes=1024))
    assert result.status == SOLVED and not result.optimal
    assert "not proven shortest" in result.message
    assert result.length >= fewest
    assert_valid_solution(domain, start, result)


def test_memory_guard_gives_up_with_a_clear_message():
    domain = WaterSort()
    start = domain.parse(random_deal(14, seed=996))
    result = solve_fewest_pours(domain, start, max_states=5000)
    assert result.status in (BUDGET, SOLVED) and not result.optimal
    assert "memory limit" in result.message


def test_cancel_stops_the_search():
    domain = WaterSort()
    stop = threading.Event()
    stop.set()
    result = domain.solve(domain.parse(random_deal(14, seed=3)), cancel=stop)
    assert result.status == CANCELLED


def test_cancel_mid_search_and_progress_reports(monkeypatch):
    monkeypatch.setattr(Monitor, "PROGRESS_EVERY", 0.0)
    checks, reports = [], []

    def cancel():
        checks.append(1)
        return len(checks) > 3

    domain = WaterSort()
    start = domain.parse(random_deal(14, seed=996))  # needs tens of thousands of positions
    result = domain.solve(start, cancel=cancel, progress=reports.append)
    assert result.status == CANCELLED
    assert 3 * Monitor.CHECK_EVERY <= result.nodes <= 5 * Monitor.CHECK_EVERY
    assert reports and [r.nodes for r in reports] == sorted(r.nodes for r in reports)


def test_engine_reports_states_in_the_notation():
    report = solve_board("watersort", "ABAB,BABA,,")
    assert report["solvable"] and report["optimal"] and report["length"] == 7
    assert report["states"][0] == "ABAB,BABA,,"
    assert report["move_details"][0]["text"] == report["moves"][0]
    with pytest.raises(BoardError, match="capacity"):
        solve_board("watersort", "ABAB,BABA,,", capacity=99)


# -- deals --------------------------------------------------------------------------


def test_random_deal_is_repeatable_and_well_formed():
    board = random_deal(14, seed=5)
    assert board == random_deal(14, seed=5)
    tubes = board.split(",")
    assert len(tubes) == 16 and tubes[-2:] == ["", ""]
    units = "".join(tubes)
    assert sorted(set(units)) == sorted("ABCDEFGHIJKLMN")
    assert all(units.count(c) == 4 for c in set(units))
    assert set(random_deal(30, seed=1).replace(",", "")) >= set("0123")


@pytest.mark.parametrize(
    "args, message", [((0,), "colours"), ((5, 13), "capacity"), ((39, 4, 2), "too many")]
)
def test_random_deal_rejects_absurd_sizes(args, message):
    with pytest.raises(BoardError, match=message):
        random_deal(*args)


def test_bench_reports_every_deal_and_a_summary():
    lines = []
    rows = bench([5], deals=3, report=lines.append)
    assert [r["seed"] for r in rows] == [0, 1, 2]
    assert all(r["optimal"] and r["status"] in (SOLVED, UNSOLVABLE) for r in rows)
    assert len(lines) == 1 and "5 colours: 3 deals" in lines[0] and "proven 3/3" in lines[0]
