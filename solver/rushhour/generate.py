"""Seeded Rush Hour puzzles of a proven length: the ladder's, streak's, storm's and races'.

A shipped level's cluster holds positions at every distance from its farthest down
to solved, each distance exact (the cluster's table). A puzzle ``moves`` long is one
of them: the seed picks a level whose cluster reaches that far (a small one, so its
table is built in milliseconds and kept), then one of its positions exactly
``moves`` slides from solved.
"""

from __future__ import annotations

import random

from ..core.results import Monitor
from ..core.seeds import check_range, check_seed, sub_seed
from .board import RushState, format_board, parse_board
from .levels import rushhour_levels
from .moves import pack, unpack
from .tables import table_for

#: the fewest slides a generated puzzle asks for, and the most (the longest level's)
MOVES = (1, 51)
#: the largest cluster a puzzle is drawn from
MAX_POSITIONS = 10_000


def sources(moves: int) -> list[dict]:
    """The levels whose clusters reach ``moves`` and are small enough to draw from."""
    return [
        level
        for level in rushhour_levels()
        if level["group"]["farthest"] >= moves and level["group"]["positions"] <= MAX_POSITIONS
    ]


def rushhour_puzzle(moves: int, seed: int) -> dict:
    """{board, moves, level}: a position ``moves`` slides from solved, the same for one
    seed; ``level`` names the level whose cluster it is from."""
    check_range("moves", moves, *MOVES)
    rnd = random.Random(sub_seed("rushhour", check_seed(seed), moves))
    found = sources(moves)
    level = found[rnd.randrange(len(found))]
    state = parse_board(level["board"])
    table = table_for(state.layout, pack(state.offsets), Monitor())
    keys = sorted(key for key, d in table.distance.items() if d == moves)
    key = keys[rnd.randrange(len(keys))]
    board = format_board(RushState(state.layout, unpack(key, len(state.layout))))
    return {"board": board, "moves": moves, "level": level["name"]}
