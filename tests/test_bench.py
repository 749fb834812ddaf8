"""The shipped bench runs and reports the solver beside the baseline."""

import re
import subprocess
import sys

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
        [sys.executable, "-m", "solver", "bench", "--only", "npuzzle"],
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
