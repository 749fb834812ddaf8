"""Regenerate the Klotski level packs' graded facts with the solver.

Every level in the packs of solver/klotski/levels.py gets ``size`` ("WxH"),
``moves`` {"piece": N, "straight": S, "step": M} (the proven shortest solution
in each metric), ``traps`` (per metric, the positions on that solution with a
single best move) and ``group`` (its reachable set's size and, per metric, the
distance of its farthest position: the level is the hardest start of its group
when that equals ``moves``). Names and boards are the packs' own; this script
only grades them, so it can be rerun after any solver change and a test
(tests/test_levels.py) checks the stored facts still agree.

    .venv/bin/python scripts/make_levels.py            # rewrite every pack
    .venv/bin/python scripts/make_levels.py --check    # exit 1 if a fact is stale
    .venv/bin/python scripts/make_levels.py --pack klotski-big   # one pack only
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.klotski.grading import grade  # noqa: E402
from solver.klotski.levels import LEVELS_DIR, PACKS  # noqa: E402


def size_of(board: str) -> str:
    rows = board.split("/")
    return f"{len(rows[0])}x{len(rows)}"


def regrade(pack: dict) -> list[str]:
    """Recompute every level's facts in place; returns lines naming what changed."""
    changes = []
    for level in pack["levels"]:
        started = time.perf_counter()
        facts = grade(level["board"])
        old = {key: level.get(key) for key in facts}
        if old != facts:
            changes.append(f"{level['name']}: {old} -> {facts}")
        level["size"] = size_of(level["board"])
        level.update(facts)
        moves = facts["moves"]
        print(
            f"  {level['name']:<16} {level['size']:>4} piece {moves['piece']:>4} "
            f"straight {moves['straight']:>4} step {moves['step']:>4}  group "
            f"{facts['group']['positions']:>8,}  ({time.perf_counter() - started:.2f} s)"
        )
    return changes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale facts")
    parser.add_argument(
        "--pack",
        choices=PACKS,
        action="append",
        help="grade only this pack (may be repeated; default: all)",
    )
    args = parser.parse_args(argv)
    stale = []
    for name in args.pack or PACKS:
        path = LEVELS_DIR / f"{name}.json"
        pack = json.loads(path.read_text(encoding="utf-8"))
        print(f"{name}: {len(pack['levels'])} levels")
        changes = regrade(pack)
        stale += changes
        if not args.check:
            path.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for line in stale:
        print("changed:", line)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
