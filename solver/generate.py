"""Seeded level generators graded by the solver: the same seed always gives the same puzzle.

* :func:`npuzzle_at_distance` - an N-puzzle a chosen number of moves from solved.
  On 3x3 the full distance table picks a position at exactly that distance.
  On larger boards a heuristic-guided walk from the goal gives an upper bound
  (the walk undone); it is proven exact when the admissible lower bound equals
  it, or (4x4) when a short optimal search agrees.
* :func:`watersort_level` - a random deal the solver proved solvable, with its
  fewest pours. Unsolvable or undecided deals are skipped by trying the next
  sub-seed; budgets count nodes, not seconds, so the answer never depends on
  the machine's speed.
* :func:`daily_seed` - one seed per game per UTC day, so everyone gets the same
  daily puzzle.

Every generator returns a plain dict (board, seed, distance/pours, optimal),
ready for JSON. Pure library code: nothing here knows about the web.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import random
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

from .core.errors import BoardError
from .core.seeds import MAX_SEED, check_seed, daily_seed, sub_seed
from .klotski.levels import PACKS as KLOTSKI_PACKS, klotski_daily, klotski_levels

NPUZZLE_SIZES = (3, 4, 5)
MAX_WALK = {3: 31, 4: 80, 5: 120}          # 31 is the 8-puzzle's diameter
WALK_TRIES = 40
FIFTEEN_PROOF_NODES = 200_000

WATERSORT_COLOURS = (3, 14)
WATERSORT_CAPACITY = (3, 6)
WATERSORT_EMPTY = (1, 3)
WATERSORT_TRIES = 1000            # one-empty-tube deals are mostly unsolvable (cheap to prove)
WATERSORT_NODES = 60_000         # per deal
WATERSORT_TOTAL_NODES = 2_000_000

def _check_range(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BoardError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


# -- N-puzzle ------------------------------------------------------------------

_by_distance: Dict[int, List[int]] = {}


def _eight_puzzle_layers() -> Dict[int, List[int]]:
    """Packed 3x3 positions grouped by distance, each group sorted so choices are stable."""
    if not _by_distance:
        from .npuzzle.table import distances
        layers: Dict[int, List[int]] = {}
        for packed, d in distances().items():
            layers.setdefault(d, []).append(packed)
        for group in layers.values():
            group.sort()
        _by_distance.update(layers)
    return _by_distance


def _unpack(packed: int, cells: int) -> Tuple[int, ...]:
    return tuple((packed >> (4 * i)) & 15 for i in range(cells))


def npuzzle_max_distance(size: int) -> int:
    """The largest distance offered for ``size`` (exact diameter on 3x3)."""
    return MAX_WALK[_check_range("size", size, NPUZZLE_SIZES[0], NPUZZLE_SIZES[-1])]


def npuzzle_at_distance(size: int, distance: int, seed: int) -> dict:
    """An N-puzzle about ``distance`` moves from solved, the same for the same arguments.

    Returns {game, board, size, distance, optimal, seed}: ``distance`` is the
    proven shortest solution when ``optimal`` is True, else an upper bound.
    """
    size = _check_range("size", size, NPUZZLE_SIZES[0], NPUZZLE_SIZES[-1])
    distance = _check_range("distance", distance, 1, MAX_WALK[size])
    seed = check_seed(seed)
    if size == 3:
        group = _eight_puzzle_layers()[distance]
        state = _unpack(random.Random(sub_seed("npuzzle", 3, distance, seed)).choice(group), 9)
        found = (state, distance, True)
    else:
        found = _walked_position(size, distance, seed)
    state, length, optimal = found
    return {"game": "npuzzle", "board": " ".join(map(str, state)), "size": size,
            "distance": length, "optimal": optimal, "seed": seed}


def _walked_position(size: int, distance: int, seed: int):
    """(state, bound, proven) from heuristic-guided walks; the first proven exact one wins."""
    from .npuzzle.domain import manhattan_conflicts
    fallback = None
    for attempt in range(WALK_TRIES):
        rng = random.Random(sub_seed("npuzzle", size, distance, seed, attempt))
        state = _walk(size, distance, rng)
        if manhattan_conflicts(state) >= distance:
            return state, distance, True      # lower bound meets the walk: exact
        if fallback is None:
            fallback = state
    bound, proven = _bound(fallback, distance)
    return fallback, bound, proven


def _walk(size: int, length: int, rng: random.Random) -> Tuple[int, ...]:
    """``length`` slides from the goal, preferring slides that raise the lower bound."""
    from .npuzzle.domain import goal_state, manhattan_conflicts, neighbours
    around = neighbours(size)
    board = list(goal_state(size))
    blank, previous = len(board) - 1, -1
    for _ in range(length):
        scored = []
        for cell, _way in around[blank]:
            if cell == previous:
                continue
            board[blank], board[cell] = board[cell], 0
            scored.append((manhattan_conflicts(board), cell))
            board[cell], board[blank] = board[blank], 0
        top = max(score for score, _ in scored)
        cell = rng.choice([c for score, c in scored if score == top])
        board[blank], board[cell] = board[cell], 0
        previous, blank = blank, cell
    return tuple(board)


def _bound(state: Tuple[int, ...], walked: int) -> Tuple[int, bool]:
    """The best proven or upper-bound distance of ``state`` within a small node budget."""
    from .core.results import SOLVED, Budget
    if len(state) == 16:
        from .npuzzle.pdb import ida_star_fifteen
        result = ida_star_fifteen(state, budget=Budget(max_nodes=FIFTEEN_PROOF_NODES))
        if result.status == SOLVED and result.optimal:
            return result.length, True
    from .npuzzle.reduce import reduction_cells
    return min(walked, len(reduction_cells(state))), False


# -- water sort ---------------------------------------------------------------

def watersort_level(colours: int, capacity: int, empty: int, seed: int) -> dict:
    """A deal proven solvable, with its fewest pours; the same for the same arguments.

    Returns {game, board, colours, capacity, empty, pours, optimal, seed, attempt}.
    Raises BoardError when no deal of the first few sub-seeds could be proven.
    """
    return dict(_watersort_level(colours, capacity, empty, seed))


@lru_cache(maxsize=256)
def _watersort_level(colours, capacity, empty, seed) -> dict:
    from .core.results import SOLVED, Budget
    from .watersort.domain import WaterSort
    from .watersort.deals import deal
    colours = _check_range("colours", colours, *WATERSORT_COLOURS)
    capacity = _check_range("capacity", capacity, *WATERSORT_CAPACITY)
    empty = _check_range("empty", empty, *WATERSORT_EMPTY)
    seed = check_seed(seed)
    domain = WaterSort(capacity)
    spent = 0
    for attempt in range(WATERSORT_TRIES):
        board = deal(colours, capacity, empty, sub_seed("watersort", seed, attempt))
        result = domain.solve(domain.parse(board), budget=Budget(max_nodes=WATERSORT_NODES))
        spent += result.nodes
        if result.status == SOLVED and result.optimal and result.length > 0:
            return {"game": "watersort", "board": board, "colours": colours,
                    "capacity": capacity, "empty": empty, "pours": result.length,
                    "optimal": True, "seed": seed, "attempt": attempt}
        if spent > WATERSORT_TOTAL_NODES:
            break
    raise BoardError(f"no deal of {colours} colours, capacity {capacity}, {empty} empty "
                     f"tubes could be proven solvable for seed {seed}; "
                     f"try another seed or more empty tubes")
