"""N-puzzle: notation, errors, parity, and the 8-puzzle distance table against generic search."""

import collections
import random

import pytest
from helpers.npuzzle import assert_replays, reference_distances, scramble, slides, solvable_boards
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.errors import BoardError
from solver.core.results import SOLVED, UNSOLVABLE
from solver.core.search import astar, bidirectional, breadth_first, ida_star
from solver.engine import analyse_board, solve_board
from solver.npuzzle import NPuzzle, Slide, manhattan_conflicts, solvable
from solver.npuzzle import table as npuzzle_table

DOMAIN = NPuzzle()
HARDEST = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"]


def permutation_boards(sides=(2, 3, 4, 5)):
    """Any arrangement of the tiles (solvable or not), as a tuple."""
    return st.sampled_from(sides).flatmap(lambda n: st.permutations(list(range(n * n))).map(tuple))


#: 8-puzzle positions at each distance 0..31 from the goal, as published (OEIS A089473);
#: the reference search below reproduces them
PUBLISHED_8_PUZZLE_COUNTS = [
    1,
    2,
    4,
    8,
    16,
    20,
    39,
    62,
    116,
    152,
    286,
    396,
    748,
    1024,
    1893,
    2512,
    4485,
    5638,
    9529,
    10878,
    16993,
    17110,
    23952,
    20224,
    24047,
    15578,
    14560,
    6274,
    3910,
    760,
    221,
    2,
]


# -- notation -------------------------------------------------------------------


@given(permutation_boards())
def test_format_parse_round_trip(board):
    text = DOMAIN.format(board)
    assert DOMAIN.parse(text) == board
    assert DOMAIN.format(DOMAIN.parse(text)) == text


@given(permutation_boards(), st.data())
def test_any_mix_of_separators_and_surrounding_space(board, data):
    seps = [
        data.draw(st.sampled_from([" ", ",", "/", ", ", " / ", "\n", "\t", "  "]))
        for _ in board[1:]
    ]
    text = str(board[0]) + "".join(sep + str(t) for sep, t in zip(seps, board[1:], strict=True))
    assert DOMAIN.parse("  \n" + text + " \t") == board


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "board is empty"),
        ("  \n ", "board is empty"),
        (",/ ,", "board is empty"),
        ("1 2 x 0", "'x' is not a tile number"),
        ("1 2 3 -1", "'-1' is not a tile number"),
        ("1 2 3 4.5 0 6 7 8 9", "'4.5' is not a tile number"),
        ("1 2 2 0", "tile 2 appears twice and tile 3 is missing"),
        (
            "1 2 3 4 5 6 7 8 9",
            "tile 9 is out of range (a 3x3 board uses 0 to 8) and tile 0 is missing",
        ),
        ("1 2 3 4 5 6 7 0", "8 tiles do not make a square board"),
        ("1 2 3", "3 tiles do not make a square board"),
        ("0", "a 1x1 board is too small"),
        (" ".join(map(str, range(121))), "a 11x11 board is too large: the largest is 10x10"),
    ],
)
def test_bad_boards_name_the_problem(text, message):
    with pytest.raises(BoardError) as err:
        DOMAIN.parse(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_non_text_board_is_a_board_error():
    with pytest.raises(BoardError):
        DOMAIN.parse(None)


def test_move_names_the_tile_and_the_way_it_slides():
    goal = DOMAIN.parse("1 2 3 4 5 6 7 8 0")
    moves = dict(DOMAIN.moves(goal))
    assert set(moves) == {Slide(6, "down"), Slide(8, "right")}
    assert DOMAIN.describe(Slide(6, "down")) == "6 down"
    assert DOMAIN.move_info(Slide(6, "down")) == {"tile": 6, "dir": "down", "text": "6 down"}
    offsets = {"up": -3, "down": 3, "left": -1, "right": 1}
    board = DOMAIN.parse("1 2 3 4 0 5 6 7 8")
    for move, nxt in DOMAIN.moves(board):
        assert nxt.index(move.tile) - board.index(move.tile) == offsets[move.dir]


# -- parity ---------------------------------------------------------------------


def test_parity_is_exact_on_every_2x2_board():
    import itertools

    for tiles in itertools.permutations(range(4)):
        proven = breadth_first(DOMAIN, tiles).status == SOLVED
        assert solvable(tiles) == proven


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(9))))
def test_parity_agrees_with_the_reference_search(tiles):
    assert solvable(tiles) == (tuple(tiles) in reference_distances())


@settings(max_examples=50)
@given(st.sampled_from([4, 5, 6]), st.integers(0, 60), st.randoms(use_true_random=False))
def test_parity_follows_the_moves(n, k, rng):
    board = list(scramble(n, k, rng))
    assert solvable(board)
    i, j = [c for c, t in enumerate(board) if t][:2]
    board[i], board[j] = board[j], board[i]
    assert not solvable(board)


@pytest.mark.parametrize(
    "text", ["2 1 3 0", "2 1 3 4 5 6 7 8 0", "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0"]
)
def test_unsolvable_is_answered_without_search(text):
    board = DOMAIN.parse(text)
    result = DOMAIN.solve(board)
    assert result.status == UNSOLVABLE and result.optimal and result.nodes == 0
    analysis = DOMAIN.analyse(board)
    assert analysis.solvable is False and analysis.optimal
    report = solve_board("npuzzle", text)
    assert report["solvable"] is False


# -- the 8-puzzle table -------------------------------------------------------------


@pytest.mark.parametrize("text", HARDEST)
def test_hardest_8_puzzles_take_31_moves(text):
    board = DOMAIN.parse(text)
    result = DOMAIN.solve(board)
    assert result.length == 31 and result.optimal
    assert_replays(board, result)
    assert npuzzle_table.distance(board) == 31
    assert max(npuzzle_table.distances().values()) == 31


def test_the_reference_search_finds_the_published_counts():
    counts = collections.Counter(reference_distances().values())
    assert [counts[d] for d in range(len(counts))] == PUBLISHED_8_PUZZLE_COUNTS
    assert sum(PUBLISHED_8_PUZZLE_COUNTS) == 181440 == 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2 // 2


def test_every_table_entry_is_one_more_than_its_closest_neighbour():
    """One pass over the whole table: the goal is 0, every other position has a
    neighbour one closer and none closer, and the counts per distance are the
    published ones. Together these pin every entry to its true distance."""
    table = npuzzle_table.distances()

    def unpack(packed):
        return tuple((packed >> (4 * cell)) & 15 for cell in range(9))

    def pack(tiles):
        return sum(t << (4 * cell) for cell, t in enumerate(tiles))

    counts = collections.Counter()
    for packed, distance in table.items():
        board = unpack(packed)
        counts[distance] += 1
        if distance == 0:
            assert board == (1, 2, 3, 4, 5, 6, 7, 8, 0)
            continue
        closest = min(table[pack(nxt)] for nxt in slides(board))
        assert closest == distance - 1, (board, distance, closest)
    assert [counts[d] for d in range(len(counts))] == PUBLISHED_8_PUZZLE_COUNTS


@settings(max_examples=12, deadline=None)
@given(solvable_boards(3))
def test_table_distance_matches_generic_searches(board):
    expected = npuzzle_table.distance(board)
    result = DOMAIN.solve(board)
    assert result.optimal and result.length == expected
    assert_replays(board, result)
    for search in (bidirectional, astar, ida_star):
        found = search(DOMAIN, board)
        assert found.optimal and found.length == expected, search.__name__
        assert_replays(board, found)


@settings(max_examples=3, deadline=None)
@given(solvable_boards(3))
def test_table_distance_matches_breadth_first(board):
    found = breadth_first(DOMAIN, board)
    assert found.length == npuzzle_table.distance(board)
    assert_replays(board, found)


@settings(max_examples=200)
@given(solvable_boards(3))
def test_manhattan_conflicts_never_overestimate(board):
    assert manhattan_conflicts(board) <= npuzzle_table.distance(board)


def test_linear_conflict_counts_a_reversed_row():
    # two swapped pairs, each in its own row: Manhattan 4, and one tile of each
    # pair must step out of the row and back in (+2 each)
    board = (2, 1, 3, 4, 5, 6, 8, 7, 0)
    assert manhattan_conflicts(board) == 8 <= npuzzle_table.distance(board)


@settings(max_examples=100)
@given(solvable_boards(3))
def test_analysis_gives_the_distance_and_a_move_one_closer(board):
    analysis = DOMAIN.analyse(board)
    assert analysis.solvable and analysis.optimal
    assert analysis.distance == reference_distances()[board]
    if analysis.distance:
        assert (analysis.best_move, analysis.next_state) in list(DOMAIN.moves(board))
        assert reference_distances()[analysis.next_state] == analysis.distance - 1


def test_the_ranked_table_holds_every_distance_and_marks_the_other_parity():
    """The lookups' byte-per-rank form (a numpy search) against the dict (a search in
    Python), entry by entry."""
    ranked, table = npuzzle_table.ranked(), npuzzle_table.distances()
    assert len(ranked) == 362_880
    for packed, distance in table.items():
        tiles = [(packed >> (4 * cell)) & 15 for cell in range(9)]
        assert ranked[npuzzle_table.rank(tiles)] == distance
    assert ranked.count(npuzzle_table.UNREACHED) == 362_880 - len(table)
    with pytest.raises(KeyError):
        npuzzle_table.distance((2, 1, 3, 4, 5, 6, 7, 8, 0))


def test_cold_build_then_reload_from_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLE_ARCADE_CACHE", str(tmp_path))
    npuzzle_table.STORE.forget()
    built = npuzzle_table.distances()
    assert list(tmp_path.glob("npuzzle-3x3-distances*"))
    npuzzle_table.STORE.forget()
    monkeypatch.setattr(npuzzle_table, "build_distances", lambda: pytest.fail("rebuilt"))
    assert npuzzle_table.distances() == built
    npuzzle_table.STORE.forget()  # the next test reads the shared folder again


def test_any_8_puzzle_is_solved_by_walking_the_table():
    """No search: each step goes to a neighbour one closer (the bench times it)."""
    rng = random.Random(3)
    boards = [scramble(3, 60 + i, rng) for i in range(50)] + [DOMAIN.parse(t) for t in HARDEST]
    for board in boards:
        result = DOMAIN.solve(board)
        assert result.nodes == 0 and result.optimal
        assert result.length == reference_distances()[board]
        assert_replays(board, result)


# -- engine entry points ----------------------------------------------------------


def test_engine_solves_and_analyses_through_the_domain():
    report = solve_board("npuzzle", " 8,6,7 / 2,5,4 / 3,0,1 ")
    assert report["board"] == "8 6 7 2 5 4 3 0 1"
    assert report["optimal"] and report["length"] == 31
    assert report["states"][-1] == "1 2 3 4 5 6 7 8 0"
    assert report["move_details"][0]["tile"] in range(1, 9)
    analysis = analyse_board("npuzzle", "1 2 3 4 5 6 7 0 8")
    assert analysis["distance"] == 1 and analysis["optimal"]
    assert analysis["best_move"] == {"tile": 8, "dir": "left", "text": "8 left"}
    with pytest.raises(BoardError):
        solve_board("npuzzle", "1 2 3 4 5 6 7 8 8")
