"""Regenerate the Klotski level packs' optimal move counts with the solver.

Every level in solver/klotski/klotski-classic.json and klotski-composed.json
gets ``size`` ("WxH") and ``moves`` {"piece": N, "step": M}: the proven
shortest solution in each metric. Names and boards are the packs' own; this
script only grades them, so it can be rerun after any solver change and a
test (tests/test_levels.py) checks the stored counts still agree.

    .venv/bin/python scripts/make_levels.py            # rewrite both packs
    .venv/bin/python scripts/make_levels.py --check    # exit 1 if a count is stale
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.engine import solve_board  # noqa: E402
from solver.klotski.levels import LEVELS_DIR, PACKS  # noqa: E402
from solver.klotski.moves import METRICS  # noqa: E402


def grade(board: str) -> dict:
    """{"piece": N, "step": M}: proven shortest solutions; refuses unsolvable boards."""
    counts = {}
    for metric in METRICS:
        report = solve_board("klotski", board, metric=metric)
        if report["status"] != "solved" or not report["optimal"]:
            raise SystemExit(f"{board}: {metric} metric gave {report['status']} "
                             f"({report['message']}); a pack level must be solvable")
        counts[metric] = report["length"]
    return counts


def size_of(board: str) -> str:
    rows = board.split("/")
    return f"{len(rows[0])}x{len(rows)}"


def regrade(pack: dict) -> list[str]:
    """Recompute every level's counts in place; returns lines naming what changed."""
    changes = []
    for level in pack["levels"]:
        started = time.perf_counter()
        counts = grade(level["board"])
        if level.get("moves") != counts:
            changes.append(f"{level['name']}: {level.get('moves')} -> {counts}")
        level["size"] = size_of(level["board"])
        level["moves"] = counts
        print(f"  {level['name']:<16} {level['size']:>4} piece {counts['piece']:>4} "
              f"step {counts['step']:>4}  ({time.perf_counter() - started:.2f} s)")
    return changes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale counts")
    args = parser.parse_args(argv)
    stale = []
    for name in PACKS:
        path = LEVELS_DIR / f"{name}.json"
        pack = json.loads(path.read_text(encoding="utf-8"))
        print(f"{name}: {len(pack['levels'])} levels")
        changes = regrade(pack)
        stale += changes
        if not args.check:
            path.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")
    for line in stale:
        print("changed:", line)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
