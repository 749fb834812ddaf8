"""``python -m solver bench``: the project's solver against a plain BFS baseline, in one run.

Every measurement runs in a fresh spawned process, so its peak memory (maximum
resident set size) is its own and no table built by an earlier row helps a
later one; tables are built into a fresh temporary cache folder (cold). The
baseline is :mod:`solver.baseline`: the seeds' generic breadth-first search over
string states. Ratios are baseline seconds / solver seconds, so 3.0x means the
solver took a third of the time. Absolute times drift on shared machines; the
ratios, measured side by side, are the figures to quote.
"""
from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Callable, List, Optional

from .klotski import levels as klotski_levels
from .npuzzle import levels as npuzzle_levels

CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"
STAGE_138 = "GHIB/AACB/AACD/.EED/.JFF"
HARDEST_8 = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"]


# -- helpers that run inside the measuring process ----------------------------------

def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _fresh_cache() -> None:
    os.environ["PUZZLE_ARCADE_CACHE"] = tempfile.mkdtemp(prefix="bench-cache-")


def _solver_row(puzzle: str, board: str, options: dict) -> dict:
    from .engine import solve_board
    _fresh_cache()
    started = time.perf_counter()
    report = solve_board(puzzle, board, **options)
    seconds = time.perf_counter() - started
    return {"moves": report["length"], "optimal": report["optimal"], "status": report["status"],
            "nodes": report["stats"]["nodes"], "seconds": seconds, "peak_mib": _peak_mib()}


def _baseline_row(puzzle: str, board: str, options: dict, max_seconds: float) -> dict:
    from . import baseline
    if puzzle == "klotski":
        piece, row, col = _default_goal(board)
        solver = baseline.StringKlotski(board, piece, row, col, options.get("metric", "piece"))
    elif puzzle == "npuzzle":
        solver = baseline.StringNPuzzle(board)
    else:
        solver = baseline.StringWaterSort(board, options.get("capacity", 4))
    started = time.perf_counter()
    try:
        moves, nodes = solver.solve(max_seconds=max_seconds)
        status = "solved" if moves is not None else "unsolvable"
    except baseline.GaveUp as exc:
        moves, nodes, status = None, exc.nodes, "gave up"
    seconds = time.perf_counter() - started
    return {"moves": moves, "optimal": status == "solved", "status": status, "nodes": nodes,
            "seconds": seconds, "peak_mib": _peak_mib()}


def _default_goal(board: str):
    """The 2x2 piece and the bottom-centre spot, computed without the real domain."""
    rows = board.split("/")
    h, w = len(rows), len(rows[0])
    for label in sorted(set(board) - {".", "/"}):
        cells = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == label]
        if len(cells) == 4 and len({r for r, _ in cells}) == 2:
            return label, h - 2, (w - 2) // 2
    raise ValueError("no 2x2 piece")


def _klotski_levels_row(boards: List[str]) -> dict:
    """Every classic level, piece metric, cold: the slowest one is the figure."""
    from .engine import solve_board
    _fresh_cache()
    times, optimal, moves = [], True, []
    for board in boards:
        started = time.perf_counter()
        report = solve_board("klotski", board, metric="piece")
        times.append(time.perf_counter() - started)
        optimal &= bool(report["optimal"]) or report["status"] == "unsolvable"
        moves.append(report["length"])
    return {"levels": len(boards), "max_seconds": max(times), "median_seconds":
            statistics.median(times), "all_optimal": optimal, "max_moves": max(m or 0 for m in moves),
            "peak_mib": _peak_mib()}


def _lookup_row(puzzle: str, boards: List[str], options: dict, repeat: int = 200) -> dict:
    """Build tables with a first ``analyse`` per board, then time what a player waits for.

    ``lookup_ms`` is the slowest board's mean ``analyse_board`` (parse, distance,
    best move, format) and ``solve_ms`` its mean full ``solve_board``, both with
    the tables already built.
    """
    from .engine import analyse_board, solve_board
    _fresh_cache()
    started = time.perf_counter()
    first = analyse_board(puzzle, boards[0], **options)
    build = time.perf_counter() - started
    for board in boards[1:]:
        analyse_board(puzzle, board, **options)
    lookup = solve = 0.0
    distances = []
    for board in boards:
        started = time.perf_counter()
        for _ in range(repeat):
            result = analyse_board(puzzle, board, **options)
        lookup = max(lookup, (time.perf_counter() - started) / repeat)
        distances.append(result["distance"])
        started = time.perf_counter()
        for _ in range(repeat // 10):
            solve_board(puzzle, board, **options)
        solve = max(solve, (time.perf_counter() - started) / (repeat // 10))
    return {"build_seconds": build, "lookup_ms": lookup * 1000, "solve_ms": solve * 1000,
            "distances": distances, "optimal": bool(first["optimal"]), "peak_mib": _peak_mib()}


def _watersort_row(colours: int, deals: int, seed0: int) -> dict:
    """Random deals with 2 empty tubes; only deals the solver proves solvable count."""
    from .engine import solve_board
    from .watersort.domain import random_deal
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
    return {"colours": colours, "solved": len(lengths), "unsolvable": unsolvable,
            "gave_up": gave_up, "median_seconds": statistics.median(times) if times else None,
            "max_seconds": max(times) if times else None, "max_nodes": max(nodes) if nodes else 0,
            "all_optimal": optimal, "median_moves": statistics.median(lengths) if lengths else None,
            "peak_mib": _peak_mib(), "first_board": random_deal(colours, 4, 2, seed0)}


def _fifteen_row(board: str) -> dict:
    """Plain IDA* with no budget (the engine's default budget would stop long proofs)."""
    from .npuzzle.domain import NPuzzle
    from .npuzzle.pdb import ida_star_fifteen
    domain = NPuzzle()
    state = domain.parse(board)
    started = time.perf_counter()
    result = ida_star_fifteen(state)
    seconds = time.perf_counter() - started
    # the states were replayed through the rules from the start, move by move
    reaches_goal = bool(result.states) and result.states[0] == state and \
        domain.is_goal(result.states[-1])
    return {"moves": result.length, "optimal": result.optimal, "status": result.status,
            "nodes": result.nodes, "seconds": seconds, "reaches_goal": reaches_goal}


def _isolated(fn: Callable, *args):
    """Run ``fn(*args)`` in a fresh spawned process and return its result."""
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


# -- the report ---------------------------------------------------------------------

def _fmt(value, spec: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return format(value, spec)


def _print_pair(name: str, ours: dict, base: Optional[dict]) -> None:
    ratio = ""
    if base is not None and ours["seconds"] > 0 and base["status"] == "solved":
        ratio = f"{base['seconds'] / ours['seconds']:.1f}x"
    elif base is not None:
        ratio = f">{base['seconds'] / ours['seconds']:.1f}x (baseline {base['status']})"
    for who, row in (("solver", ours), ("baseline", base)):
        if row is None:
            continue
        print(f"{name:<34} {who:<9} {_fmt(row['moves']):>6} {_fmt(row['optimal']):>7} "
              f"{_fmt(row['nodes'], ','):>11} {row['seconds']:>9.3f} {row['peak_mib']:>8.0f}  "
              f"{ratio if who == 'solver' else ''}")


def _header() -> None:
    print(f"{'board':<34} {'impl':<9} {'moves':>6} {'optimal':>7} {'nodes':>11} "
          f"{'seconds':>9} {'peak MiB':>8}  speed-up vs baseline")
    print("-" * 110)


def _classic_levels() -> List[str]:
    return [level["board"] for level in klotski_levels.load("klotski-classic")["levels"]]


def bench_klotski(args) -> None:
    for board, label in ((CLASSIC, "klotski classic"), (STAGE_138, "klotski 138-move")):
        for metric in ("piece", "step"):
            ours = _isolated(_solver_row, "klotski", board, {"metric": metric})
            base = _isolated(_baseline_row, "klotski", board, {"metric": metric},
                             args.baseline_seconds)
            _print_pair(f"{label} ({metric}) {board}", ours, base)
    boards = _classic_levels()
    if boards:
        row = _isolated(_klotski_levels_row, boards)
        print(f"klotski: {row['levels']} classic levels, piece metric, cold: slowest "
              f"{row['max_seconds']:.3f} s, median {row['median_seconds']:.3f} s, all optimal "
              f"{_fmt(row['all_optimal'])}, longest {row['max_moves']} moves, peak "
              f"{row['peak_mib']:.0f} MiB")
    row = _isolated(_lookup_row, "klotski", [CLASSIC, STAGE_138], {"metric": "piece"})
    print(f"klotski level table (piece): first analyse builds it in {row['build_seconds']:.3f} s; "
          f"then distance + best move in {row['lookup_ms']:.3f} ms, whole optimal solution in "
          f"{row['solve_ms']:.3f} ms (distances {row['distances']})")


def bench_npuzzle(args) -> None:
    row = _isolated(_lookup_row, "npuzzle", HARDEST_8, {})
    print(f"8-puzzle table: built cold in {row['build_seconds']:.3f} s; then distance + best move "
          f"in {row['lookup_ms']:.3f} ms, whole optimal solution in {row['solve_ms']:.3f} ms "
          f"(distances {row['distances']})")
    for board in HARDEST_8:
        ours = _isolated(_solver_row, "npuzzle", board, {})
        base = _isolated(_baseline_row, "npuzzle", board, {}, args.baseline_seconds)
        _print_pair(f"8-puzzle {board} (cold table)", ours, base)


def bench_watersort(args) -> None:
    deals = args.deals or (3 if args.quick else 10)
    sizes = (6, 9, 14) if args.quick else (6, 9, 12, 14)
    for colours in sizes:
        row = _isolated(_watersort_row, colours, deals, 1)
        print(f"water-sort {colours:>2} colours, 2 empty, {deals} deals: solved {row['solved']} "
              f"(all optimal {_fmt(row['all_optimal'])}), unsolvable {row['unsolvable']}, gave up "
              f"{row['gave_up']}; median {_fmt(row['median_seconds'], '.3f')} s, max "
              f"{_fmt(row['max_seconds'], '.3f')} s, max nodes {row['max_nodes']:,}, median "
              f"{_fmt(row['median_moves'])} pours, peak {row['peak_mib']:.0f} MiB")
    for colours in ((4, 6) if args.quick else (4, 6, 9)):
        from .watersort.domain import random_deal
        board = random_deal(colours, capacity=4, empty=2, seed=1)
        ours = _isolated(_solver_row, "watersort", board, {"capacity": 4})
        base = _isolated(_baseline_row, "watersort", board, {"capacity": 4},
                         args.baseline_seconds)
        _print_pair(f"water-sort {colours} colours seed 1", ours, base)


#: Felner, Korf and Hanan, "Additive pattern database heuristics", JAIR 22 (2004):
#: mean nodes per instance over Korf's 100, static partitions, no mirror lookup, C
PUBLISHED_MEAN_NODES = {"Manhattan": 401_189_630, "5-5-5": 3_090_405, "6-6-3": 617_555,
                        "7-8": 36_710}


def _fifteen_tables() -> str:
    """Load or build the pattern databases now, so no row pays for them; say which."""
    from .core import tables as cache
    from .npuzzle import pdb as npuzzle_pdb
    started = time.perf_counter()
    npuzzle_pdb.tables()
    seconds = time.perf_counter() - started
    built = " + ".join(f"{s:.1f}" for s in npuzzle_pdb.build_seconds())
    groups = "-".join(str(len(g)) for g in npuzzle_pdb.GROUPS)
    return (f"{groups} pattern databases (+ mirror lookup): ready in {seconds:.2f} s from "
            f"{cache.cache_dir()}; building them took {built} s")


def bench_fifteen(args) -> int:
    from .core.errors import BoardError
    data = npuzzle_levels.load("korf100")["instances"]
    try:
        first, _, last = args.fifteen.partition("-")
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise BoardError(f"--fifteen wants a range like 1-10, not {args.fifteen!r}")
    if not 1 <= lo <= hi <= len(data):
        raise BoardError(f"--fifteen range must lie within 1-{len(data)}")
    print(_fifteen_tables(), flush=True)
    print(f"{'#':>3} {'moves':>5} {'published':>9} {'optimal':>7} {'nodes':>13} "
          f"{'seconds':>9} {'nodes/s':>9}")
    total_nodes, times, mismatches = 0, [], 0
    for i in range(lo, hi + 1):
        inst = data[i - 1]
        row = _fifteen_row(inst["board"])
        total_nodes += row["nodes"]
        times.append(row["seconds"])
        if row["moves"] != inst["optimal"] or not row["optimal"] or not row["reaches_goal"]:
            mismatches += 1
        print(f"{i:>3} {_fmt(row['moves']):>5} {inst['optimal']:>9} {_fmt(row['optimal']):>7} "
              f"{row['nodes']:>13,} {row['seconds']:>9.2f} "
              f"{row['nodes'] / max(row['seconds'], 1e-9):>9,.0f}", flush=True)
    count = hi - lo + 1
    print(f"total: {count} instances, {total_nodes:,} nodes ({total_nodes // count:,} per "
          f"instance), {sum(times):.1f} s, median {statistics.median(times):.2f} s, max "
          f"{max(times):.2f} s; {mismatches} not proven at the published length")
    published = ", ".join(f"{k} {v:,}" for k, v in PUBLISHED_MEAN_NODES.items())
    scope = "" if count == len(data) else " (those are means over all 100; this is a subset)"
    print(f"published mean nodes per instance (Felner, Korf & Hanan 2004, no mirror): "
          f"{published}{scope}")
    return 1 if mismatches else 0


def run_bench(args) -> int:
    if args.fifteen:
        return bench_fifteen(args)
    started = time.perf_counter()
    print("bench: each row in a fresh process with a cold table cache; "
          "speed-up = baseline seconds / solver seconds")
    _header()
    sections = {"klotski": bench_klotski, "npuzzle": bench_npuzzle, "watersort": bench_watersort}
    for name, section in sections.items():
        if args.only in (None, name):
            section(args)
    print(f"bench finished in {time.perf_counter() - started:.1f} s")
    return 0
