"""Random water-sort deals, for the benchmark, the tests and level generation."""

from __future__ import annotations

import random
import time
from collections.abc import Iterable

from solver.core.text import N_

from ..core.errors import BoardError
from ..core.results import Budget
from .domain import WaterSort
from .rules import COLOURS, MAX_CAPACITY, MAX_TUBES


def random_deal(colours: int, capacity: int = 4, empty: int = 2, seed: int | None = None) -> str:
    """Shuffle ``colours * capacity`` units into ``colours`` full tubes, add ``empty`` empty ones.

    Colours are named A..Z, then 0..9, then a..z, in that order, so a deal of
    up to 36 colours uses uppercase letters and digits only.
    """
    for name, value in (("colours", colours), ("capacity", capacity), ("empty", empty)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise BoardError(N_("%(name)s must be a whole number"), name=name)
    if not 1 <= colours <= len(COLOURS):
        raise BoardError(
            N_("colours must be 1 to %(max)s, not %(count)s"), max=len(COLOURS), count=colours
        )
    if not 1 <= capacity <= MAX_CAPACITY:
        raise BoardError(
            N_("capacity %(capacity)s is out of range; use 1 to %(max)s"),
            capacity=capacity,
            max=MAX_CAPACITY,
        )
    if empty < 0 or colours + empty > MAX_TUBES:
        raise BoardError(
            N_("%(count)s tubes is too many; the limit is %(limit)s"),
            count=colours + empty,
            limit=MAX_TUBES,
        )
    rng = random.Random(seed)
    units: list[str] = [c for c in COLOURS[:colours] for _ in range(capacity)]
    rng.shuffle(units)
    tubes = ["".join(units[i : i + capacity]) for i in range(0, len(units), capacity)]
    return ",".join(tubes + [""] * empty)


def bench(
    colour_counts: Iterable[int] = (6, 9, 12, 14),
    deals: int = 20,
    capacity: int = 4,
    empty: int = 2,
    seconds: float = 10.0,
    report=print,
) -> list[dict]:
    """Solve ``deals`` seeded deals per colour count; one row per deal, plus a summary line.

    Each row: colours, seed, status, optimal, length, nodes, seconds. Seeds are
    0..deals-1, so runs are repeatable.
    """
    domain = WaterSort(capacity)
    rows = []
    for colours in colour_counts:
        times, nodes = [], []
        for seed in range(deals):
            board = random_deal(colours, capacity, empty, seed)
            state = domain.parse(board)
            started = time.perf_counter()
            result = domain.solve(state, budget=Budget(max_seconds=seconds))
            took = time.perf_counter() - started
            rows.append(
                {
                    "colours": colours,
                    "seed": seed,
                    "board": board,
                    "status": result.status,
                    "optimal": result.optimal,
                    "length": result.length if result.solved else None,
                    "nodes": result.nodes,
                    "seconds": round(took, 3),
                }
            )
            times.append(took)
            nodes.append(result.nodes)
        times.sort()
        nodes.sort()
        mine = [r for r in rows if r["colours"] == colours]
        proven = sum(1 for r in mine if r["optimal"])
        median = times[len(times) // 2]
        report(
            f"watersort {colours} colours: {deals} deals, median {median:.3f} s, "
            f"max {times[-1]:.3f} s, median nodes {nodes[len(nodes) // 2]}, "
            f"max nodes {nodes[-1]}, proven {proven}/{deals}"
        )
    return rows
