"""Pattern databases: the compiled builder against plain searches, and the built tables' bounds."""

import random

import pytest
from helpers.npuzzle import group_distances, scramble

from solver.npuzzle import NPuzzle
from solver.npuzzle import pdb as npuzzle_pdb
from solver.npuzzle.pdb_build import UNSEEN, build_pattern, build_plain, home_index

DOMAIN = NPuzzle()


@pytest.mark.parametrize(
    "group", [(1, 2, 3), (13, 14, 15), (10, 14, 15), (4, 8, 12), (1, 6, 11, 15)]
)
def test_compiled_builder_agrees_with_a_plain_search(group):
    fast, plain = build_pattern(group), bytes(build_plain(group))
    assert fast == plain
    placements = 1
    for i in range(len(group)):
        placements *= 16 - i
    assert len(fast) - fast.count(UNSEEN) == placements
    assert fast[home_index(group)] == 0


@pytest.mark.parametrize(
    "n, group, tracked",
    [
        (3, (1, 2, 3), True),
        (3, (4, 7, 8), False),
        (5, (1, 2, 3), False),
        (5, (13, 19, 24), False),
        (4, (2, 5, 11), False),
        (5, (1, 7), True),
        (5, (12, 18, 24), True),
    ],
)
def test_other_sizes_and_the_untracked_kind_agree_with_a_plain_search(n, group, tracked):
    fast = build_pattern(group, n, tracked=tracked)
    assert fast == bytes(build_plain(group, n, tracked=tracked))
    placements = 1
    for i in range(len(group)):
        placements *= n * n - i
    assert len(fast) - fast.count(UNSEEN) == placements
    assert fast[home_index(group, n)] == 0


def test_tracking_the_blank_never_lowers_an_entry():
    """Tracked entries count every move the untracked ones count, and sometimes more."""
    group = (1, 2, 5, 6)
    tracked, free = build_pattern(group, tracked=True), build_pattern(group, tracked=False)
    pairs = [(a, b) for a, b in zip(tracked, free, strict=True) if a != UNSEEN]
    assert all(a >= b for a, b in pairs) and any(a > b for a, b in pairs)


def test_entries_equal_a_search_on_real_boards_everywhere():
    """The builder's entries against the tests' own search on real boards, every one."""
    group = (3, 7, 12)
    table = build_pattern(group)
    distances = group_distances(group)
    assert len(distances) == 16 * 15 * 14
    for cells, distance in distances.items():
        index = sum(c << (4 * i) for i, c in enumerate(cells))
        assert table[index] == distance, cells


@pytest.fixture(scope="module")
def tables():
    return npuzzle_pdb.tables()


def test_the_6_6_3_tables_cover_every_placement(tables):
    assert [len(g) for g in npuzzle_pdb.GROUPS] == [6, 6, 3]
    assert sorted(t for g in npuzzle_pdb.GROUPS for t in g) == list(range(1, 16))
    for group, table in zip(npuzzle_pdb.GROUPS, tables, strict=True):
        placements = 1
        for i in range(len(group)):
            placements *= 16 - i
        assert len(table) - int((table == UNSEEN).sum()) == placements
        assert table[home_index(group)] == 0
    seconds = npuzzle_pdb.build_seconds()  # how long each group took, when it was built
    assert len(seconds) == len(npuzzle_pdb.GROUPS) and all(s > 0 for s in seconds)


def _manhattan(board):
    return sum(
        abs(c // 4 - (t - 1) // 4) + abs(c % 4 - (t - 1) % 4) for c, t in enumerate(board) if t
    )


def test_bound_lies_between_manhattan_and_the_true_distance(tables):
    from solver.core.search import bidirectional

    rng = random.Random(11)
    for _ in range(20):
        board = scramble(4, rng.randint(6, 22), rng)
        h = npuzzle_pdb.lower_bound(board)
        assert _manhattan(board) <= h <= bidirectional(DOMAIN, board).length
        assert (h == 0) == DOMAIN.is_goal(board)
