"""``python -m solver bench``: the project's solver against a plain BFS baseline, in one run.

Every measurement runs in a fresh spawned process, so its peak memory (maximum
resident set size) is its own and no table built by an earlier row helps a
later one; tables are built into a fresh temporary cache folder (cold). The
baseline is :mod:`solver.core.baseline`: the originals' generic breadth-first search
over string states. Ratios are baseline seconds / solver seconds, so 3.0x means
the solver took a third of the time. Absolute times drift on shared machines;
the ratios, measured side by side, are the figures to quote.

This module is the measuring kit; each game prints its own rows from its
``bench`` module (``solver/<game>/bench.py``: ``rows(args)``, optionally
``arguments(parser)`` for its flags and ``alone(args)`` for a run of its own), which
``python -m solver bench`` (:func:`solver.cli.run_bench`) finds and runs.
"""

from __future__ import annotations

import os
import pickle
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context

from . import catalogue
from .core.baseline import GaveUp
from .core.results import Progress
from .engine import analyse_board, moves_rated_payload, parse_board, solve_board

# -- helpers that run inside the measuring process ----------------------------------


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cold_start() -> None:
    """A fresh table cache folder (cold), and the games imported before any clock starts.

    Finding the games imports every declaration; a row times the solver, not that.
    """
    os.environ["PUZZLE_ARCADE_CACHE"] = tempfile.mkdtemp(prefix="bench-cache-")
    catalogue.games()


def installed_env() -> dict[str, str]:
    """The environment of a whole-process row's runs: this one, but writing bytecode
    (``PYTHONDONTWRITEBYTECODE`` unset), so that after an untimed first run the timed
    ones start from ``.pyc`` files, as an installed package does, not from source."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def solver_row(puzzle: str, board: str, options: dict) -> dict:
    cold_start()
    started = time.perf_counter()
    report = solve_board(puzzle, board, **options)
    seconds = time.perf_counter() - started
    return {
        "moves": report["length"],
        "optimal": report["optimal"],
        "status": report["status"],
        "nodes": report["stats"]["nodes"],
        "seconds": seconds,
        "peak_mib": peak_mib(),
    }


def baseline_row(make_baseline: Callable, board: str, options: dict, max_seconds: float) -> dict:
    """Solve with the string baseline ``make_baseline(board, options)`` builds."""
    solver = make_baseline(board, options)
    started = time.perf_counter()
    try:
        moves, nodes = solver.solve(max_seconds=max_seconds)
        status = "solved" if moves is not None else "unsolvable"
    except GaveUp as exc:
        moves, nodes, status = None, exc.nodes, "gave up"
    seconds = time.perf_counter() - started
    return {
        "moves": moves,
        "optimal": status == "solved",
        "status": status,
        "nodes": nodes,
        "seconds": seconds,
        "peak_mib": peak_mib(),
    }


def lookup_row(puzzle: str, boards: list[str], options: dict, repeat: int = 200) -> dict:
    """Build tables with a first ``analyse`` per board, then time what a player waits for.

    ``lookup_ms`` is the slowest board's mean ``analyse_board`` (parse, distance,
    best move, format) and ``solve_ms`` its mean full ``solve_board``, both with
    the tables already built.
    """
    cold_start()
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
    return {
        "build_seconds": build,
        "lookup_ms": lookup * 1000,
        "solve_ms": solve * 1000,
        "distances": distances,
        "optimal": bool(first["optimal"]),
        "peak_mib": peak_mib(),
    }


def coach_row(
    puzzle: str, boards: list, options: dict, repeat: int = 10, cold: bool = True
) -> dict:
    """Time the coach's rated move list per position, as the server builds it.

    ``boards`` are board texts, or (board, options) pairs overriding ``options``.
    Each position is analysed first (a level's table is built then, as the
    server does before it rates); ``rate_ms`` is then the time for every legal
    move's distance and verdict alone, ``analyse_ms`` the whole ``analyse``
    payload (distance, best move and the rated list); each is the median of
    ``repeat`` runs of that position. ``cold`` False keeps the
    user's table cache (the 15-puzzle's databases take a minute to build).
    """
    if cold:
        cold_start()
    else:
        catalogue.games()
    rate, whole, unknown, moves = [], [], 0, 0
    for board in boards:
        board, given = board if isinstance(board, tuple) else (board, options)
        domain, state = parse_board(puzzle, board, **given)
        analysis = domain.analyse(state)
        rate.append(_median_ms(partial(moves_rated_payload, domain, state, analysis), repeat))
        whole.append(_median_ms(partial(analyse_board, puzzle, board, **given), repeat))
        listed, _ = moves_rated_payload(domain, state, analysis)
        moves += len(listed)
        unknown += sum(1 for option in listed if option["verdict"] == "unknown")
    return {
        "positions": len(boards),
        "moves": moves,
        "unknown": unknown,
        "rate_median_ms": statistics.median(rate),
        "rate_max_ms": max(rate),
        "analyse_median_ms": statistics.median(whole),
        "analyse_max_ms": max(whole),
    }


def _median_ms(call: Callable, repeat: int) -> float:
    """The median of ``repeat`` timed calls, in ms: a shared machine's pauses are not the code's."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def print_coach(name: str, row: dict) -> None:
    print(
        f"{name} coach: every legal move rated in median {row['rate_median_ms']:.3f} ms, "
        f"max {row['rate_max_ms']:.3f} ms per position (whole analysis with it: median "
        f"{row['analyse_median_ms']:.3f} ms, max {row['analyse_max_ms']:.3f} ms); "
        f"{row['positions']} positions, {row['moves']} moves, {row['unknown']} left unknown"
    )


def streaming_row(
    puzzle: str, board: str, options: dict, algorithm: str = "bfs", repeat: int = 3
) -> dict:
    """What streaming a search's progress costs it, as the lab streams it.

    The same search by name, alternately without a progress callback and with one
    that does the lab's work per report (the event's payload, pickled as a solver
    process writes it to its pipe); each side's fastest of ``repeat`` runs, so a
    shared machine's pauses count against neither. Progress is batched by the search
    itself (a clock check every few hundred positions, a report about four times a
    second), so ``overhead`` should stay far under the 20% allowed.
    """
    cold_start()
    sent: list[bytes] = []

    def stream(found: Progress) -> None:
        payload = {"algorithm": algorithm, **found.as_dict()}
        sent.append(pickle.dumps(("event", 1, "lab_progress", payload)))

    quiet: list[float] = []
    streamed: list[float] = []
    nodes = 0
    for _ in range(repeat):
        for progress, times in ((None, quiet), (stream, streamed)):
            started = time.perf_counter()
            report = solve_board(puzzle, board, algorithm=algorithm, progress=progress, **options)
            times.append(time.perf_counter() - started)
            nodes = report["stats"]["nodes"]
    return {
        "nodes": nodes,
        "quiet_seconds": min(quiet),
        "streamed_seconds": min(streamed),
        "events": len(sent) / repeat,
        "overhead": min(streamed) / min(quiet) - 1,
    }


def print_streaming(name: str, row: dict) -> None:
    print(
        f"{name} streamed to the lab: {row['streamed_seconds']:.3f} s with"
        f" {row['events']:.0f} progress events, {row['quiet_seconds']:.3f} s without"
        f" ({row['nodes']:,} positions): overhead {100 * row['overhead']:+.1f}% (limit 20%)"
    )


class _StampedEvent(threading.Event):
    """An Event that remembers when it was set."""

    set_at = 0.0

    def set(self) -> None:
        self.set_at = time.perf_counter()
        super().set()


def cancel_row(puzzle: str, board: str, options: dict, after: float = 0.3) -> dict:
    """Cancel a search ``after`` seconds in; ``stop_ms`` is how long it took to return.

    The unit tests check that a search polls its cancel flag every few hundred
    positions (every position where moves are many); this is what that means in
    time. ``stop_ms`` is None when the search ended before the cancel.
    """
    cold_start()
    stop = _StampedEvent()
    timer = threading.Timer(after, stop.set)
    timer.start()
    report = solve_board(puzzle, board, cancel=stop, **options)
    returned = time.perf_counter()
    timer.cancel()
    stop_ms = (returned - stop.set_at) * 1000 if stop.is_set() else None
    return {"status": report["status"], "stop_ms": stop_ms, "peak_mib": peak_mib()}


def isolated(fn: Callable, *args):
    """Run ``fn(*args)`` in a fresh spawned process and return its result."""
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


# -- the report ---------------------------------------------------------------------


def fmt(value: object, spec: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return format(value, spec)


def print_pair(name: str, ours: dict, base: dict | None) -> None:
    """The solver's row and the baseline's under it, with the speed-up."""
    ratio = ""
    if base is not None and ours["seconds"] > 0 and base["status"] == "solved":
        ratio = f"{base['seconds'] / ours['seconds']:.1f}x"
    elif base is not None:
        ratio = f">{base['seconds'] / ours['seconds']:.1f}x (baseline {base['status']})"
    for who, row in (("solver", ours), ("baseline", base)):
        if row is None:
            continue
        print(
            f"{name:<34} {who:<9} {fmt(row['moves']):>6} {fmt(row['optimal']):>7} "
            f"{fmt(row['nodes'], ','):>11} {row['seconds']:>9.3f} {row['peak_mib']:>8.0f}  "
            f"{ratio if who == 'solver' else ''}"
        )


def print_header() -> None:
    """The bench's first lines: how rows are measured, then the columns."""
    print(
        "bench: each row in a fresh process with a cold table cache; "
        "speed-up = baseline seconds / solver seconds"
    )
    print(
        f"{'board':<34} {'impl':<9} {'moves':>6} {'optimal':>7} {'nodes':>11} "
        f"{'seconds':>9} {'peak MiB':>8}  speed-up vs baseline"
    )
    print("-" * 110)
