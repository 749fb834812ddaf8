"""Seeded N-puzzles a chosen number of moves from solved, graded by the solver.

On 3x3 the full distance table picks a position at exactly that distance. On
larger boards a heuristic-guided walk from the goal gives an upper bound (the
walk undone); it is proven exact when the admissible lower bound equals it, or
(4x4) when a short optimal search agrees. The same seed always gives the same
puzzle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.results import SOLVED, Budget
from ..core.seeds import check_range, check_seed, sub_seed
from .rules import goal_state, manhattan_conflicts, neighbours
from .table import distances

if TYPE_CHECKING:  # random is imported by a generation, not by every import of the game
    import random

SIZES = (3, 4, 5)
MAX_WALK = {3: 31, 4: 80, 5: 120}  # 31 is the 8-puzzle's diameter
WALK_TRIES = 40
FIFTEEN_PROOF_NODES = 200_000


_by_distance: dict[int, list[int]] = {}


def _eight_puzzle_layers() -> dict[int, list[int]]:
    """Packed 3x3 positions grouped by distance, each group sorted so choices are stable."""
    if not _by_distance:
        layers: dict[int, list[int]] = {}
        for packed, d in distances().items():
            layers.setdefault(d, []).append(packed)
        for group in layers.values():
            group.sort()
        _by_distance.update(layers)
    return _by_distance


def _unpack(packed: int, cells: int) -> tuple[int, ...]:
    return tuple((packed >> (4 * i)) & 15 for i in range(cells))


def npuzzle_max_distance(size: int) -> int:
    """The largest distance offered for ``size`` (exact diameter on 3x3)."""
    return MAX_WALK[check_range("size", size, SIZES[0], SIZES[-1])]


def npuzzle_at_distance(size: int, distance: int, seed: int) -> dict:
    """An N-puzzle about ``distance`` moves from solved, the same for the same arguments.

    Returns {game, board, size, distance, optimal, seed}: ``distance`` is the
    proven shortest solution when ``optimal`` is True, else an upper bound.
    """
    import random

    size = check_range("size", size, SIZES[0], SIZES[-1])
    distance = check_range("distance", distance, 1, MAX_WALK[size])
    seed = check_seed(seed)
    if size == 3:
        group = _eight_puzzle_layers()[distance]
        state = _unpack(random.Random(sub_seed("npuzzle", 3, distance, seed)).choice(group), 9)
        found = (state, distance, True)
    else:
        found = _walked_position(size, distance, seed)
    state, length, optimal = found
    return {
        "game": "npuzzle",
        "board": " ".join(map(str, state)),
        "size": size,
        "distance": length,
        "optimal": optimal,
        "seed": seed,
    }


def _walked_position(size: int, distance: int, seed: int):
    """(state, bound, proven) from heuristic-guided walks; the first proven exact one wins."""
    import random

    fallback: tuple[int, ...] | None = None
    for attempt in range(WALK_TRIES):
        rng = random.Random(sub_seed("npuzzle", size, distance, seed, attempt))
        state = _walk(size, distance, rng)
        if manhattan_conflicts(state) >= distance:
            return state, distance, True  # lower bound meets the walk: exact
        if fallback is None:
            fallback = state
    assert fallback is not None, "WALK_TRIES is at least one"
    bound, proven = _bound(fallback, distance)
    return fallback, bound, proven


def _walk(size: int, length: int, rng: random.Random) -> tuple[int, ...]:
    """``length`` slides from the goal, preferring slides that raise the lower bound."""
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


def _bound(state: tuple[int, ...], walked: int) -> tuple[int, bool]:
    """The best proven or upper-bound distance of ``state`` within a small node budget."""
    # 4x4 and up only: an 8-puzzle call imports neither search
    from .pdb import ida_star_fifteen
    from .reduce import reduction_cells

    if len(state) == 16:
        result = ida_star_fifteen(state, budget=Budget(max_nodes=FIFTEEN_PROOF_NODES))
        if result.status == SOLVED and result.optimal:
            return result.length, True
    return min(walked, len(reduction_cells(state))), False
