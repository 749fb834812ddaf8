"""Rush Hour's rows of ``python -m solver bench``: a whole cluster searched (every position
found and measured) against a plain Python breadth-first search, two famous puzzles
solved, and the hardest start over every placement of the 51-move puzzle's vehicles."""

from __future__ import annotations

import time

from ..bench import baseline_row, cold_start, isolated, peak_mib, print_pair, solver_row
from ..core.baseline import GaveUp, seed_bfs
from .baseline import StringRushHour
from .hardest import hardest_report

#: 51 moves, the hardest start without walls; 60 moves, the hardest of all (walls)
HARDEST_51 = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
HARDEST_60 = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"
#: 15 moves in a cluster of 541,934 positions (fogleman/rush, cpp/src/main.cpp)
BIG_CLUSTER = "BBoCoooDoCEEoDAAFGHoIIFGHoJKKoLLJooo"
#: 30 moves in a cluster of 17,039 positions (Fogleman's database), for --quick
SMALL_CLUSTER = "BBoLooxJoLDDIJAAMNIEEoMNooKFFNGGKHHo"


def string_baseline(board: str, options: dict) -> StringRushHour:
    return StringRushHour(board)


def cluster_row(board: str) -> dict:
    """The hardest-start search of one cluster: every position found, then measured."""
    cold_start()
    started = time.perf_counter()
    found = hardest_report(board)
    return {
        "moves": found["group_hardest"]["distance"],
        "optimal": True,
        "status": "solved",
        "nodes": found["positions"],
        "seconds": time.perf_counter() - started,
        "peak_mib": peak_mib(),
    }


def baseline_cluster_row(board: str, max_seconds: float) -> dict:
    """The string baseline enumerating the same cluster (no goal: it runs until exhausted)."""
    model = StringRushHour(board)
    started = time.perf_counter()
    try:
        _path, nodes = seed_bfs(
            model.start, model.successors, lambda pos: False, max_seconds=max_seconds
        )
        status = "solved"
    except GaveUp as exc:
        nodes, status = exc.nodes, "gave up"
    return {
        "moves": None,
        "optimal": False,
        "status": status,
        "nodes": nodes,
        "seconds": time.perf_counter() - started,
        "peak_mib": peak_mib(),
    }


def placements_row(board: str) -> dict:
    cold_start()
    started = time.perf_counter()
    found = hardest_report(board, placements=True)
    return {
        "distance": found["hardest"]["distance"],
        "placements": found["placements"],
        "groups": found["groups"],
        "seconds": time.perf_counter() - started,
        "peak_mib": peak_mib(),
    }


def rows(args) -> None:
    board = SMALL_CLUSTER if args.quick else BIG_CLUSTER
    ours = isolated(cluster_row, board)
    base = isolated(baseline_cluster_row, board, args.baseline_seconds)
    print_pair(f"rushhour cluster exhausted {board}", ours, base)
    for board, label in ((HARDEST_51, "rushhour 51-move"), (HARDEST_60, "rushhour 60-move")):
        ours = isolated(solver_row, "rushhour", board, {})
        base = isolated(baseline_row, string_baseline, board, {}, args.baseline_seconds)
        print_pair(f"{label} {board}", ours, base)
    if not args.quick:
        row = isolated(placements_row, HARDEST_51)
        print(
            f"rushhour hardest over every placement of the 51-move puzzle's vehicles: "
            f"{row['distance']} moves, {row['placements']:,} placements in "
            f"{row['groups']:,} clusters, {row['seconds']:.1f} s, peak {row['peak_mib']:.0f} MiB"
        )
