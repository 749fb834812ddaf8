"""Packed pattern databases: ranks, the compiled builder on reduced patterns, the search.

The 15-puzzle's 7-8 tables take minutes and 4.5 GB to build, so no test builds
them: the builder is checked on small groups against plain searches, and the
search runs over a packed 5-5-5 split (built in under a second), which is the
same code on other groups.
"""

import itertools
import os
import random
import time

import numpy as np
import pytest
from helpers.npuzzle import assert_replays, group_distances, scramble
from helpers.plain_ida import assert_enters_plain_ida_nodes

from solver import tables_cli
from solver.cli import main
from solver.core.errors import BoardError
from solver.core.results import UNSOLVABLE, Monitor
from solver.core.search import bidirectional
from solver.core.tables import TableStore
from solver.npuzzle import NPuzzle
from solver.npuzzle import pdb as npuzzle_pdb
from solver.npuzzle.instances import load
from solver.npuzzle.packed_build import (
    BuildError,
    build_packed,
    manhattan_table,
    pack_excess,
    rank_of,
    unpacked_value,
    unrank_into,
)
from solver.npuzzle.packed_search import PackedSearch, rank_change, rank_weights
from solver.npuzzle.pdb_build import build_plain
from solver.npuzzle.ranking import excess, placements, rank, unrank
from solver.npuzzle.rules import replay_cells

DOMAIN = NPuzzle()
INSTANCES = load("korf100")["instances"]
REDUCED = ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14, 15))


@pytest.mark.parametrize("cells,k", [(9, 3), (16, 3), (9, 8)])
def test_ranks_number_every_placement_once(cells, k):
    seen = set()
    for spots in itertools.permutations(range(cells), k):
        at = rank(spots, cells)
        assert unrank(at, k, cells) == list(spots)
        seen.add(at)
    assert seen == set(range(placements(cells, k)))


def test_compiled_ranks_are_the_plain_ones():
    rng = random.Random(7)
    spots, digits = np.zeros(8, np.int64), np.zeros(8, np.int64)
    for _ in range(300):
        k = rng.randint(1, 8)
        placed = rng.sample(range(16), k)
        at = rank(placed, 16)
        assert rank_of(np.array(placed, np.int64), k, 16) == at
        taken = unrank_into(at, k, 16, spots, digits)
        assert list(spots[:k]) == placed
        assert taken == sum(1 << c for c in placed)


@pytest.mark.parametrize(
    "n,group", [(3, (1, 2, 3)), (3, (4, 5, 7, 8)), (4, (13, 14, 15)), (4, (1, 2, 5)), (4, (3, 8))]
)
def test_packed_builder_agrees_with_the_plain_search_everywhere(n, group):
    """Every placement's entry (Manhattan + twice the stored excess) is the plain
    search's, which keeps a byte per placement in the sparse index."""
    built = build_packed(group, n)
    plain = build_plain(group, n, tracked=True)
    cells = n * n
    deepest = max(plain[i] for i in range(len(plain)) if plain[i] < 255)
    assert built["cut"] == 0 and built["depth"] >= deepest  # a region may lie deeper
    for spots in itertools.permutations(range(cells), len(group)):
        index = sum(c * cells**i for i, c in enumerate(spots))
        assert unpacked_value(built["table"], group, spots, n) == plain[index], spots


def test_packed_entries_equal_a_search_on_real_boards_everywhere():
    group = (2, 6, 7, 11)
    table = build_packed(group)["table"]
    distances = group_distances(group)
    assert len(distances) == placements(16, len(group))
    for spots, distance in distances.items():
        assert unpacked_value(table, group, spots) == distance, spots


def test_an_unsound_table_is_refused():
    """pack_excess counts unreached placements and odd excesses (the builder raises)."""
    group, cells, k = (1, 2), 4, 2
    slots = cells - k
    md = manhattan_table(2)
    dist = np.full(placements(cells, k) * slots, 255, np.uint8)
    for at in range(placements(cells, k)):
        spots = unrank(at, k, cells)
        m = sum(int(md[t * cells + c]) for t, c in zip(group, spots, strict=True))
        dist[at * slots] = m + 2
    dist[0] = 255  # placement 0: never reached
    dist[slots] += 1  # placement 1: an odd excess
    out = np.zeros((placements(cells, k) + 1) // 2, np.uint8)
    unreached, odd, cut = pack_excess(dist, k, cells, slots, md, np.array(group), out)
    assert (unreached, odd, cut) == (1, 1, 0)
    assert all(excess(out, at) == 1 for at in range(2, placements(cells, k)))
    assert issubclass(BuildError, RuntimeError)


@pytest.fixture(scope="module")
def reduced():
    saved = npuzzle_pdb.build_packed_set(REDUCED, "test databases")
    return saved, PackedSearch(4, REDUCED, saved["flat"], saved["sizes"])


def test_the_bound_is_manhattan_plus_the_excesses_and_admissible(reduced):
    saved, search = reduced
    rng = random.Random(11)
    for _ in range(15):
        board = scramble(4, rng.randint(4, 20), rng)
        where = {t: c for c, t in enumerate(board)}
        direct = sum(
            unpacked_value(table_of(saved, g), group, [where[t] for t in group])
            for g, group in enumerate(REDUCED)
        )
        bound = search.lower_bound(board)
        assert bound >= direct  # the mirror lookup can only raise it
        assert bound <= bidirectional(DOMAIN, board).length
        assert (bound == 0) == DOMAIN.is_goal(board)


def test_a_moved_tile_changes_the_rank_by_rank_change():
    """The sum the search adds per move, against ranking the moved placement afresh: every
    group size, every tile of it, moves along and across rows (4x4: a step of 1 or 4)."""
    rng = random.Random(7)
    for _ in range(3000):
        k = rng.randint(1, 8)
        spots = rng.sample(range(16), k)
        i = rng.randrange(k)
        at = spots[i]
        free = [
            at + d
            for d in (-1, 1, -4, 4)
            if 0 <= at + d < 16
            and (abs(d) == 4 or at // 4 == (at + d) // 4)
            and at + d not in spots
        ]
        if not free:
            continue
        to = rng.choice(free)
        moved = list(spots)
        moved[i] = to
        weights = rank_weights([spots], 16)[0]
        assert rank(spots) + rank_change(spots, i, to, weights) == rank(moved)


def test_the_compiled_search_reads_the_bounds_a_fresh_ranking_reads(reduced):
    """Ranks carried from move to move must give every child the bound its whole board has:
    the compiled search enters exactly the nodes a plain IDA* over fresh bounds enters."""
    _saved, search = reduced
    rng = random.Random(36)
    for length in (14, 20, 26, 30):
        board = scramble(4, length, rng)
        if DOMAIN.is_goal(board):
            continue
        assert_enters_plain_ida_nodes(search, board, 4)


def table_of(saved, g):
    at = sum(saved["sizes"][:g])
    return saved["flat"][at : at + saved["sizes"][g]]


@pytest.mark.parametrize("number", [2, 6, 9, 12, 45])
def test_packed_search_proves_korfs_instances(reduced, number):
    _saved, search = reduced
    instance = INSTANCES[number - 1]
    board = DOMAIN.parse(instance["board"])
    cells = search.search(board, Monitor())
    assert len(cells) == instance["optimal"]
    moves, states = replay_cells(board, cells)
    result = Monitor().result("solved", moves, states, optimal=True)
    assert_replays(board, result)
    # nothing shorter: the search with that upper cut finds none
    assert search.search(board, Monitor(), upper=instance["optimal"]) is None


def test_weighted_packed_search_is_legal_and_not_shorter(reduced):
    _saved, search = reduced
    instance = INSTANCES[0]
    board = DOMAIN.parse(instance["board"])
    cells = search.search(board, Monitor(), weight=(2, 1))
    assert len(cells) >= instance["optimal"]
    moves, states = replay_cells(board, cells)
    assert_replays(board, Monitor().result("solved", moves, states))


@pytest.fixture
def reduced_seven_eight(monkeypatch, isolated_cache):
    """The 7-8 set's machinery with the small 5-5-5 split in its place, in a fresh folder."""
    monkeypatch.setattr(npuzzle_pdb, "PACKED_GROUPS", REDUCED)
    monkeypatch.setattr(npuzzle_pdb, "PACKED_NAME", "test-packed-5-5-5")
    monkeypatch.setattr(npuzzle_pdb, "PACKED_STORE", TableStore("npuzzle-test-packed"))
    monkeypatch.setitem(
        npuzzle_pdb.SETS, "7-8", npuzzle_pdb.DatabaseSet("7-8", REDUCED, packed=True)
    )
    return isolated_cache


def test_the_search_uses_the_packed_set_once_it_is_built(reduced_seven_eight, capsys):
    assert npuzzle_pdb.chosen().name == "6-6-3"
    assert main(["tables"]) == 0
    listed = capsys.readouterr().out
    assert "15-puzzle-7-8" in listed and "15-puzzle-6-6-3" in listed
    assert main(["tables", "build", "15-puzzle-7-8"]) == 0
    out, err = capsys.readouterr()
    assert "15-puzzle-7-8: ready in" in out
    assert "building the 15-puzzle 7-8 pattern databases (1/3)" in err
    assert npuzzle_pdb.chosen().name == "7-8"
    assert isinstance(npuzzle_pdb.searcher(), PackedSearch)
    instance = INSTANCES[8]
    board = DOMAIN.parse(instance["board"])
    result = npuzzle_pdb.ida_star_fifteen(board)
    assert result.optimal and result.length == instance["optimal"]
    assert_replays(board, result)
    bounded = npuzzle_pdb.ida_star_fifteen(board, max_length=instance["optimal"] - 1)
    assert bounded.status == UNSOLVABLE
    assert main(["tables", "build", "15-puzzle-7-8"]) == 0
    assert "every table asked for is built" in capsys.readouterr().out


def test_a_build_without_the_memory_it_needs_is_refused(reduced_seven_eight, monkeypatch, capsys):
    monkeypatch.setattr(tables_cli, "available_memory", lambda: 1000)
    assert main(["tables", "build", "15-puzzle-7-8"]) == 1
    err = capsys.readouterr().err
    assert "15-puzzle-7-8: building needs" in err and "not built" in err
    assert not npuzzle_pdb.SETS["7-8"].ready()
    assert npuzzle_pdb.chosen().name == "6-6-3"


def test_a_second_build_of_the_same_table_is_refused(reduced_seven_eight, capsys):
    with tables_cli.building("15-puzzle-7-8") as mine:
        assert mine
        assert main(["tables", "build", "15-puzzle-7-8"]) == 1
    assert "another process is building it now" in capsys.readouterr().err
    assert not npuzzle_pdb.SETS["7-8"].ready()
    assert main(["tables", "build", "15-puzzle-7-8"]) == 0  # the lock went with its holder


def test_a_build_without_the_disk_space_it_needs_is_refused(
    reduced_seven_eight, monkeypatch, capsys
):
    monkeypatch.setattr(tables_cli.shutil, "disk_usage", lambda path: shutil_usage(1000))
    assert main(["tables", "build", "15-puzzle-7-8"]) == 1
    assert "its file needs" in capsys.readouterr().err
    assert not npuzzle_pdb.SETS["7-8"].ready()


def shutil_usage(free):
    import shutil

    return shutil._ntuple_diskusage(free * 2, free, free)


def test_a_damaged_packed_file_is_never_used_nor_rebuilt_by_a_search(reduced_seven_eight, capsys):
    """A cut-short 7-8 file: the search falls back to 6-6-3 at once (a build of the real
    tables takes minutes and gigabytes: only ``tables build`` may start one)."""
    path = npuzzle_pdb.PACKED_STORE.path(npuzzle_pdb.PACKED_NAME)
    path.write_bytes(b"not a table")
    assert not npuzzle_pdb.SETS["7-8"].ready()
    assert npuzzle_pdb.chosen().name == "6-6-3"
    board = DOMAIN.parse(INSTANCES[1]["board"])
    result = npuzzle_pdb.ida_star_fifteen(board)
    assert result.optimal and result.length == INSTANCES[1]["optimal"]
    assert not isinstance(npuzzle_pdb.searcher(), PackedSearch)
    assert path.read_bytes() == b"not a table"  # nothing was built over it
    with pytest.raises(BoardError, match="not built on this machine"):
        npuzzle_pdb.searcher(databases="7-8")
    assert main(["tables"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "15-puzzle-7-8" in line)
    assert row.split()[3] == "no"


def test_bad_table_commands_are_one_line(capsys):
    assert main(["tables", "build", "no-such-table"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'no-such-table'" in err and "15-puzzle-7-8" in err
    assert main(["tables", "list", "15-puzzle-7-8"]) == 2
    assert main(["tables", "burn"]) == 2


def test_clean_removes_only_stale_files(reduced_seven_eight, capsys):
    folder = reduced_seven_eight
    assert main(["tables", "build", "15-puzzle-7-8"]) == 0
    current = npuzzle_pdb.PACKED_STORE.path(npuzzle_pdb.PACKED_NAME)
    stale = folder / f"npuzzle-test-packed-{npuzzle_pdb.PACKED_NAME}-000000000000.v2.pickle"
    stale.write_bytes(b"old")
    abandoned, fresh = folder / ".tmp-abandoned", folder / ".tmp-being-written"
    abandoned.write_bytes(b"half")
    fresh.write_bytes(b"half")
    old = time.time() - 2 * tables_cli.ABANDONED_SECONDS
    os.utime(abandoned, (old, old))
    capsys.readouterr()
    assert main(["tables"]) == 0
    assert "1 stale file(s)" in capsys.readouterr().out
    assert main(["tables", "clean"]) == 0
    assert "removed 2 stale file(s)" in capsys.readouterr().out
    assert not stale.exists() and not abandoned.exists()
    assert current.exists() and fresh.exists()
