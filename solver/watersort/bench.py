"""Water sort's rows of ``python -m solver bench``: random deals by size, and the baseline."""

from __future__ import annotations

import statistics
import time

from ..bench import (
    baseline_row,
    coach_row,
    cold_start,
    fmt,
    isolated,
    peak_mib,
    print_coach,
    print_pair,
    solver_row,
)
from ..engine import solve_board
from .baseline import StringWaterSort
from .deals import random_deal


def string_baseline(board: str, options: dict) -> StringWaterSort:
    return StringWaterSort(board, options.get("capacity", 4))


def deals_row(colours: int, deals: int, seed0: int) -> dict:
    """Random deals with 2 empty tubes; only deals the solver proves solvable count."""
    cold_start()
    times, lengths, nodes, optimal, unsolvable, gave_up = [], [], [], True, 0, 0
    for seed in range(seed0, seed0 + deals):
        board = random_deal(colours, capacity=4, empty=2, seed=seed)
        started = time.perf_counter()
        report = solve_board("watersort", board, capacity=4)
        seconds = time.perf_counter() - started
        if report["status"] == "unsolvable":
            unsolvable += 1
            continue
        times.append(seconds)
        nodes.append(report["stats"]["nodes"])
        if report["status"] != "solved":
            gave_up += 1
            continue
        lengths.append(report["length"])
        optimal &= bool(report["optimal"])
    return {
        "colours": colours,
        "solved": len(lengths),
        "unsolvable": unsolvable,
        "gave_up": gave_up,
        "median_seconds": statistics.median(times) if times else None,
        "max_seconds": max(times) if times else None,
        "max_nodes": max(nodes) if nodes else 0,
        "all_optimal": optimal,
        "median_moves": statistics.median(lengths) if lengths else None,
        "peak_mib": peak_mib(),
        "first_board": random_deal(colours, 4, 2, seed0),
    }


def rows(args) -> None:
    deals = args.deals or (3 if args.quick else 10)
    sizes = (6, 9, 14) if args.quick else (6, 9, 12, 14)
    for colours in sizes:
        row = isolated(deals_row, colours, deals, 1)
        print(
            f"water-sort {colours:>2} colours, 2 empty, {deals} deals: solved {row['solved']} "
            f"(all optimal {fmt(row['all_optimal'])}), unsolvable {row['unsolvable']}, gave up "
            f"{row['gave_up']}; median {fmt(row['median_seconds'], '.3f')} s, max "
            f"{fmt(row['max_seconds'], '.3f')} s, max nodes {row['max_nodes']:,}, median "
            f"{fmt(row['median_moves'])} pours, peak {row['peak_mib']:.0f} MiB"
        )
    for colours in (4, 6) if args.quick else (4, 6, 9):
        board = random_deal(colours, capacity=4, empty=2, seed=1)
        ours = isolated(solver_row, "watersort", board, {"capacity": 4})
        base = isolated(
            baseline_row, string_baseline, board, {"capacity": 4}, args.baseline_seconds
        )
        print_pair(f"water-sort {colours} colours seed 1", ours, base)
    for colours in (6, 9):
        board = random_deal(colours, capacity=4, empty=2, seed=1)
        states = solve_board("watersort", board, capacity=4)["states"]
        print_coach(
            f"water-sort {colours} colours seed 1 (every position of its solution)",
            isolated(coach_row, "watersort", states, {"capacity": 4}, 3),
        )


def arguments(parser) -> None:
    """Water sort's own flag of the ``bench`` command."""
    parser.add_argument(
        "--deals",
        type=int,
        default=None,
        help="water-sort deals per size (default 10, quick 3)",
    )
