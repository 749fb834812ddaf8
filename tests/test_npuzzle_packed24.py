"""The 24-puzzle's packed databases, and the anytime search over them.

The 6-6-6-6 tables take minutes to build, so no test builds them: the 5x5 builder
(flood fills for the blank's region, or untracked) is checked on small groups
against the plain breadth-first search, and the search runs over a split of the 24
tiles into threes (eight tables, built in seconds), which is the same code as over
the 6-6-6-6 split.
"""

import functools
import itertools
import random

import pytest
from helpers.npuzzle import SPLIT_24 as SPLIT
from helpers.npuzzle import assert_replays, scramble
from helpers.plain_ida import assert_enters_plain_ida_nodes

from solver.cli import main
from solver.core.errors import BoardError
from solver.core.results import Budget, Monitor
from solver.core.search import bidirectional
from solver.core.tables import TableStore
from solver.npuzzle import NPuzzle, anytime, ida
from solver.npuzzle.instances import load
from solver.npuzzle.packed_build import build_packed, unpacked_value
from solver.npuzzle.packed_search import PackedSearch
from solver.npuzzle.pdb import build_packed_set
from solver.npuzzle.pdb_build import build_plain
from solver.npuzzle.rules import goal_state, mirror_cells, mirror_tiles

DOMAIN = NPuzzle()
KORF50 = load("korf50")["instances"]


@functools.cache
def plain_database(group, tracked=True):
    """The plain search's 5x5 database of ``group``, built once per tile set (a 3-tile
    one takes seconds): another order of the set reads the same entries by its own
    index, and the tests read (19, 20, 24) in two orders."""
    order = tuple(sorted(group))
    if group == order:
        return bytes(build_plain(group, 5, tracked=tracked))
    built, at = plain_database(order, tracked), [group.index(t) for t in order]
    table = bytearray(len(built))
    for cells in itertools.product(range(25), repeat=len(group)):
        mine = sum(c * 25**i for i, c in enumerate(cells))
        table[mine] = built[sum(cells[i] * 25**j for j, i in enumerate(at))]
    return bytes(table)


@pytest.mark.parametrize(
    "group,tracked",
    [((1, 2, 6), True), ((19, 24, 20), True), ((12, 17), True), ((3, 9, 24), False)],
)
def test_the_five_by_five_builder_agrees_with_the_plain_search_everywhere(group, tracked):
    """Every placement's entry is the plain 0-1 breadth-first search's (tracked: the
    blank's region by flood fills), or the plain search's with the blank not tracked."""
    built = build_packed(group, 5, tracked=tracked)
    plain = plain_database(group, tracked)
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
    saved = build_packed_set(SPLIT, "test databases", n=5)
    return saved, PackedSearch(5, SPLIT, saved["flat"], saved["sizes"])


#: two of the threes (one walls the blank's corner off) and the other tiles in pairs: the
#: views read groups of either width, and a plain 3-tile database costs a second or more
#: in Python where a pair's costs a few hundredths
MIXED = (
    (1, 2, 3),
    (19, 20, 24),
    (4, 5),
    (6, 7),
    (8, 9),
    (10, 15),
    (11, 16),
    (12, 17),
    (13, 14),
    (18, 23),
    (21, 22),
)


def test_each_view_sums_the_plain_databases_of_its_split():
    """The direct bound is the sum of each group's plain database (Manhattan plus twice the
    packed excess, read by rank); the mirrored one is the sum of the plain databases of
    each group's image, built from those groups themselves."""
    assert sorted(itertools.chain(*MIXED)) == list(range(1, 25))
    saved = build_packed_set(MIXED, "test databases", n=5)
    search = PackedSearch(5, MIXED, saved["flat"], saved["sizes"])
    mtile, mcell = mirror_tiles(5), mirror_cells(5)
    direct = {g: plain_database(g) for g in MIXED}
    images = {g: tuple(mtile[t] for t in g) for g in MIXED}
    mirrored = {g: plain_database(images[g]) for g in MIXED}
    # the images make another split: the mirrored sum is a second bound, not the same one
    assert mcell[24] == 24 and any(set(images[g]) not in map(set, MIXED) for g in MIXED)
    rng = random.Random(3)
    for _ in range(60):
        board = scramble(5, rng.randint(10, 80), rng)
        where = {t: c for c, t in enumerate(board)}

        def index(group, where=where):
            return sum(where[t] * 25**i for i, t in enumerate(group))

        hd, hm = search.bounds(board)
        assert hd == sum(direct[g][index(g)] for g in MIXED)
        assert hm == sum(mirrored[g][index(images[g])] for g in MIXED)


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


def test_the_compiled_search_reads_the_bounds_a_fresh_ranking_reads(threes):
    """Ranks carried from move to move (a step of 5 across rows) give every child the
    bound its whole board has: the compiled search enters exactly the nodes a plain
    IDA* over fresh bounds enters, and its answer is the shortest."""
    _saved, search = threes
    rng = random.Random(36)
    for length in (12, 16, 20, 24):
        board = scramble(5, length, rng)
        if DOMAIN.is_goal(board):
            continue
        cells = assert_enters_plain_ida_nodes(search, board, 5)
        assert len(cells) == bidirectional(DOMAIN, board).length


@pytest.fixture
def reduced_six(monkeypatch, isolated_cache):
    """The 6-6-6-6 machinery with the split into threes in its place, in a fresh folder."""
    monkeypatch.setattr(anytime, "SIX_GROUPS", SPLIT)
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
    assert "building the 24-puzzle 6-6-6-6 pattern databases (1/8)" in err
    assert anytime.database_name() == "6-6-6-6"
    assert isinstance(anytime.searcher(), PackedSearch)
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


def test_a_greedier_weight_runs_only_when_a_less_greedy_one_found_nothing(threes, monkeypatch):
    """The 6-6-6-6 schedule starts at 3/2 and keeps 2 for when 3/2 finds no answer; the
    proof comes from the weights in turn (one ran out of paths below the answer) or
    from the w = 1 pass after them."""
    _saved, search = threes
    ran = []
    real = PackedSearch.search

    def recorded(self, start, mon, weight=(1, 1), **kw):
        ran.append(weight)
        return real(self, start, mon, weight, **kw)

    monkeypatch.setattr(PackedSearch, "search", recorded)
    monkeypatch.setattr(anytime, "searcher", lambda progress=None, databases=None: search)
    monkeypatch.setattr(anytime, "databases_of", lambda found: "6-6-6-6")
    board = scramble(5, 40, random.Random(8))
    result = anytime.anytime_search(board, budget=Budget(max_seconds=5.0))
    assert_replays(board, result, n=5)
    assert ran[0] == (3, 2) and (2, 1) not in ran and ran[-1] in ((3, 2), (1, 1))
    assert result.optimal and result.length == len(
        search.search(board, Monitor())
    )  # proven: plain IDA* agrees
    ran.clear()

    def nothing(self, start, mon, weight=(1, 1), **kw):
        ran.append(weight)
        return None if weight == (3, 2) else real(self, start, mon, weight, **kw)

    monkeypatch.setattr(PackedSearch, "search", nothing)
    result = anytime.anytime_search(board, budget=Budget(max_seconds=5.0))
    assert ran[:2] == [(3, 2), (2, 1)]
    assert_replays(board, result, n=5)


def test_a_search_a_slice_at_a_time_answers_as_the_whole_search(threes, monkeypatch):
    """``steps`` yields between slices and returns what ``search`` returns."""
    _saved, search = threes
    monkeypatch.setattr(ida, "SLICE", 64)
    board = scramble(5, 40, random.Random(8))
    for weight in ((1, 1), (5, 4)):
        whole = search.search(board, Monitor(), weight)
        steps = search.steps(board, Monitor(), weight)
        yields = 0
        while True:
            try:
                next(steps)
            except StopIteration as done:
                assert done.value == whole
                break
            yields += 1
        assert yields > 10


def test_a_cut_lowered_from_outside_prunes_every_path_not_below_it(threes, monkeypatch):
    """Told the shortest length between two slices (as a search in turn is when another
    finds it), a weighted search finds nothing after that (nothing is shorter) and runs
    out of paths; left alone, the same search finds answers after that point."""
    _saved, search = threes
    monkeypatch.setattr(ida, "SLICE", 64)
    board = scramble(5, 40, random.Random(8))
    shortest = len(search.search(board, Monitor()))
    for lowered in (False, True):
        upper = [10**6]
        found: list[tuple[int, int]] = []
        steps = search.steps(
            board,
            Monitor(),
            (2, 1),
            found=lambda p, upper=upper, found=found: found.append((len(p), upper[0])),
            upper_now=lambda upper=upper: upper[0],
        )
        next(steps)
        if lowered:
            upper[0] = shortest
        while True:
            try:
                next(steps)
            except StopIteration:
                break
        if lowered:
            assert all(length < cut for length, cut in found)
            assert all(length >= shortest for length, _ in found)
            assert not any(cut == shortest for _, cut in found)
        else:
            assert [cut for _, cut in found].count(10**6) == len(found) > 0
            assert min(length for length, _ in found) >= shortest


def test_the_weights_in_turn_share_the_best_length(threes, monkeypatch):
    """Over 6-6-6-6, after the first answer, 4/3, 5/4 and 6/5 search in turn (all at
    once on a budget of nodes alone: no clock, so the same every run), each cut at the
    best length so far, whoever found it; the answer replays under a bound that holds."""
    _saved, search = threes
    started, answers, cuts = [], [], []
    real = PackedSearch.steps

    def recorded(self, start, mon, weight=(1, 1), upper=None, found=None, *rest, **kw):
        def heard(path):
            answers.append((weight, len(path), kw["upper_now"]()))
            found(path)

        if kw.get("upper_now") is not None:  # a search in turn
            started.append((weight, upper))
            cuts.append(kw["upper_now"])
            return real(self, start, mon, weight, upper, heard, *rest, **kw)
        return real(self, start, mon, weight, upper, found, *rest, **kw)

    monkeypatch.setattr(PackedSearch, "steps", recorded)
    monkeypatch.setattr(anytime, "searcher", lambda progress=None, databases=None: search)
    monkeypatch.setattr(anytime, "databases_of", lambda found: "6-6-6-6")
    board = scramble(5, 150, random.Random(2))
    seen = []
    result = anytime.anytime_search(board, budget=Budget(max_nodes=8_000_000), progress=seen.append)
    assert_replays(board, result, n=5)
    assert result.lower_bound <= result.length == seen[-1].best
    assert [w for w, _ in started] == list(anytime.SIX_IN_TURN)
    uppers = [upper for _, upper in started]  # each the best length when it joined
    assert uppers == sorted(uppers, reverse=True)
    assert answers and all(length < cut for _, length, cut in answers)
    assert result.length <= min(length for _, length, _ in answers) < started[0][1]
    assert all(cut() == result.length for cut in cuts)
