"""Seeded small Klotski boards with a proven fewest number of moves: the races' Klotski.

A board of 3 or 4 rows and columns (:data:`SHAPES`) with the 2x2 goal piece and a
few small pieces, placed by the seed. Its whole group (every position its moves
reach) is searched exactly (:func:`~solver.klotski.tables.build_table`: breadth-first
from every solved position), so every member's distance is proven; a member exactly
``moves`` away is picked. A group too shallow is left for the next sub-seed's
placement; after :data:`TRIES`, the farthest member found under ``moves``.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..core.errors import BoardError
from ..core.results import Monitor
from ..core.seeds import check_range, check_seed, sub_seed
from ..core.text import N_
from .board import format_board, parse_board
from .moves import METRICS, state_key
from .placements import label_key
from .tables import build_table

#: the fewest moves a generated board asks for, and the most
MOVES = (1, 30)
#: (rows, columns, the pieces beside the 2x2 goal piece as (height, width)): each
#: leaves two cells free, and no group has more than a few thousand positions
SHAPES = (
    (4, 3, ((2, 1), (1, 1), (1, 1), (1, 2))),
    (3, 4, ((2, 1), (1, 1), (1, 1), (1, 2))),
    (4, 4, ((2, 1), (2, 1), (1, 2), (1, 1), (1, 1), (1, 1), (1, 1))),
)
LABELS = "BCDEFGHIJ"
#: placements tried for one seed
TRIES = 40
#: a group bigger than this is not searched (none of :data:`SHAPES` comes near)
MAX_GROUP = 200_000


def random_board(rng: random.Random, rows: int, columns: int, pieces: tuple) -> str | None:
    """The goal piece ``A`` and ``pieces`` at random free spots (None: one did not fit)."""
    grid = [["."] * columns for _ in range(rows)]
    for label, (high, wide) in zip("A" + LABELS, ((2, 2), *pieces), strict=False):
        spots = [
            (r, c)
            for r in range(rows - high + 1)
            for c in range(columns - wide + 1)
            if all(grid[r + i][c + j] == "." for i in range(high) for j in range(wide))
        ]
        if not spots:
            return None
        r, c = rng.choice(spots)
        for i in range(high):
            for j in range(wide):
                grid[r + i][c + j] = label
    return "/".join("".join(row) for row in grid)


def klotski_puzzle(moves: int, seed: int, metric: str = "piece") -> dict:
    """A small board ``moves`` away from solved in ``metric`` (or, where no placement
    tried lies that far, the farthest found below it); the same for the same arguments.

    Returns {board, metric, moves, positions, optimal}. Raises BoardError for bad
    arguments.
    """
    if metric not in METRICS:
        raise BoardError(N_("metric must be one of %(metrics)s"), metrics=", ".join(METRICS))
    return dict(_klotski_puzzle(check_range("moves", moves, *MOVES), check_seed(seed), metric))


@lru_cache(maxsize=256)
def _klotski_puzzle(moves: int, seed: int, metric: str) -> dict:
    best: tuple[int, str, int] | None = None
    for attempt in range(TRIES):
        rng = random.Random(sub_seed(seed, attempt))
        rows, columns, pieces = SHAPES[rng.randrange(len(SHAPES))]
        board = random_board(rng, rows, columns, pieces)
        if board is None:
            continue
        state = parse_board(board)
        table = build_table(
            state.layout, state_key(state), metric, Monitor(), limit=MAX_GROUP, packed=False
        )
        distance = table.distance
        exact = sorted(key for key, d in distance.items() if d == moves)
        if exact:
            found = format_board(label_key(state.layout, rng.choice(exact)))
            return _made(found, metric, moves, len(distance))
        under = [(d, key) for key, d in distance.items() if 0 < d < moves]
        if under:
            far, key = max(under)
            if best is None or far > best[0]:
                best = (far, format_board(label_key(state.layout, key)), len(distance))
    if best is None:
        raise BoardError(N_("no Klotski board found for this seed"))
    far, board, positions = best
    return _made(board, metric, far, positions)


def _made(board: str, metric: str, moves: int, positions: int) -> dict:
    return {
        "board": board,
        "metric": metric,
        "moves": moves,
        "positions": positions,
        "optimal": True,
    }
