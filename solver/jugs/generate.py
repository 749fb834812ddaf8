"""Seeded jug puzzles with a proven fewest number of pours: the races' small jugs.

Three jugs, the largest full and the others empty (Tartaglia's shape), capacities
drawn by the seed; the goal asks one jug for some litres (``*,4,*``). Every state
the start reaches is searched breadth-first (a few hundred at most), so the
distance of every one-jug goal is exact: a goal is picked among those exactly
``pours`` away. Few capacity sets reach the longest lengths; the next sub-seed's
set is tried, and after :data:`TRIES` the farthest goal found under ``pours``.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..core.errors import BoardError
from ..core.seeds import check_range, check_seed, sub_seed
from ..core.text import N_
from .rules import format_goal, format_jugs, pour

#: the fewest pours a generated puzzle asks for, and the most
POURS = (1, 16)
#: capacities of the two empty jugs, and the most the full one holds
SMALL, MIDDLE, LARGEST = (2, 7), (3, 11), 16
#: capacity sets tried for one seed
TRIES = 60


def reachable(start: tuple[int, ...], capacities: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Every state ``start`` reaches, with its fewest pours (breadth-first)."""
    depth = {start: 0}
    layer = [start]
    while layer:
        following = []
        for state in layer:
            for src in range(len(state)):
                for dst in range(len(state)):
                    after = pour(state, capacities, src, dst)
                    if after is not None and after not in depth:
                        depth[after] = depth[state] + 1
                        following.append(after)
        layer = following
    return depth


def goal_distances(start: tuple[int, ...], capacities: tuple[int, ...]) -> dict[tuple, int]:
    """For every one-jug goal ``(jug, litres)`` not met at the start: its fewest pours."""
    found: dict[tuple, int] = {}
    for state, pours in reachable(start, capacities).items():
        for jug, held in enumerate(state):
            if held != start[jug] and pours < found.get((jug, held), pours + 1):
                found[(jug, held)] = pours
    return found


def jugs_puzzle(pours: int, seed: int) -> dict:
    """A puzzle whose fewest pours is ``pours`` (or, where no capacity set tried reaches
    that many, the most found below it); the same for the same arguments.

    Returns {board, goal, pours, optimal}. Raises BoardError for bad arguments.
    """
    return dict(_jugs_puzzle(check_range("pours", pours, *POURS), check_seed(seed)))


@lru_cache(maxsize=256)
def _jugs_puzzle(pours: int, seed: int) -> dict:
    best: tuple[int, tuple, tuple, tuple] | None = None
    for attempt in range(TRIES):
        rng = random.Random(sub_seed(seed, attempt))
        small = rng.randint(*SMALL)
        middle = rng.randint(max(small + 1, MIDDLE[0]), MIDDLE[1])
        capacities = (small, middle, rng.randint(middle + 1, LARGEST))
        start = (0, 0, capacities[2])
        goals = goal_distances(start, capacities)
        exact = sorted(goal for goal, d in goals.items() if d == pours)
        if exact:
            return _made(start, capacities, rng.choice(exact), pours)
        under = [(d, goal) for goal, d in goals.items() if d < pours]
        if under:
            far, goal = max(under)
            if best is None or far > best[0]:
                best = (far, start, capacities, goal)
    if best is None:  # every set tried reaches a one-pour goal: never happens
        raise BoardError(N_("no jugs puzzle found for this seed"))
    far, start, capacities, goal = best
    return _made(start, capacities, goal, far)


def _made(start: tuple, capacities: tuple, goal: tuple, pours: int) -> dict:
    jug, litres = goal
    wanted = tuple(litres if i == jug else None for i in range(len(capacities)))
    return {
        "board": format_jugs(start, capacities),
        "goal": format_goal(wanted),
        "pours": pours,
        "optimal": True,
    }
