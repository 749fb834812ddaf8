"""Compose big-board Klotski levels: each the hardest start of its group (offline).

A seeded local search over layouts of one board size: random layouts with a
2x2 goal piece and dominoes, bars and squares are measured (every position of
the group, by breadth-first search from all solved positions; see
solver/klotski/hardest.py) and the group's farthest position is kept. The best
groups are mutated (a piece taken out, the cells refilled at random) and
measured again. Groups larger than ``--max-positions`` are skipped so the pack
stays cheap to re-check. Prints one JSON line per kept group, best first:

    .venv/bin/python scripts/compose_big_levels.py --size 5x6 --seconds 300 --seed 1

scripts/make_levels.py then grades the chosen boards in every metric.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.core.results import Monitor  # noqa: E402
from solver.klotski.board import parse_board  # noqa: E402
from solver.klotski.hardest import hardest_of_table  # noqa: E402
from solver.klotski.moves import state_key  # noqa: E402
from solver.klotski.tables import TooBig, build_table, group_key  # noqa: E402

SHAPES = [(1, 1), (2, 1), (1, 2), (2, 1), (1, 2), (1, 3), (3, 1), (1, 1)]
LABELS = "BCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"


def fill(grid, rnd, blanks: int) -> None:
    """Drop random pieces on free cells until ``blanks`` cells are left (if it can)."""
    h, w = len(grid), len(grid[0])
    used = {ch for row in grid for ch in row}
    free = sum(row.count(".") for row in grid)
    labels = (label for label in LABELS if label not in used)
    for _ in range(400):
        if free <= blanks:
            return
        ph, pw = rnd.choice(SHAPES)
        if ph * pw > free - blanks:
            continue
        spots = [
            (r, c)
            for r in range(h - ph + 1)
            for c in range(w - pw + 1)
            if all(grid[r + i][c + j] == "." for i in range(ph) for j in range(pw))
        ]
        if not spots:
            continue
        label = next(labels, None)
        if label is None:
            return
        r, c = rnd.choice(spots)
        for i in range(ph):
            for j in range(pw):
                grid[r + i][c + j] = label
        free -= ph * pw


def random_layout(rnd, h: int, w: int, blanks: int) -> str:
    grid = [["."] * w for _ in range(h)]
    r, c = rnd.randrange(h - 1), rnd.randrange(w - 1)
    for i in range(2):
        for j in range(2):
            grid[r + i][c + j] = "A"
    fill(grid, rnd, blanks)
    return "/".join("".join(row) for row in grid)


def mutate(board: str, rnd, blanks: int) -> str:
    """Take one or two pieces other than the goal piece out and refill the cells."""
    grid = [list(row) for row in board.split("/")]
    labels = sorted({ch for row in grid for ch in row} - {".", "A"})
    for label in rnd.sample(labels, min(len(labels), rnd.choice([1, 1, 2]))):
        grid = [["." if ch == label else ch for ch in row] for row in grid]
    fill(grid, rnd, blanks)
    return "/".join("".join(row) for row in grid)


def measure(board: str, limit: int):
    """(hardest distance, hardest board, group size, group key) or None."""
    try:
        state = parse_board(board)
        table = build_table(state.layout, state_key(state), "piece", Monitor(), limit=limit)
    except (TooBig, Exception):  # too big, or no single 2x2 piece left
        return None
    found = hardest_of_table(state.layout, table)
    if found.distance is None:
        return None
    return found.distance, found.board, len(table), group_key(table)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", required=True, help="WxH, e.g. 5x6")
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blanks", type=int, default=2)
    parser.add_argument("--max-positions", type=int, default=150_000)
    parser.add_argument("--keep", type=int, default=12)
    parser.add_argument(
        "--shapes", default="", help="piece shapes to draw from, HW each, e.g. 11,21,12,13,31"
    )
    args = parser.parse_args(argv)
    if args.shapes:
        SHAPES[:] = [(int(hw[0]), int(hw[1])) for hw in args.shapes.split(",")]
    w, h = map(int, args.size.split("x"))
    rnd = random.Random(args.seed)
    pool = {}  # group key -> (distance, board, size)
    started = time.perf_counter()
    tried = 0
    while time.perf_counter() - started < args.seconds:
        tried += 1
        best = sorted(pool.values(), reverse=True)[:8]
        if best and rnd.random() < 0.8:
            board = mutate(rnd.choice(best)[1], rnd, args.blanks)
        else:
            board = random_layout(rnd, h, w, args.blanks)
        found = measure(board, args.max_positions)
        if found is None or found[3] in pool:
            continue
        pool[found[3]] = found[:3]
        top = max(pool.values())
        print(
            f"{time.perf_counter() - started:7.1f} s  tried {tried}  groups {len(pool)}  "
            f"new {found[0]} ({found[2]:,})  best {top[0]} ({top[2]:,})",
            file=sys.stderr,
            flush=True,
        )
    for distance, board, size in sorted(pool.values(), reverse=True)[: args.keep]:
        print(json.dumps({"board": board, "piece": distance, "positions": size}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
