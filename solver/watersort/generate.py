"""Seeded water-sort deals the solver proved solvable, with their fewest pours.

Unsolvable or undecided deals are skipped by trying the next sub-seed; budgets
count nodes, not seconds, so the answer never depends on the machine's speed.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import BoardError
from ..core.results import SOLVED, Budget
from ..core.seeds import check_range, check_seed, sub_seed
from .deals import random_deal
from .domain import WaterSort

COLOURS = (3, 14)
CAPACITY = (3, 6)
EMPTY = (1, 3)
TRIES = 1000  # one-empty-tube deals are mostly unsolvable (cheap to prove)
NODES = 60_000  # per deal
TOTAL_NODES = 2_000_000


def watersort_level(colours: int, capacity: int, empty: int, seed: int) -> dict:
    """A deal proven solvable, with its fewest pours; the same for the same arguments.

    Returns {game, board, colours, capacity, empty, pours, optimal, seed, attempt}.
    Raises BoardError when no deal of the first few sub-seeds could be proven.
    """
    return dict(_watersort_level(colours, capacity, empty, seed))


@lru_cache(maxsize=256)
def _watersort_level(colours, capacity, empty, seed) -> dict:
    colours = check_range("colours", colours, *COLOURS)
    capacity = check_range("capacity", capacity, *CAPACITY)
    empty = check_range("empty", empty, *EMPTY)
    seed = check_seed(seed)
    domain = WaterSort(capacity)
    spent = 0
    for attempt in range(TRIES):
        board = random_deal(colours, capacity, empty, sub_seed("watersort", seed, attempt))
        result = domain.solve(domain.parse(board), budget=Budget(max_nodes=NODES))
        spent += result.nodes
        if result.status == SOLVED and result.optimal and result.length > 0:
            return {
                "game": "watersort",
                "board": board,
                "colours": colours,
                "capacity": capacity,
                "empty": empty,
                "pours": result.length,
                "optimal": True,
                "seed": seed,
                "attempt": attempt,
            }
        if spent > TOTAL_NODES:
            break
    raise BoardError(
        f"no deal of {colours} colours, capacity {capacity}, {empty} empty "
        f"tubes could be proven solvable for seed {seed}; "
        f"try another seed or more empty tubes"
    )
