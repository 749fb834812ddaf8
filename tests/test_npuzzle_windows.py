"""Windows of a 24-puzzle answer searched over pattern databases by relabeling the tiles.

The databases here are the split into threes (built in seconds; never a 6-tile
table in a test); distances come from a plain breadth-first search on tuples.
"""

import random

import numpy as np
import pytest
from helpers.npuzzle import SPLIT_24 as SPLIT
from helpers.npuzzle import goal, scramble, slides

from solver.core.results import Budget, Monitor
from solver.npuzzle import anytime
from solver.npuzzle.packed_search import PackedSearch
from solver.npuzzle.pdb import build_packed_set
from solver.npuzzle.rules import replay_cells
from solver.npuzzle.windows import relabeled, way_between


@pytest.fixture(scope="module")
def threes():
    saved = build_packed_set(SPLIT, "test databases", n=5)
    return PackedSearch(5, SPLIT, saved["flat"], saved["sizes"])


def distance(a, b):
    """Fewest slides from ``a`` to ``b``: breadth-first from both ends on tuples."""
    if a == b:
        return 0
    sides = [{a: 0}, {b: 0}]
    layers = [[a], [b]]
    while True:
        s = 0 if len(layers[0]) <= len(layers[1]) else 1
        nxt = []
        for board in layers[s]:
            for child in slides(board, 5):
                if child in sides[1 - s]:
                    return sides[s][board] + 1 + sides[1 - s][child]
                if child not in sides[s]:
                    sides[s][child] = sides[s][board] + 1
                    nxt.append(child)
        layers[s] = nxt


def walk(board, k, rng):
    """``board`` after ``k`` random slides, never straight back."""
    previous = None
    for _ in range(k):
        options = [c for c in slides(board, 5) if c != previous]
        previous, board = board, rng.choice(options)
    return board


def pairs(seed, count):
    """(a, b) near each other, b's blank anywhere: often on the goal's cell, often not,
    often beside the corner the split's (19, 20, 24) walls off."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        b = scramble(5, rng.randint(0, 6) if i % 2 else rng.randint(10, 40), rng)
        out.append((walk(b, rng.randint(1, 10), rng), b))
    return out


def test_the_relabeled_bound_never_exceeds_the_distance(threes):
    """Admissible toward every b, the blank anywhere; with every group kept (no drop)
    some bound would exceed the distance, so the drop is what makes it admissible."""
    over = 0
    blanks = set()
    for a, b in pairs(5, 160):
        start, window = relabeled(threes, a, b)
        d = distance(a, b)
        bound = window.lower_bound(start)
        assert bound <= d, (a, b)
        assert (bound == 0) == (a == b)
        blanks.add(b.index(0))
        window.use = np.ones_like(window.use)
        over += window.lower_bound(start) > d
    assert over > 0 and len(blanks) > 5


def test_a_window_is_the_shortest_way_and_replays(threes):
    """Blank of b on the goal's cell, of a there (searched turned round), or neither."""
    kinds = set()
    for a, b in pairs(9, 40):
        d = distance(a, b)
        kinds.add((a.index(0) == 24, b.index(0) == 24))
        way = way_between(threes, a, b, d + 2, 10**7, Monitor())
        assert way is not None and len(way) == d
        states = replay_cells(a, way)[1]
        assert tuple(states[-1]) == b
        if d >= 2:
            assert way_between(threes, a, b, d - 2, 10**7, Monitor()) is None
    assert {(False, True), (True, False), (False, False)} <= kinds


def test_a_window_stops_at_its_node_limit_and_counts_in_the_callers_monitor(threes):
    """Far apart and a bound deep below the distance: the limit ends the search."""
    rng = random.Random(2)
    b = scramble(5, 30, rng)
    a = walk(b, 60, rng)
    start, window = relabeled(threes, a, b)
    longest = window.lower_bound(start) + 10
    mon = Monitor()
    assert way_between(threes, a, b, longest, 5000, mon) is None
    assert 5000 <= mon.count < 5000 + (1 << 17)


def walk_cells(board, k, rng):
    """The cells of ``k`` random slides from ``board`` (never straight back)."""
    cells, previous, z = [], -1, board.index(0)
    for _ in range(k):
        r, c = divmod(z, 5)
        options = [
            q
            for q, ok in ((z - 5, r > 0), (z + 5, r < 4), (z - 1, c > 0), (z + 1, c < 4))
            if ok and q != previous
        ]
        previous, z = z, rng.choice(options)
        cells.append(z)
    return cells


def test_wide_windows_replace_a_detour_by_the_shortest_way(threes):
    """Ten random slides, the blank five times round a 2x2 block, then a shortest way
    home: an answer whose first window of 30 has a far shorter way (found here by the
    wide windows alone; Manhattan windows are not run)."""
    rng = random.Random(4)
    there = walk_cells(goal(5), 8, rng)
    start = tuple(replay_cells(goal(5), there)[1][-1])
    ten = walk_cells(start, 10, rng)
    z = ten[-1]
    r, c = divmod(z, 5)
    dr, dc = (5 if r < 4 else -5), (1 if c < 4 else -1)
    loop = [z + dc, z + dc + dr, z + dr, z] * 5
    middle = tuple(replay_cells(start, ten + loop)[1][-1])
    rest = threes.search(middle, Monitor())
    answer = ten + loop + rest
    seen = []
    mon = Monitor(Budget(max_seconds=60.0))
    best = anytime.BestSoFar(list(answer), 0, seen.append, mon)
    anytime.shorten_wide(start, best, mon, threes)
    assert len(best.cells) <= distance(start, middle) + len(rest) < len(answer)
    assert seen and seen[-1].best == len(best.cells)
    assert tuple(replay_cells(start, best.cells)[1][-1]) == goal(5)


def test_the_anytime_search_runs_the_wide_windows_over_the_packed_split(threes, monkeypatch):
    """After each answer of a weighted pass (6-6-6-6 only; the reference row turns them
    off); the answer still replays and its lower bound is untouched."""
    calls = []
    real = anytime.shorten_wide

    def spy(start, best, mon, search, tried=None):
        calls.append(len(best.cells))
        real(start, best, mon, search, tried)

    monkeypatch.setattr(anytime, "shorten_wide", spy)
    monkeypatch.setattr(anytime, "searcher", lambda progress=None, databases=None: threes)
    monkeypatch.setattr(anytime, "databases_of", lambda found: "6-6-6-6")
    board = scramble(5, 60, random.Random(12))
    seen = []
    result = anytime.anytime_search(board, budget=Budget(max_seconds=2.0), progress=seen.append)
    assert calls
    assert tuple(result.states[-1]) == goal(5) and tuple(result.states[0]) == board
    assert all(p.lower_bound <= result.length for p in seen)
    calls.clear()
    anytime.anytime_search(board, budget=Budget(max_seconds=0.5), relabeled_windows=False)
    assert calls == []
