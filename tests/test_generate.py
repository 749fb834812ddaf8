"""Seeded generators: every puzzle is what it claims, re-checked by the solver, and stable."""

import datetime as dt

import pytest
from helpers.jugs import capacities_of, contents_of, jug_pours
from helpers.jugs import goal_met as jug_goal
from helpers.klotski import string_bfs
from helpers.npuzzle import reference_distances
from helpers.search import bfs_distance
from helpers.watersort import fewest_pours_by_bfs

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.results import Budget
from solver.core.search import ida_star
from solver.core.seeds import MAX_SEED, daily_seed
from solver.engine import parse_board, solve_board
from solver.jugs.generate import POURS, jugs_puzzle
from solver.klotski.generate import klotski_puzzle
from solver.klotski.levels import klotski_levels
from solver.npuzzle import NPuzzle, manhattan_conflicts, solvable
from solver.npuzzle.generate import npuzzle_at_distance
from solver.watersort.generate import watersort_level


def tiles(board):
    return tuple(int(t) for t in board.split())


def test_every_eight_puzzle_distance_is_exact():
    for distance in range(1, 32):
        level = npuzzle_at_distance(3, distance, seed=distance * 7)
        assert level["optimal"] and level["distance"] == distance
        assert reference_distances()[tiles(level["board"])] == distance


def test_eight_puzzle_seeds_are_stable_and_varied():
    first = npuzzle_at_distance(3, 20, seed=123)
    assert npuzzle_at_distance(3, 20, seed=123) == first
    others = {npuzzle_at_distance(3, 20, seed=s)["board"] for s in range(10)}
    assert len(others) > 5


@pytest.mark.parametrize("size,distance", [(4, 12), (4, 30), (5, 20), (5, 40)])
def test_larger_boards_are_proven_by_the_lower_bound(size, distance):
    level = npuzzle_at_distance(size, distance, seed=5)
    state = tiles(level["board"])
    assert len(state) == size * size and solvable(state)
    assert level["optimal"] and level["distance"] == distance
    # proof: an admissible lower bound equals the claim, and a solution that long exists
    assert manhattan_conflicts(state) == distance
    # generic IDA* on the domain's own heuristic proves it (a path exactly that long, found
    # on the first bound, so no pattern databases are needed)
    result = ida_star(NPuzzle(), state, budget=Budget(max_nodes=200_000))
    assert result.status == "solved" and result.optimal and result.length == distance
    final = state
    for move in result.moves:
        final = next(nxt for m, nxt in NPuzzle().moves(final) if m == move)
    assert final == tuple(range(1, size * size)) + (0,)


def test_large_board_claim_is_an_upper_bound_when_not_proven():
    level = npuzzle_at_distance(5, 120, seed=1)
    assert level["distance"] <= 120
    assert manhattan_conflicts(tiles(level["board"])) <= level["distance"]
    assert solvable(tiles(level["board"]))
    assert level == npuzzle_at_distance(5, 120, seed=1)


#: fewest pours of seed 11's (8, 5, 3) deal by ``fewest_pours_by_bfs``, pinned: that
#: search takes about three minutes (the other shapes take under a second, so run live)
PINNED_BFS_POURS = {(8, 5, 3): 31}


@pytest.mark.parametrize(
    "colours,capacity,empty", [(3, 3, 1), (5, 4, 2), (6, 4, 1), (8, 5, 3), (4, 6, 2)]
)
def test_water_sort_deals_are_proven_with_their_fewest_pours(colours, capacity, empty):
    level = watersort_level(colours, capacity, empty, seed=11)
    tubes = level["board"].split(",")
    assert len(tubes) == colours + empty and tubes.count("") == empty
    assert len(set("".join(tubes))) == colours
    fewest = PINNED_BFS_POURS.get((colours, capacity, empty))
    if fewest is None:
        fewest = fewest_pours_by_bfs(level["board"], capacity)
    assert level["pours"] == fewest
    report = solve_board("watersort", level["board"], capacity=capacity)
    assert report["status"] == "solved" and report["optimal"]
    assert report["length"] == fewest
    # replay the pours with the rules
    domain, state = parse_board("watersort", level["board"], capacity=capacity)
    for move in report["move_details"]:
        _pour, state = domain.pour(state, move["from"], move["to"])
    assert domain.is_goal(state)
    assert watersort_level(colours, capacity, empty, seed=11) == level


def test_water_sort_seeds_give_different_deals():
    boards = {watersort_level(6, 4, 2, seed)["board"] for seed in range(6)}
    assert len(boards) == 6


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: npuzzle_at_distance(3, 32, 1), "distance must be a whole number from 1 to 31"),
        (lambda: npuzzle_at_distance(6, 5, 1), "size must be"),
        (lambda: npuzzle_at_distance(3, 5, -1), "seed must be"),
        (lambda: watersort_level(15, 4, 2, 1), "colours must be a whole number from 3 to 14"),
        (lambda: watersort_level(5, 7, 2, 1), "capacity must be"),
        (lambda: watersort_level(5, 4, 0, 1), "empty must be"),
        (  # a huge number is quoted by its first 20 digits, the line kept short
            lambda: npuzzle_at_distance(3, 10**30, 1),
            "from 1 to 31, not 1" + "0" * 19 + "…$",
        ),
        (  # past the 4,300 digits Python will print: still the one clear error
            lambda: npuzzle_at_distance(3, -(10**5000), 1),
            "from 1 to 31, not -1" + "0" * 19 + "…$",
        ),
        (
            lambda: catalogue.games()["watersort"].check_options({"capacity": 10**5000}),
            "capacity must be a whole number from 1 to 12, not 1" + "0" * 19 + "…$",
        ),
    ],
)
def test_bad_arguments_are_one_line_board_errors(call, message):
    with pytest.raises(BoardError, match=message):
        call()


def test_daily_seed_depends_on_game_and_day_only():
    day = dt.date(2024, 5, 17)
    assert daily_seed("npuzzle", day) == daily_seed("npuzzle", day)
    assert daily_seed("npuzzle", day) != daily_seed("watersort", day)
    assert daily_seed("npuzzle", day) != daily_seed("npuzzle", day + dt.timedelta(1))
    assert 0 <= daily_seed("klotski", day) <= MAX_SEED


def test_klotski_daily_picks_a_pack_level():
    levels = klotski_levels()
    picked = catalogue.get("klotski").generate({}, daily_seed("klotski", dt.date(2024, 1, 1)), True)
    assert any(lv["board"] == picked["board"] and lv["name"] == picked["name"] for lv in levels)


# -- the games' generate hooks: defaults, daily choices, the shape the pages read ----------


def test_npuzzle_game_generates_with_defaults_and_a_varied_daily_distance():
    game = catalogue.get("npuzzle")
    made = game.generate({}, 7, daily=False)
    assert made["params"] == {"size": 3, "distance": 20} and made["min_moves"] == 20
    daily = game.generate({}, 7, daily=True)
    assert daily["params"] == {"size": 3, "distance": 20 + 7 % 12}
    assert reference_distances()[tiles(daily["board"])] == daily["min_moves"]
    assert game.choices()["sizes"]["3"] == 31


def test_watersort_daily_deal_ignores_the_query_and_keeps_its_size():
    game = catalogue.get("watersort")
    asked = game.generate({"colours": 4}, 3, daily=False)
    assert asked["params"] == {"colours": 4, "capacity": 4, "empty": 2}
    daily = game.generate({"colours": 4}, 3, daily=True)
    assert daily["params"] == {"colours": 8, "capacity": 4, "empty": 2}
    assert daily["options"] == {"capacity": 4}
    assert fewest_pours_by_bfs(daily["board"], 4) == daily["min_moves"]


def test_klotski_daily_is_a_graded_level_in_the_piece_metric():
    game = catalogue.get("klotski")
    made = game.generate({}, 11, daily=True)
    level = next(lv for lv in game.levels() if lv["board"] == made["board"])
    assert made["name"] == level["name"] and made["min_moves"] == level["moves"]["piece"]
    assert made["options"] == {"metric": "piece"}
    assert game.choices()["levels"] == len({lv["board"] for lv in game.levels()})


# -- races' small puzzles of the games whose ladders climb shipped levels ---------------


@pytest.mark.parametrize("name", ["jugs", "klotski"])
def test_race_puzzles_are_exactly_as_long_as_asked_by_an_independent_search(name):
    """Every length of the game's race range, three seeds each: the generated board's
    fewest moves by a plain breadth-first search over the reference rules."""
    game = catalogue.get(name)
    assert game.race_lengths is not None
    low, high = game.race_lengths
    for length in range(low, high + 1):
        for seed in (1, 77, 4242):
            made = game.generate(game.race_params(length), seed, False)
            assert made["optimal"] and made["min_moves"] == length, (length, seed, made)
            assert reference_distance(name, made["board"], made["options"]) == length
            again = game.generate(game.race_params(length), seed, False)
            assert again == made  # seeded: the same puzzle


def reference_distance(name, board, options):
    if name == "jugs":
        capacities = capacities_of(board)
        return bfs_distance(contents_of(board), jug_pours(capacities), jug_goal(options["goal"]))
    rows = board.split("/")
    return string_bfs(board, "A", len(rows) - 2, (len(rows[0]) - 2) // 2, options["metric"])


def test_race_puzzles_vary_with_the_seed_and_a_length_past_reach_gives_the_farthest():
    jugs, klotski = catalogue.get("jugs"), catalogue.get("klotski")
    assert len({jugs.generate({"pours": 6}, s, False)["board"] for s in range(12)}) > 4
    assert len({klotski.generate({"moves": 8}, s, False)["board"] for s in range(12)}) > 4
    longest = jugs_puzzle(POURS[1], 5)  # few capacity sets reach 16 pours
    assert 12 <= longest["pours"] <= POURS[1]
    found = bfs_distance(
        contents_of(longest["board"]),
        jug_pours(capacities_of(longest["board"])),
        jug_goal(longest["goal"]),
    )
    assert found == longest["pours"]


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: jugs_puzzle(0, 1), "pours must be a whole number from 1 to"),
        (lambda: klotski_puzzle(31, 1), "moves must be a whole number from 1 to 30"),
        (lambda: klotski_puzzle(5, -1), "seed must be"),
        (lambda: klotski_puzzle(5, 1, "diagonal"), "metric must be one of"),
    ],
)
def test_race_generators_refuse_bad_arguments(call, message):
    with pytest.raises(BoardError, match=message):
        call()


def test_jugs_and_klotski_new_game_and_daily_stay_level_picks():
    """The race hook leaves the New game button and the daily as they were."""
    for name in ("jugs", "klotski"):
        game = catalogue.get(name)
        made = game.generate({}, 11, daily=True)
        assert any(lv["board"] == made["board"] for lv in game.levels())
