"""The N-puzzle's rows of ``python -m solver bench``, and ``--fifteen``: Korf's 100 instances.

``--twenty-four`` runs the anytime 5x5 search on Korf and Felner's 50
instances for a fixed time each and prints the quality table (length against
the published optimum, the proven lower bound).

``--fifteen`` solves Korf's 100 with each database set this machine has (6-6-3
always; 7-8 once ``python -m solver tables build`` made it), and also compiles
and runs :file:`reference/ida15.c` (the 6-6-3 search in plain C, building its
own tables) when a C compiler is present, on the same instances in the same
run, and prints each set's time as a ratio of the C reference's.
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..bench import (
    baseline_row,
    coach_row,
    fmt,
    installed_env,
    isolated,
    lookup_row,
    print_coach,
    print_pair,
    solver_row,
)
from ..core.coach import rate_moves
from ..core.errors import BoardError
from ..core.replay import replay_line
from ..core.results import SOLVED, Budget, Progress
from ..core.tables import cache_dir
from ..engine import solve_board
from .anytime import anytime_search, six_ready
from .anytime import searcher as twenty_four_searcher
from .anytime import warm as warm_anytime
from .baseline import StringNPuzzle
from .domain import WARM_BOARD, NPuzzle
from .instances import load
from .pdb import SETS, chosen, ida_star_fifteen, search_ready, searcher
from .rules import goal_state, solvable

#: the 24-puzzle's database splits, the one a fresh machine has first
TWENTY_FOUR_SETS = ("5-5-5-5-4", "6-6-6-6")

HARDEST_8 = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"]

#: Felner, Korf and Hanan, "Additive pattern database heuristics", JAIR 22 (2004):
#: mean nodes per instance over Korf's 100, static partitions, no mirror lookup, C
PUBLISHED_MEAN_NODES = {
    "Manhattan": 401_189_630,
    "5-5-5": 3_090_405,
    "6-6-3": 617_555,
    "7-8": 36_710,
}


def string_baseline(board: str, options: dict) -> StringNPuzzle:
    return StringNPuzzle(board)


def rows(args) -> None:
    row = isolated(lookup_row, "npuzzle", HARDEST_8, {})
    print(
        f"8-puzzle table: built cold in {row['build_seconds']:.3f} s; then distance + best move "
        f"in {row['lookup_ms']:.3f} ms, whole optimal solution in {row['solve_ms']:.3f} ms "
        f"(distances {row['distances']})"
    )
    for board in HARDEST_8:
        ours = isolated(solver_row, "npuzzle", board, {})
        base = isolated(baseline_row, string_baseline, board, {}, args.baseline_seconds)
        print_pair(f"8-puzzle {board} (cold table)", ours, base)
    for board, target in ((ONE_MOVE_8, ""), (HARDEST_8[0], " (target at most 0.05x)")):
        row = whole_process_row(board)
        print(
            f"8-puzzle CLI as a whole process (start-up and imports, table on disk), {board}: "
            f"CLI {row['cli']:.3f} s, seed-style BFS {row['seed']:.3f} s: "
            f"{row['cli'] / row['seed']:.3f}x its time{target}; run by run "
            f"{row['low']:.3f}x to {row['high']:.3f}x"
        )
    print_coach("8-puzzle", isolated(coach_row, "npuzzle", eight_positions(), {}))
    if not search_ready():
        print(
            "15-puzzle coach: skipped, the pattern databases are not built in this cache "
            "(`python -m solver bench --fifteen 1` builds them)"
        )
        return
    row = isolated(fifteen_coach_row, 6 if args.quick else 20)
    print(
        f"15-puzzle coach ({row['positions']} random positions {row['shortest']}-"
        f"{row['longest']} moves from solved, databases loaded): every legal move rated in "
        f"median {row['median_s']:.3f} s, max {row['max_s']:.3f} s per position, "
        f"{row['under_1s']} of {row['positions']} within 1 s, {row['unknown']} moves left unknown"
    )
    row = isolated(quick_row)
    print(
        f"15-puzzle hint for Korf's #60 (66 moves, minutes to prove): {row['hint_ms']:.0f} ms "
        f"with the databases loaded (promise: within a second); first 5x5 hints of "
        f"{row['boards']} scrambles: median {row['median_ms']:.0f} ms, max {row['max_ms']:.0f} ms"
    )


#: one move from solved: a whole-process run is all start-up and imports
ONE_MOVE_8 = "1 2 3 4 5 6 7 0 8"
SEED_BFS = (
    "import sys\n"
    "from solver.npuzzle.baseline import StringNPuzzle\n"
    "print(StringNPuzzle(sys.argv[1]).solve()[0])\n"
)


def whole_process_row(board: str, repeat: int = 5) -> dict:
    """The best of ``repeat`` whole-process runs of ``python -m solver solve npuzzle BOARD``
    and of a script running the seed-style BFS on it, taken in turn (a shared machine's
    load falls on both alike): what a shell user waits for. The CLI's table is built
    first (once per machine), as a user's would be, and both start from compiled
    bytecode (:func:`~solver.bench.installed_env`). ``low``/``high``: the least and the
    greatest ratio CLI/seed of one pair of runs."""

    env = installed_env()

    def timed(argv: list[str]) -> float:
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        return time.perf_counter() - started

    cli = [sys.executable, "-m", "solver", "solve", "npuzzle", board]
    seed = [sys.executable, "-c", SEED_BFS, board]
    timed(cli)  # the table on disk, the bytecode compiled
    timed(seed)
    pairs = [(timed(cli), timed(seed)) for _ in range(repeat)]
    ratios = sorted(c / s for c, s in pairs)
    return {
        "cli": min(c for c, _ in pairs),
        "seed": min(s for _, s in pairs),
        "low": ratios[0],
        "high": ratios[-1],
    }


def eight_positions(count: int = 100) -> list[str]:
    """Every position along the two hardest solutions, and seeded random ones."""
    boards = []
    for board in HARDEST_8:
        boards += solve_board("npuzzle", board)["states"]
    rng = random.Random(8)
    while len(boards) < 2 * 32 + count:
        tiles = list(range(9))
        rng.shuffle(tiles)
        if solvable(tiles):
            boards.append(" ".join(map(str, tiles)))
    return boards


def fifteen_coach_row(count: int, max_distance: int = 50, seed: int = 15) -> dict:
    """Seeded random 4x4 positions at most ``max_distance`` moves from solved (proven
    first, not timed), then the time to rate every legal move of each."""
    searcher()
    domain = NPuzzle()
    rng = random.Random(seed)
    times: list[float] = []
    lengths: list[int] = []
    unknown = 0
    while len(times) < count:
        tiles = list(range(16))
        rng.shuffle(tiles)
        if not solvable(tiles):
            continue
        state = tuple(tiles)
        result = ida_star_fifteen(state, budget=Budget(max_seconds=10.0))
        if result.status != SOLVED or result.length > max_distance:
            continue
        analysis = domain.analyse(state)
        started = time.perf_counter()
        rated, _ = rate_moves(domain, state, analysis, budget=Budget(max_seconds=30.0))
        times.append(time.perf_counter() - started)
        lengths.append(result.length)
        unknown += sum(1 for r in rated if r.verdict == "unknown")
    return {
        "positions": count,
        "shortest": min(lengths),
        "longest": max(lengths),
        "median_s": statistics.median(times),
        "max_s": max(times),
        "under_1s": sum(t < 1.0 for t in times),
        "unknown": unknown,
    }


def quick_row(boards: int = 10) -> dict:
    """What a player waits for where no proof is quick: the 15-puzzle's first hint on a
    hard board (databases loaded, or built once, before the clock starts) and the first
    5x5 hint (the anytime search's better answers follow: ``--twenty-four``)."""
    searcher()
    domain = NPuzzle()
    hard = domain.parse(load("korf100")["instances"][59]["board"])
    started = time.perf_counter()
    domain.quick_analyse(hard)
    hint = time.perf_counter() - started
    rng, times = random.Random(5), []
    for _ in range(boards):
        state = domain.parse(" ".join(map(str, list(range(1, 25)) + [0])))
        for _ in range(300):
            state = rng.choice(list(domain.moves(state)))[1]
        started = time.perf_counter()
        domain.quick_analyse(state)
        times.append(time.perf_counter() - started)
    return {
        "hint_ms": hint * 1000,
        "boards": boards,
        "median_ms": statistics.median(times) * 1000,
        "max_ms": max(times) * 1000,
    }


def fifteen_row(board: str, databases: str) -> dict:
    """Plain IDA* with no budget (the engine's default budget would stop long proofs)."""
    domain = NPuzzle()
    state = domain.parse(board)
    started = time.perf_counter()
    result = ida_star_fifteen(state, databases=databases)
    seconds = time.perf_counter() - started
    # the states were replayed through the rules from the start, move by move
    reaches_goal = (
        bool(result.states) and result.states[0] == state and domain.is_goal(result.states[-1])
    )
    return {
        "moves": result.length,
        "optimal": result.optimal,
        "status": result.status,
        "nodes": result.nodes,
        "seconds": seconds,
        "reaches_goal": reaches_goal,
    }


def api_row(board: str) -> dict:
    """One board through :func:`solver.engine.solve_board`, as the CLI and the server call it
    (no budget, the set :func:`~solver.npuzzle.pdb.chosen` picks), timed whole; its states
    then replayed with the rules (:func:`~solver.core.replay.replay_line`), untimed."""
    started = time.perf_counter()
    report = solve_board("npuzzle", board)
    seconds = time.perf_counter() - started
    try:
        replay_line(NPuzzle(), board, report["states"])
        replayed = report["length"] == len(report["moves"]) == len(report["states"]) - 1
    except BoardError:
        replayed = False
    return {
        "moves": report["length"],
        "optimal": report["optimal"],
        "nodes": report["stats"]["nodes"],
        "seconds": seconds,
        "reaches_goal": replayed,
    }


def _fifteen_tables(name: str) -> str:
    """Load or build one set's databases now, so no row pays for them; say how."""
    started = time.perf_counter()
    search = searcher(databases=name)
    seconds = time.perf_counter() - started
    started = time.perf_counter()
    ida_star_fifteen(WARM_BOARD, databases=name)  # the compiled search's machine code, loaded
    loaded = time.perf_counter() - started
    built = " + ".join(f"{s:.1f}" for s in SETS[name].build_seconds())
    return (
        f"{name} pattern databases (+ mirror lookup), {search.tabs.nbytes / 1e6:,.1f} MB: "
        f"ready in {seconds:.2f} s from {cache_dir()}; building them took {built} s on "
        f"this machine; compiled search loaded in {loaded:.2f} s"
    )


REFERENCE_SOURCE = Path(__file__).with_name("reference") / "ida15.c"
#: a compiler that may be present; the first found builds the reference
COMPILERS = ("cc", "gcc", "clang")


def c_reference(boards: list[str]) -> dict | None:
    """Compile and run the C reference on ``boards``; None when no compiler is present.

    Returns {tables: seconds, rows: [(moves, nodes, seconds)], compiler}.
    """
    compiler = next((c for c in COMPILERS if shutil.which(c)), None)
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory(prefix="ida15-") as folder:
        binary = Path(folder) / "ida15"
        subprocess.run(
            [compiler, "-O2", "-o", str(binary), str(REFERENCE_SOURCE)],
            check=True,
            capture_output=True,
        )
        done = subprocess.run(
            [str(binary)],
            input="\n".join(boards) + "\n",
            text=True,
            capture_output=True,
            check=True,
        )
    lines = done.stdout.split("\n")
    rows = [
        tuple(float(x) if "." in x else int(x) for x in line.split())
        for line in lines[1:]
        if line.strip()
    ]
    return {"tables": float(lines[0].split()[1]), "rows": rows, "compiler": compiler}


def _range(text: str, count: int, flag: str):
    """``"3-7"`` (or ``"5"``) as (3, 7), within 1..count; BoardError otherwise."""
    try:
        first, _, last = text.partition("-")
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise BoardError(f"{flag} wants a range like 1-10, not {text!r}") from None
    if not 1 <= lo <= hi <= count:
        raise BoardError(f"{flag} range must lie within 1-{count}")
    return lo, hi


def bench_fifteen(args) -> int:
    """Solve Korf's instances ``args.fifteen`` ("1-10") with each database set this machine
    has (or ``args.databases``); exit 1 if one misses its length."""
    data = load("korf100")["instances"]
    lo, hi = _range(args.fifteen, len(data), "--fifteen")
    wanted = args.databases if args.databases in SETS else None  # not a 24-puzzle split
    # 6-6-3 is built on first use (seconds); the others only by ``tables build`` (minutes)
    names = (
        [wanted]
        if wanted
        else [name for name, dbs in SETS.items() if not dbs.packed or dbs.ready()]
    )
    for name in SETS:
        if name not in names and not wanted:
            print(f"{name} databases: not built on this machine (python -m solver tables build)")
    for name in names:
        print(_fifteen_tables(name), flush=True)
    head = "".join(f" {name + ' nodes':>13} {'seconds':>8}" for name in names)
    print(f"{'#':>3} {'moves':>5} {'published':>9}{head}")
    nodes: dict[str, list[int]] = {name: [] for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    mismatches = 0
    for i in range(lo, hi + 1):
        inst = data[i - 1]
        line, moves = "", None
        for name in names:
            row = fifteen_row(inst["board"], name)
            nodes[name].append(row["nodes"])
            times[name].append(row["seconds"])
            if row["moves"] != inst["optimal"] or not row["optimal"] or not row["reaches_goal"]:
                mismatches += 1
            moves = row["moves"] if moves in (None, row["moves"]) else "differ"
            line += f" {row['nodes']:>13,} {row['seconds']:>8.3f}"
        print(f"{i:>3} {fmt(moves):>5} {inst['optimal']:>9}{line}", flush=True)
    count = hi - lo + 1
    totals = {name: (sum(nodes[name]), sum(times[name])) for name in names}
    for name, (expanded, seconds) in totals.items():
        print(
            f"{name}: {count} instances, {expanded:,} nodes ({expanded // count:,} per "
            f"instance), {seconds:.2f} s, {expanded / max(seconds, 1e-9):,.0f} nodes/s, median "
            f"{statistics.median(times[name]):.3f} s, slowest {max(times[name]):.2f} s, "
            f"{sum(t <= 1.0 for t in times[name])} of {count} proven within 1 s"
        )
    api = chosen().name
    api_seconds = api_nodes = 0
    for inst in data[lo - 1 : hi]:
        row = api_row(inst["board"])
        api_seconds += row["seconds"]
        api_nodes += row["nodes"]
        if row["moves"] != inst["optimal"] or not row["optimal"] or not row["reaches_goal"]:
            mismatches += 1
    print(
        f"through solve_board ({api}): {count} instances, {api_nodes:,} nodes, "
        f"{api_seconds:.2f} s, every solution replayed with the rules"
    )
    totals[API] = (api_nodes, api_seconds)
    print(f"{mismatches} solutions not proven at the published length")
    boards = [inst["board"] for inst in data[lo - 1 : hi]]
    mismatches += _compare_with_c(boards, totals)
    published = ", ".join(f"{k} {v:,}" for k, v in PUBLISHED_MEAN_NODES.items())
    scope = "" if count == len(data) else " (those are means over all 100; this is a subset)"
    print(
        f"published mean nodes per instance (Felner, Korf & Hanan 2004, no mirror): "
        f"{published}{scope}"
    )
    return 1 if mismatches else 0


#: the row of Korf's 100 solved through the API (the set the engine chooses)
API = "solve_board"
#: the most each set may take, as a multiple of the C 6-6-3 reference's time
TARGETS = {"6-6-3": "at most 2x", "7-8": "at most 0.5x, goal 0.3x", API: "at most 0.3x"}


def _compare_with_c(boards: list[str], totals: dict[str, tuple[int, float]]) -> int:
    """Run the C reference on the same boards and print each set's ratio; 1 if it fails."""
    try:
        ref = c_reference(boards)
    except (OSError, subprocess.CalledProcessError, ValueError, IndexError) as exc:
        print(f"C reference: could not build or run it ({exc})")
        return 0
    if ref is None:
        print("C reference: no C compiler (cc, gcc, clang) found; no ratio")
        return 0
    seconds = sum(row[2] for row in ref["rows"])
    nodes = sum(row[1] for row in ref["rows"])
    print(
        f"C reference, 6-6-3 ({ref['compiler']} -O2, {REFERENCE_SOURCE.name}): tables built in "
        f"{ref['tables']:.1f} s; {len(ref['rows'])} instances, {nodes:,} nodes, "
        f"{seconds:.2f} s, {nodes / max(seconds, 1e-9):,.0f} nodes/s, median "
        f"{statistics.median(r[2] for r in ref['rows']):.3f} s, slowest "
        f"{max(r[2] for r in ref['rows']):.2f} s"
    )
    for name, (ours_nodes, ours_seconds) in totals.items():
        same = f"; same node counts: {'yes' if nodes == ours_nodes else 'no'}"
        print(
            f"ratio to the C reference, {name}: {ours_seconds / max(seconds, 1e-9):.2f}x its "
            f"time (target {TARGETS.get(name, 'none')})" + (same if name == "6-6-3" else "")
        )
    return 0 if len(ref["rows"]) == len(boards) else 1


#: the issue's targets for the 24-puzzle: mean and worst length over the optimum, by budget
TWENTY_FOUR_TARGETS = {3.0: (1.05, None), 10.0: (1.03, 1.08)}


def _budgets(text: str) -> list[float]:
    """``"3,10"`` as [3.0, 10.0]: positive seconds; BoardError otherwise."""
    try:
        seconds = [float(part) for part in text.split(",")]
    except ValueError:
        raise BoardError(f"--twenty-four-seconds wants seconds like 3,10, not {text!r}") from None
    if not seconds or any(not 0 < s <= 3600 for s in seconds):
        raise BoardError("--twenty-four-seconds must be between 0 and 3600 each")
    return seconds


def bench_twenty_four(args) -> int:
    """Korf and Felner's 50 24-puzzle instances, each searched for every budget of
    ``--twenty-four-seconds`` (anytime) with each database split this machine has (or
    ``--databases``): the answer's length against the published optimum, the proven
    lower bound, and how many were proven optimal within the budget."""
    data = load("korf50")["instances"]
    lo, hi = _range(args.twenty_four, len(data), "--twenty-four")
    budgets = _budgets(args.twenty_four_seconds)
    names = [args.databases] if args.databases in TWENTY_FOUR_SETS else list(TWENTY_FOUR_SETS)
    if "6-6-6-6" in names and not six_ready():
        print("6-6-6-6 databases: not built on this machine (python -m solver tables build)")
        names.remove("6-6-6-6")
    if not names:
        return 1
    started = time.perf_counter()
    warm_anytime()
    for name in names:
        twenty_four_searcher(databases=name)
    print(
        f"24-puzzle, anytime search (weighted IDA* with a falling weight over "
        f"{' and '.join(names)} pattern databases + mirror, window shortening), instances "
        f"{lo}-{hi} at {', '.join(f'{b:g} s' for b in budgets)} each; tables and compiled "
        f"code ready in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    summary = []
    for name in names:
        # the reference first: the same split without the wide windows (6-6-6-6 only)
        wide = [False, True] if args.wide_windows == "both" and name == "6-6-6-6" else [True]
        for seconds in budgets:
            for windows in wide:
                row = _twenty_four_rows(data, lo, hi, name, seconds, windows)
                if row is None:
                    return 1
                summary.append(row)
    print(f"{'databases':>14} {'budget':>6} {'mean':>6} {'worst':>6} {'optimal':>8} {'bound':>6}")
    for name, seconds, ratios, bounds, proven in summary:
        print(
            f"{name:>14} {seconds:>5g}s {statistics.mean(ratios):>6.3f} {max(ratios):>6.3f} "
            f"{proven:>4}/{len(ratios):<3} {statistics.mean(bounds):>6.3f}"
        )
    return 0


def _twenty_four_rows(data, lo: int, hi: int, name: str, seconds: float, windows: bool = True):
    """One split at one budget: a row per instance and a total; None if an answer fails
    to replay. ``windows``: with the wide windows (:func:`~.anytime.shorten_wide`)."""
    label = name if windows else f"{name} -wide"
    print(f"-- {label} databases, {seconds:g} s per instance")
    print(
        f"{'#':>3} {'optimum':>7} {'found':>5} {'ratio':>6} {'bound':>5} {'first':>5} "
        f"{'proven':>6} {'nodes':>12} {'seconds':>7}"
    )
    ratios, bounds, firsts, proven = [], [], [], 0
    for i in range(lo, hi + 1):
        inst = data[i - 1]
        board = tuple(int(t) for t in inst["board"].split())
        seen: list[Progress] = []
        result = anytime_search(
            board,
            budget=Budget(max_seconds=seconds),
            progress=seen.append,
            databases=name,
            relabeled_windows=windows,
        )
        if result.states[0] != board or result.states[-1] != goal_state(5):
            print(f"{i:>3} answer does not replay to the goal")
            return None
        if result.lower_bound > inst["optimal"] or result.length < inst["optimal"]:
            print(f"{i:>3} bound {result.lower_bound} or length {result.length} is impossible")
            return None
        ratio = result.length / inst["optimal"]
        ratios.append(ratio)
        bounds.append(result.lower_bound / inst["optimal"])
        firsts.append(seen[0].best if seen else result.length)
        proven += bool(result.optimal)
        print(
            f"{i:>3} {inst['optimal']:>7} {result.length:>5} {ratio:>6.3f} "
            f"{result.lower_bound:>5} {firsts[-1]:>5} {'yes' if result.optimal else 'no':>6} "
            f"{result.nodes:>12,} {result.seconds:>7.2f}",
            flush=True,
        )
    count = len(ratios)
    mean_target, worst_target = TWENTY_FOUR_TARGETS.get(seconds, (None, None))
    targets = (f" (target at most {mean_target}x)" if mean_target else "") + (
        f", worst {max(ratios):.3f}x"
        + (f" (target at most {worst_target}x)" if worst_target else "")
    )
    print(
        f"total: {label}, {count} instances at {seconds:g} s: mean length "
        f"{statistics.mean(ratios):.3f}x the optimum{targets}, "
        f"{sum(r == 1.0 for r in ratios)} optimal, {proven} proven optimal; proven lower "
        f"bound on average {statistics.mean(bounds):.3f}x the optimum; rows and columns alone "
        f"{statistics.mean(f / d['optimal'] for f, d in zip(firsts, data[lo - 1 : hi], strict=True)):.2f}x",
        flush=True,
    )
    return label, seconds, ratios, bounds, proven


def arguments(parser) -> None:
    """The N-puzzle's own flags of the ``bench`` command."""
    parser.add_argument(
        "--fifteen",
        nargs="?",
        const="1-100",
        metavar="RANGE",
        help="solve Korf's 15-puzzle instances (e.g. 1-10) instead",
    )
    parser.add_argument(
        "--databases",
        choices=[*SETS, *TWENTY_FOUR_SETS],
        help="with --fifteen or --twenty-four: only this database set "
        "(default: every set built here)",
    )
    parser.add_argument(
        "--twenty-four",
        nargs="?",
        const="1-50",
        metavar="RANGE",
        help="search Korf and Felner's 24-puzzle instances (e.g. 1-10) "
        "for a fixed time each instead: the quality table",
    )
    parser.add_argument(
        "--twenty-four-seconds",
        default="3,10",
        metavar="SECONDS",
        help="time per 24-puzzle instance, one run per budget (default 3,10)",
    )
    parser.add_argument(
        "--wide-windows",
        choices=["on", "both"],
        default="on",
        help="with --twenty-four: 'both' also runs 6-6-6-6 without the wide windows "
        "first (the reference row, '6-6-6-6 -wide')",
    )


def alone(args) -> int | None:
    """``bench --fifteen`` (Korf's 100 15-puzzle instances) or ``--twenty-four``
    (the 24-puzzle quality table) instead of the usual rows."""
    if args.fifteen:
        return bench_fifteen(args)
    if args.twenty_four:
        return bench_twenty_four(args)
    return None
