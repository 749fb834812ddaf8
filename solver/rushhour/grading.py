"""What a pack records about a level: its proven length, its traps and its cluster.

``moves``: the level's distance to solved, exact (its cluster's distance table).
``traps``: along the shortest solution the solver plays, how many positions have a
single best move (one next position one move closer); a long solution with many
forced moves is harder than its length says. ``group``: how many positions the
cluster has and how far its farthest is; a level is the hardest start of its
cluster when that equals ``moves``.
"""

from __future__ import annotations

from ..core.results import Monitor
from .board import parse_board
from .domain import RushHour
from .moves import pack
from .tables import build_table, remember


def grade(board: str) -> dict:
    """{"moves", "traps", "group": {"positions", "farthest"}} of ``board``; ValueError
    for a board with no solution (a pack level must have one)."""
    domain = RushHour()
    state = parse_board(board)
    table = build_table(state.layout, pack(state.offsets), Monitor(), limit=None)
    remember(table)  # the solve below walks it
    distance = table.distance[pack(state.offsets)]
    if distance < 0:
        raise ValueError(f"{board}: no solution; a pack level must have one")
    traps = 0
    for here in domain.solve(state).states[:-1]:
        closer = table.distance[pack(here.offsets)] - 1
        best = {
            pack(nxt.offsets)
            for _move, nxt in domain.moves(here)
            if table.distance[pack(nxt.offsets)] == closer
        }
        traps += len(best) == 1
    farthest = int(max(table.distance.values()))
    return {
        "moves": int(distance),
        "traps": traps,
        "group": {"positions": len(table), "farthest": farthest},
    }
