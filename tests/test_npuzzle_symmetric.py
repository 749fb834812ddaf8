"""The 24-puzzle's packed databases and the search over a split symmetric in the diagonal.

The 6-6-6-6 tables take minutes to build, so no test builds them: the 5x5 builder
(flood fills for the blank's region, or untracked) is checked on three-tile groups
against the plain breadth-first search, and the search runs over a symmetric split
of the 24 tiles into threes (six distinct tables, built in seconds), which is the
same code as over the 6-6-6-6 split.
"""

import itertools
import random

import pytest
from helpers.npuzzle import assert_replays, scramble

from solver.cli import main
from solver.core.errors import BoardError
from solver.core.results import Budget, Monitor
from solver.core.search import bidirectional
from solver.core.tables import TableStore
from solver.npuzzle import NPuzzle, anytime
from solver.npuzzle.instances import load
from solver.npuzzle.packed_build import build_packed, unpacked_value
from solver.npuzzle.pdb import build_packed_set
from solver.npuzzle.pdb_build import build_plain
from solver.npuzzle.rules import goal_state, mirror_cells, replay_cells
from solver.npuzzle.symmetric_search import SymmetricSearch, slots_of

DOMAIN = NPuzzle()
KORF50 = load("korf50")["instances"]
#: a split of the 24 tiles into threes, symmetric in the diagonal: each diagonal tile
#: with one mirrored pair (their own images), and two blocks whose images are groups too
SPLIT = (
    (1, 2, 6),
    (7, 8, 12),
    (13, 14, 18),
    (19, 20, 24),
    (3, 4, 5),
    (11, 16, 21),
    (9, 10, 15),
    (17, 22, 23),
)
BUILT = (SPLIT[0], SPLIT[1], SPLIT[2], SPLIT[3], SPLIT[4], SPLIT[6])


@pytest.mark.parametrize(
    "group,tracked",
    [((1, 2, 6), True), ((19, 24, 20), True), ((12, 17), True), ((3, 9, 24), False)],
)
def test_the_five_by_five_builder_agrees_with_the_plain_search_everywhere(group, tracked):
    """Every placement's entry is the plain 0-1 breadth-first search's (tracked: the
    blank's region by flood fills), or the plain search's with the blank not tracked."""
    built = build_packed(group, 5, tracked=tracked)
    plain = build_plain(group, 5, tracked=tracked)
    assert built["cut"] == 0
    for spots in itertools.permutations(range(25), len(group)):
        index = sum(c * 25**i for i, c in enumerate(spots))
        assert unpacked_value(built["table"], group, spots, 5) == plain[index], spots


def test_tracking_the_blank_can_only_raise_an_entry():
    group = (19, 20, 24)
    tracked = build_packed(group, 5, tracked=True)["table"]
    free = build_packed(group, 5, tracked=False)["table"]
    values = [
        (unpacked_value(free, group, s, 5), unpacked_value(tracked, group, s, 5))
        for s in itertools.permutations(range(25), 3)
    ]
    assert all(f <= t for f, t in values)
    assert any(f < t for f, t in values)  # the corner walls the blank off somewhere


@pytest.fixture(scope="module")
def threes():
    saved = build_packed_set(BUILT, "test databases", n=5)
    return saved, SymmetricSearch(5, SPLIT, BUILT, saved["flat"], saved["sizes"])


def test_a_mirrored_group_reads_its_image_s_table(threes):
    """The slot of (11, 16, 21) reads (3, 4, 5)'s table on the mirrored board: every board's
    value is (11, 16, 21)'s own plain database's, built from that group itself."""
    _saved, search = threes
    plain = build_plain((11, 16, 21), 5, tracked=True)
    s = [tuple(sorted(tiles)) for _, _, tiles in search.slots].index((11, 16, 21))
    b, mirrored, tiles = search.slots[s]
    assert mirrored and BUILT[b] == (3, 4, 5)
    rng = random.Random(3)
    mcell = mirror_cells(5)
    for _ in range(200):
        board = scramble(5, rng.randint(10, 80), rng)
        where = {t: c for c, t in enumerate(board)}
        ranks = search.ranks(board)
        got = int(search.excesses(ranks)[s]) * 2 + sum(
            abs(mcell[where[t]] // 5 - (u - 1) // 5) + abs(mcell[where[t]] % 5 - (u - 1) % 5)
            for t, u in zip(tiles, BUILT[b], strict=True)
        )
        index = sum(where[t] * 25**i for i, t in enumerate((11, 16, 21)))
        assert got == plain[index]


def test_a_split_that_is_not_symmetric_or_not_whole_is_refused():
    with pytest.raises(ValueError, match="every tile exactly once"):
        slots_of(5, SPLIT[:-1], BUILT)
    with pytest.raises(ValueError, match="neither built"):
        slots_of(5, SPLIT, BUILT[:-1])


def test_the_bound_is_admissible_and_zero_only_at_the_goal(threes):
    _saved, search = threes
    rng = random.Random(11)
    for _ in range(12):
        board = scramble(5, rng.randint(4, 16), rng)
        bound = search.lower_bound(board)
        assert bound <= bidirectional(DOMAIN, board).length
        assert (bound == 0) == DOMAIN.is_goal(board)
    for instance in KORF50[:10]:
        assert search.lower_bound(DOMAIN.parse(instance["board"])) <= instance["optimal"]


def plain_ida_nodes(search, board):
    """IDA* in plain Python, each child's bound taken afresh from its whole board, children
    in the compiled search's order: the nodes it enters, counted as the compiled search does."""
    nb = [[int(q) for q in row if q >= 0] for row in search.nb]
    bound, total = search.lower_bound(board), 0

    def visit(state, z, parent, g):
        nonlocal least, total
        children = []
        for q in nb[z]:
            if q == parent:
                continue
            child = list(state)
            child[z], child[q] = child[q], 0
            h = search.lower_bound(child)
            if g + 1 + h > bound:
                least = min(least, g + 1 + h)
                continue
            children.append((h, len(children), q, child))
        for h, _order, q, child in sorted(children):
            if h == 0:
                return True
            total += 1
            if visit(child, q, z, g + 1):
                return True
        return False

    while True:
        least = 10**9
        if visit(list(board), list(board).index(0), -1, 0):
            return total
        bound = least


def test_the_compiled_search_reads_the_bounds_a_fresh_ranking_reads(threes):
    """Ranks carried from move to move (mirrored slots' too) give every child the bound its
    whole board has: the compiled search enters exactly the nodes a plain IDA* enters."""
    _saved, search = threes
    rng = random.Random(36)
    for length in (12, 16, 20):
        board = scramble(5, length, rng)
        if DOMAIN.is_goal(board):
            continue
        expected = plain_ida_nodes(search, board)
        mon = Monitor(Budget(max_nodes=expected + 1000))  # a wrong bound stops, not hangs
        cells = search.search(board, mon)
        assert mon.count == expected
        assert len(cells) == bidirectional(DOMAIN, board).length
        assert_replays(board, Monitor().result("solved", *replay_cells(board, cells)), n=5)


@pytest.fixture
def reduced_six(monkeypatch, isolated_cache):
    """The 6-6-6-6 machinery with the split into threes in its place, in a fresh folder."""
    monkeypatch.setattr(anytime, "SIX_GROUPS", SPLIT)
    monkeypatch.setattr(anytime, "SIX_BUILT", BUILT)
    monkeypatch.setattr(anytime, "SIX_NAME", "test-threes")
    monkeypatch.setattr(anytime, "SIX_STORE", TableStore("npuzzle-test-5x5-packed"))
    return isolated_cache


def test_the_anytime_search_uses_the_packed_split_once_built(reduced_six, capsys):
    assert anytime.database_name() == "5-5-5-5-4"
    with pytest.raises(BoardError, match="not built on this machine"):
        anytime.searcher(databases="6-6-6-6")
    assert main(["tables", "build", "24-puzzle-6-6-6-6"]) == 0
    out, err = capsys.readouterr()
    assert "24-puzzle-6-6-6-6: ready in" in out
    assert "building the 24-puzzle 6-6-6-6 pattern databases (1/6)" in err
    assert anytime.database_name() == "6-6-6-6"
    assert isinstance(anytime.searcher(), SymmetricSearch)
    for instance in KORF50[:2]:
        board = DOMAIN.parse(instance["board"])
        result = anytime.anytime_search(board, budget=Budget(max_seconds=1.0))
        assert_replays(board, result, n=5)
        assert result.lower_bound <= instance["optimal"] <= result.length
        assert not result.optimal
    near = scramble(5, 14, random.Random(4))
    result = anytime.anytime_search(near, budget=Budget(max_seconds=20.0))
    assert result.optimal and result.length == bidirectional(DOMAIN, near).length
    assert result.lower_bound == result.length
    assert_replays(near, result, n=5)
    assert anytime.anytime_search(goal_state(5)).length == 0


def test_a_damaged_six_file_falls_back_to_the_small_tables(reduced_six):
    path = anytime.SIX_STORE.path(anytime.SIX_NAME)
    path.write_bytes(b"not a table")
    assert anytime.database_name() == "5-5-5-5-4" and not anytime.six_ready()
    with pytest.raises(BoardError, match="not built on this machine"):
        anytime.searcher(databases="6-6-6-6")
    assert path.read_bytes() == b"not a table"  # nothing was built over it
