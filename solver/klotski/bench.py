"""Klotski's rows of ``python -m solver bench``: two famous layouts in every metric, a big
board exhausted (every position of a 1.7 M-position group measured), the classic pack, a lookup."""

from __future__ import annotations

import statistics
import time

from ..bench import (
    baseline_row,
    cancel_row,
    coach_row,
    cold_start,
    fmt,
    isolated,
    lookup_row,
    peak_mib,
    print_coach,
    print_pair,
    print_streaming,
    solver_row,
    streaming_row,
)
from ..core.baseline import GaveUp, seed_bfs
from ..engine import solve_board
from .baseline import StringKlotski
from .bench_c import EXHAUST_BOARD, print_against_c, print_whole_process, solve_row
from .hardest import hardest_report
from .levels import load
from .moves import METRICS

CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"
STAGE_138 = "GHIB/AACB/AACD/.EED/.JFF"
#: a 10x10 board with hundreds of moves per position, the worst case for noticing a cancel
WIDE_OPEN = "AA......../AA......../" + "........../" * 7 + "BCDEFGHIJK"
#: 6x5, 1,715,404 positions: the big-board level Great Wall with one small piece taken out
BIG_BOARD = ".BGF.E/JBGCCE/JBKAAE/JDDAAL/HHMM.L"


def string_baseline(board: str, options: dict) -> StringKlotski:
    """The baseline for ``board`` with the default goal (2x2 piece at the bottom centre)."""
    return StringKlotski.for_board(board, options.get("metric", "piece"))


def levels_row(boards: list[str]) -> dict:
    """Every classic level, piece metric, cold: the slowest one is the figure."""
    cold_start()
    times, optimal, moves = [], True, []
    for board in boards:
        started = time.perf_counter()
        report = solve_board("klotski", board, metric="piece")
        times.append(time.perf_counter() - started)
        optimal &= bool(report["optimal"]) or report["status"] == "unsolvable"
        moves.append(report["length"])
    return {
        "levels": len(boards),
        "max_seconds": max(times),
        "median_seconds": statistics.median(times),
        "all_optimal": optimal,
        "max_moves": max(m or 0 for m in moves),
        "peak_mib": peak_mib(),
    }


def exhaust_row(board: str, metric: str) -> dict:
    """The hardest-start search: every position of the group found and measured."""
    cold_start()
    started = time.perf_counter()
    found = hardest_report(board, metric)
    return {
        "moves": found["hardest"]["distance"],
        "optimal": True,
        "status": "solved",
        "nodes": found["positions"],
        "seconds": time.perf_counter() - started,
        "peak_mib": peak_mib(),
    }


def baseline_exhaust_row(board: str, metric: str, max_seconds: float) -> dict:
    """The string baseline enumerating the same group (no goal: it runs until exhausted)."""
    solver = string_baseline(board, {"metric": metric})
    started = time.perf_counter()
    try:
        _path, nodes = seed_bfs(
            solver.start,
            solver.successors,
            lambda pos: False,
            solver.canonical,
            max_seconds=max_seconds,
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


def rows(args) -> None:
    for board, label in ((CLASSIC, "klotski classic"), (STAGE_138, "klotski 138-move")):
        for metric in METRICS:
            ours = isolated(solver_row, "klotski", board, {"metric": metric})
            base = isolated(
                baseline_row, string_baseline, board, {"metric": metric}, args.baseline_seconds
            )
            print_pair(f"{label} ({metric}) {board}", ours, base)
    ours = isolated(exhaust_row, BIG_BOARD, "piece")
    base = isolated(baseline_exhaust_row, BIG_BOARD, "piece", args.baseline_seconds)
    print_pair(f"klotski big board exhausted {BIG_BOARD}", ours, base)
    print(f"klotski hardest start of that group: {ours['seconds']:.2f} s (target within 5 s)")
    ours = isolated(solve_row, EXHAUST_BOARD, "piece")
    print_against_c(
        f"klotski solve, 6x5 group exhausted {EXHAUST_BOARD}", ours, EXHAUST_BOARD, "piece"
    )
    print_whole_process(
        f"klotski CLI as a whole process, 6x5 group exhausted {EXHAUST_BOARD}",
        EXHAUST_BOARD,
        "piece",
        repeat=2 if args.quick else 3,
    )
    boards = [level["board"] for level in load("klotski-classic")["levels"]]
    if boards:
        row = isolated(levels_row, boards)
        print(
            f"klotski: {row['levels']} classic levels, piece metric, cold: slowest "
            f"{row['max_seconds']:.3f} s, median {row['median_seconds']:.3f} s, all optimal "
            f"{fmt(row['all_optimal'])}, longest {row['max_moves']} moves, peak "
            f"{row['peak_mib']:.0f} MiB"
        )
    print_streaming(
        f"klotski classic, bfs by name {CLASSIC}",
        isolated(streaming_row, "klotski", CLASSIC, {"metric": "piece"}, "bfs"),
    )
    row = isolated(lookup_row, "klotski", [CLASSIC, STAGE_138], {"metric": "piece"})
    print(
        f"klotski level table (piece): first analyse builds it in {row['build_seconds']:.3f} s; "
        f"then distance + best move in {row['lookup_ms']:.3f} ms, whole optimal solution in "
        f"{row['solve_ms']:.3f} ms (distances {row['distances']})"
    )
    classic = solve_board("klotski", CLASSIC, metric="piece")["states"]
    print_coach(
        "klotski (piece, every level's start and the classic's solution)",
        isolated(coach_row, "klotski", boards + classic, {"metric": "piece"}),
    )
    row = isolated(cancel_row, "klotski", WIDE_OPEN, {"metric": "piece"})
    print(
        f"klotski cancel: a search on a wide-open 10x10 board ({row['status']}) returned "
        f"{fmt(row['stop_ms'], '.1f')} ms after its cancel (the promise: under 100 ms)"
    )
