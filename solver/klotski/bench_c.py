"""The Klotski rows of ``python -m solver bench`` held against compiled C, in one run.

:file:`reference/klotski_bfs.c` is a plain C breadth-first search over the
same kind of key (128-bit bit planes, moves by XOR, an open-addressing set).
When a C compiler is present the bench compiles it (``-O3 -march=native``,
else ``-O2``) and runs it
on the same board right after our CLI path, and prints the ratio of the two
times (and of their peak memory).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..bench import cold_start, installed_env, peak_mib
from ..engine import solve_board

REFERENCE_SOURCE = Path(__file__).with_name("reference") / "klotski_bfs.c"
COMPILERS = ("cc", "gcc", "clang")
#: compiler flags tried in turn (-march=native: the same machine runs both searches)
FLAGS = (("-O3", "-march=native"), ("-O2",))
#: proven unsolvable: the whole 1,638,566-position group is searched
EXHAUST_BOARD = "CDDDIL/C.GGJE/C.HAAE/KFHAAN/MFBBBB"


def solve_row(board: str, metric: str) -> dict:
    """Our solve of ``board`` as the CLI runs it (cold table cache, compiled code loaded
    from numba's cache: its load is inside the time)."""
    cold_start()
    started = time.perf_counter()
    report = solve_board("klotski", board, metric=metric)
    return {
        "status": report["status"],
        "length": report["length"],
        "nodes": report["stats"]["nodes"],
        "seconds": time.perf_counter() - started,
        "peak_mib": peak_mib(),
    }


def c_reference(board: str, metric: str) -> dict | None:
    """Compile and run the C BFS on ``board``; None when no compiler is present.

    Returns {positions, distance (None: exhausted, no goal), seconds (its search),
    process_seconds (its whole process, as a shell user waits for it), peak_mib, compiler}.
    """
    compiler = next((c for c in COMPILERS if shutil.which(c)), None)
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory(prefix="klotski-bfs-") as folder:
        binary = Path(folder) / "klotski_bfs"
        for flags in FLAGS:  # the best the compiler takes: it is the reference to beat
            built = subprocess.run(
                [compiler, *flags, "-o", str(binary), str(REFERENCE_SOURCE)],
                capture_output=True,
            )
            if built.returncode == 0:
                break
        built.check_returncode()
        started = time.perf_counter()
        done = subprocess.run(
            [str(binary), board, metric], text=True, capture_output=True, check=True
        )
        process = time.perf_counter() - started
    positions, distance, seconds, peak_kib = done.stdout.split()
    return {
        "flags": " ".join(flags),
        "positions": int(positions),
        "distance": None if int(distance) < 0 else int(distance),
        "seconds": float(seconds),
        "process_seconds": process,
        "peak_mib": int(peak_kib) / 1024,
        "compiler": compiler,
    }


def print_against_c(name: str, ours: dict, board: str, metric: str) -> None:
    """Run the C reference on ``board`` and print the ratio line under our row."""
    try:
        ref = c_reference(board, metric)
    except (OSError, subprocess.CalledProcessError, ValueError) as exc:
        print(f"{name}: C reference could not be built or run ({exc})")
        return
    if ref is None:
        print(f"{name}: no C compiler (cc, gcc, clang) found; no ratio")
        return
    ours_answer = ours["length"] if ours["status"] == "solved" else None
    agree = ref["distance"] == ours_answer
    print(
        f"{name}: ours {ours['seconds']:.2f} s, {ours['peak_mib']:.0f} MiB peak "
        f"({ours['status']}, {ours['nodes']:,} positions); C reference ({ref['compiler']} {ref['flags']}, "
        f"{REFERENCE_SOURCE.name}) {ref['seconds']:.2f} s, {ref['peak_mib']:.0f} MiB, "
        f"{ref['positions']:,} positions; ratio {ours['seconds'] / max(ref['seconds'], 1e-9):.2f}x "
        f"its time (target at most 2x, goal 1.5x), "
        f"{ours['peak_mib'] / max(ref['peak_mib'], 1e-9):.1f}x its memory; same answer: "
        f"{'yes' if agree else 'no'}"
    )


def cli_process_seconds(board: str, metric: str) -> float:
    """One whole ``python -m solver solve klotski BOARD --metric METRIC`` process, timed
    from outside: interpreter start, imports, numba and its cached kernels, the search
    (with a fresh table cache: no saved table answers it; from compiled bytecode, as an
    installed package starts)."""
    argv = [sys.executable, "-m", "solver", "solve", "klotski", board, "--metric", metric]
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as cache:
        started = time.perf_counter()
        done = subprocess.run(
            argv, stdout=subprocess.DEVNULL, env={**installed_env(), "PUZZLE_ARCADE_CACHE": cache}
        )
        seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # solved, or proven unsolvable (exhausted)
        raise subprocess.CalledProcessError(done.returncode, argv)
    return seconds


def print_whole_process(name: str, board: str, metric: str, repeat: int = 3) -> None:
    """The CLI as a shell user runs it against the C BFS's whole process, best of ``repeat``
    each, taken in turn (a shared machine's load falls on both alike). The first CLI run,
    untimed, compiles the kernels if this checkout has not yet (once per machine)."""
    cli_process_seconds(board, metric)
    cli, ref = [], []
    try:
        for _ in range(repeat):
            cli.append(cli_process_seconds(board, metric))
            found = c_reference(board, metric)
            if found is None:
                print(f"{name}: no C compiler (cc, gcc, clang) found; no ratio")
                return
            ref.append(found["process_seconds"])
    except (OSError, subprocess.CalledProcessError, ValueError) as exc:
        print(f"{name}: C reference could not be built or run ({exc})")
        return
    ratios = sorted(c / r for c, r in zip(cli, ref, strict=True))
    print(
        f"{name}: CLI process {min(cli):.2f} s, C BFS process {min(ref):.2f} s (best of "
        f"{repeat} each); ratio {min(cli) / min(ref):.2f}x its time (target at most 1.5x; "
        f"run by run {ratios[0]:.2f}x to {ratios[-1]:.2f}x)"
    )
