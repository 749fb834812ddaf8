"""The shipped bench runs and reports the solver beside the baseline."""

import os
import re
import shutil
import subprocess
import sys

import numpy as np
from helpers.watersort import fewest_pours_by_bfs

from solver.klotski.baseline import StringKlotski
from solver.npuzzle.baseline import StringNPuzzle
from solver.watersort.baseline import StringWaterSort


def test_baselines_agree_with_known_figures():
    assert StringKlotski("BAAC/BAAC/DEEF/DGHF/I..J", "A", 3, 1, "piece").solve()[0] == 81
    assert StringNPuzzle("1 2 3 4 5 6 0 7 8").solve()[0] == 2
    assert StringWaterSort("AB,BA,,", 2).solve()[0] == fewest_pours_by_bfs("AB,BA,,", 2) == 3


def test_bench_npuzzle_section_prints_solver_and_baseline_rows(npuzzle_tables):
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "bench", "--only", "npuzzle", "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("8-puzzle 8 6 7")]
    assert len(rows) == 2
    solver_row, baseline_row = rows
    assert " 31 " in solver_row and " 31 " in baseline_row
    assert re.search(r"\d+\.\dx", solver_row)
    assert "whole optimal solution in" in proc.stdout
    whole = re.findall(
        r"8-puzzle CLI as a whole process .*: CLI [\d.]+ s, seed-style BFS [\d.]+ s: ", proc.stdout
    )
    assert len(whole) == 2
    assert re.search(
        r"15-puzzle hint for Korf's #60 .*: \d+ ms .* first 5x5 hints of 10 scrambles", proc.stdout
    )


def test_bench_rejects_a_bad_fifteen_range():
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "bench", "--fifteen", "0-500"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1


def test_bench_fifteen_runs_each_built_set_beside_the_c_reference(npuzzle_tables):
    """In the test folder only 6-6-3 is built: the bench says 7-8 is not, and runs 6-6-3."""
    proc = subprocess.run(
        [sys.executable, "-m", "solver", "bench", "--fifteen", "2-3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "7-8 databases: not built on this machine" in proc.stdout
    rows = [line.split() for line in proc.stdout.splitlines() if re.match(r"\s+[23] ", line)]
    assert [row[:3] for row in rows] == [["2", "55", "55"], ["3", "59", "59"]]
    assert "0 solutions not proven at the published length" in proc.stdout
    # the same boards through the API, each answer replayed with the rules
    assert re.search(
        r"through solve_board \(6-6-3\): 2 instances, [\d,]+ nodes, [\d.]+ s, every solution "
        r"replayed",
        proc.stdout,
    )
    if shutil.which("cc") or shutil.which("gcc"):
        assert re.search(r"ratio to the C reference, solve_board: [\d.]+x", proc.stdout)
        assert re.search(
            r"ratio to the C reference, 6-6-3: [\d.]+x .*same node counts: yes", proc.stdout
        )


def test_the_memory_bench_finds_a_mapped_table_pages(tmp_path):
    """``mapped_pss`` sums the proportional memory of one file's mappings, only once
    its pages are read."""
    from solver.bench_memory import mapped_pss
    from solver.core import mapped

    path = tmp_path / "a-mapped-table.pickle"
    with open(path, "wb") as f:
        mapped.dump({"flat": np.arange(16 << 20, dtype=np.uint8)}, f)  # 16 MiB
    table = mapped.load(path)
    assert mapped_pss(os.getpid(), path.name) < 4096  # KiB: mapped, barely read
    assert int(table["flat"].sum()) > 0  # every page read
    assert 16384 <= mapped_pss(os.getpid(), path.name) <= 16384 + 64
    assert mapped_pss(os.getpid(), "no-such-file") == 0
