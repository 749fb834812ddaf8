"""What a pack records about a level beyond its length: its group and its traps.

``group``: how many positions the level's reachable set has and how far its
farthest position is in each metric, so the lobby can say whether the level is
the hardest start of its group. ``traps``: along the shortest solution the
solver plays, how many positions have a single best move (one next position
one move closer); a long solution with many forced moves is harder than its
length alone says.
"""

from __future__ import annotations

from ..core.results import Monitor
from .domain import Klotski
from .moves import METRICS
from .tables import DistanceTable, build_table, remember


def trap_count(domain: Klotski, state, table: DistanceTable) -> int:
    """Positions on the solver's shortest solution from ``state`` with one best move.

    Moves that lead to the same canonical position (interchangeable pieces)
    count once: they are one choice for the player.
    """
    dist = table.distance
    traps = 0
    for here in domain.solve(state).states[:-1]:
        closer = dist[domain.key(here)] - 1
        best = {
            domain.key(nxt)
            for _move, nxt in domain.moves(here)
            if dist.get(domain.key(nxt)) == closer
        }
        traps += len(best) == 1
    return traps


def grade(board: str, goal: str | None = None) -> dict[str, dict]:
    """{"moves", "traps", "group": {"positions", "farthest"}}, each metric keyed by name.

    Raises ValueError for a level with no solution (a pack level must have one).
    """
    moves, traps, farthest, positions = {}, {}, {}, 0
    for metric in METRICS:
        domain = Klotski(metric, goal)
        state = domain.parse(board)
        table = build_table(state.layout, domain.key(state), metric, Monitor(), limit=None)
        remember(table, pin=False)  # the solve below walks this table
        distance = table.distance[domain.key(state)]
        if distance < 0:
            raise ValueError(f"{board}: no solution; a pack level must have one")
        moves[metric] = distance
        traps[metric] = trap_count(domain, state, table)
        farthest[metric] = max(table.distance.values())
        positions = len(table)
    return {"moves": moves, "traps": traps, "group": {"positions": positions, "farthest": farthest}}
