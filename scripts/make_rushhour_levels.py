"""Make Rush Hour's level packs: every level the hardest start of its cluster (offline).

Each vehicle set of :data:`SETS` (the red car and how many cars and trucks lie or
stand, no walls or the walls named) is searched over every placement of its
vehicles (:func:`solver.rushhour.placements.search_placements`, the search behind
``python -m solver hardest rushhour B --placements``): each cluster is measured
once, from all its solved positions, and up to :data:`PER_SET` clusters of each
length are kept, the same ones on every run. A cluster's sample is its hardest
start, so every level is one. From those, :data:`PER_LENGTH` of each length from
:data:`SHORTEST` to :data:`LONGEST` are taken, the sets in turn (clusters of at
most :data:`MAX_POSITIONS` positions: the coach builds a level's table at once,
and the lab draws it), then graded again (solver/rushhour/grading.py: proven
length, traps, cluster) and written as four packs by length.

No level is another's cluster: sets of different vehicles share no cluster, and a
set's search measures each of its clusters once. Nor is one the mirror image of
another: a 6x6 board's only reflection that keeps the red car on the third row and
the exit on the right is the identity (top-bottom puts the red car on the fourth
row, left-right puts the exit on the left), so a mirror image is no board of this
notation and nothing is left to deduplicate.

    .venv/bin/python scripts/make_rushhour_levels.py           # search and write
    .venv/bin/python scripts/make_rushhour_levels.py --check   # exit 1 if a fact is stale

``--samples FILE`` keeps the searches' samples (JSON) between runs, so choosing
again takes seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.rushhour.board import CELLS  # noqa: E402
from solver.rushhour.grading import grade  # noqa: E402
from solver.rushhour.levels import LEVELS_DIR, PACKS, load  # noqa: E402
from solver.rushhour.placements import VehicleSet, count_placements, search_placements  # noqa: E402

#: the vehicle sets searched: (cars lying, trucks lying, cars standing, trucks
#: standing) beside the red car, and the walls' cells (0-based, row by row). Sets of
#: 12 to 14 vehicles hold the long clusters; the first is the 51-move puzzle's.
SETS: tuple[tuple[tuple[int, int, int, int], tuple[int, ...]], ...] = (
    ((4, 1, 5, 2), ()),
    ((4, 1, 6, 0), ()),
    ((4, 1, 5, 1), ()),
    ((5, 1, 4, 1), ()),
    ((4, 0, 7, 1), ()),
    ((5, 0, 6, 0), ()),
    ((4, 1, 4, 2), ()),
    ((5, 1, 5, 0), ()),
    ((3, 1, 6, 1), ()),
    ((6, 0, 5, 1), ()),
    ((5, 0, 7, 0), ()),
    ((4, 0, 6, 2), ()),
    ((5, 0, 5, 2), ()),
    ((4, 1, 6, 0), (5,)),
    ((5, 1, 4, 1), (3,)),
    ((3, 1, 6, 0), (4, 34)),
    ((5, 1, 5, 1), ()),
    ((4, 1, 6, 1), ()),
    ((3, 1, 5, 2), ()),
    ((5, 1, 6, 0), (5,)),
    ((5, 1, 6, 0), (33,)),
    ((4, 1, 5, 0), (5, 31)),
    ((3, 1, 6, 0), (1, 34)),
    ((5, 1, 4, 1), (29,)),
    ((4, 0, 7, 1), (35,)),
    ((5, 1, 5, 0), (4,)),
    ((4, 1, 4, 1), (30,)),
    ((4, 1, 6, 0), (22,)),
    ((5, 1, 5, 0), (10, 35)),
)
#: clusters kept per set and length
PER_SET = 8
#: levels per length, and the lengths
PER_LENGTH = 6
SHORTEST, LONGEST = 10, 51
#: the largest cluster a level may have
MAX_POSITIONS = 60_000
#: the packs by length: (name, shortest, longest)
PACK_LENGTHS = (
    ("rushhour-beginner", 10, 19),
    ("rushhour-intermediate", 20, 29),
    ("rushhour-advanced", 30, 39),
    ("rushhour-expert", 40, 51),
)
ABOUT = (
    "Rush Hour puzzles found by the arcade's own search: every placement of a set of "
    "vehicles, each cluster (the positions reachable from one another) measured from "
    "all its solved positions, its hardest start kept. 'moves' is the proven shortest "
    "solution; computed by scripts/make_rushhour_levels.py."
)
TITLES = {
    "rushhour-beginner": (
        "Rush Hour: beginner",
        "Ten to nineteen moves: each the hardest start of its cluster.",
    ),
    "rushhour-intermediate": (
        "Rush Hour: intermediate",
        "Twenty to twenty-nine moves, still each the farthest its cars can be from the exit.",
    ),
    "rushhour-advanced": (
        "Rush Hour: advanced",
        "Thirty to thirty-nine moves: long detours before the red car gets out.",
    ),
    "rushhour-expert": (
        "Rush Hour: expert",
        "Forty to fifty-one moves, up to the hardest 6x6 puzzle without walls.",
    ),
}


def vehicle_set(counts, walls) -> VehicleSet:
    return VehicleSet(2, tuple(counts), sum(1 << cell for cell in walls))


def search(samples_file: Path | None) -> dict[str, dict[int, list[dict]]]:
    """Each set's samples by length ({set name: {length: [found, ...]}}), searched or read
    back from ``samples_file``."""
    known = json.loads(samples_file.read_text()) if samples_file and samples_file.is_file() else {}
    found = {}
    for counts, walls in SETS:
        name = f"{counts}{walls}"
        if name not in known:
            vehicles = vehicle_set(counts, walls)
            started = time.perf_counter()
            print(f"{name}: {count_placements(vehicles):,} placements", flush=True)
            report = search_placements(vehicles, per_distance=PER_SET, report=print)
            known[name] = {
                str(d): [pick.as_dict() for pick in picks] for d, picks in report.samples.items()
            }
            print(f"{name}: longest {max(report.samples)}, {time.perf_counter() - started:.0f} s")
            if samples_file:
                samples_file.write_text(json.dumps(known))
        found[name] = {int(d): picks for d, picks in known[name].items()}
    return found


def choose(found: dict[str, dict[int, list[dict]]]) -> list[dict]:
    """:data:`PER_LENGTH` clusters of each length, the sets in turn, small ones only."""
    chosen = []
    for length in range(SHORTEST, LONGEST + 1):
        queues = [
            [p for p in by_length.get(length, []) if p["positions"] <= MAX_POSITIONS]
            for by_length in found.values()
        ]
        turn = length % len(queues)  # each length starts at another set: walls come too
        queues = queues[turn:] + queues[:turn]
        taken = []
        while len(taken) < PER_LENGTH and any(queues):
            for queue in queues:
                if queue and len(taken) < PER_LENGTH:
                    taken.append(queue.pop(0))
        chosen += sorted(taken, key=lambda p: (p["positions"], p["board"]))
    boards = [p["board"] for p in chosen]
    assert len(set(boards)) == len(boards) and all(len(b) == CELLS for b in boards)
    return chosen


def packs_of(chosen: list[dict]) -> dict[str, dict]:
    """The four packs, each level graded again (its facts are the grading's, not the
    search's: the two must agree)."""
    packs = {}
    for name, low, high in PACK_LENGTHS:
        title, summary = TITLES[name]
        levels = []
        for pick in (p for p in chosen if low <= p["distance"] <= high):
            facts = grade(pick["board"])
            assert facts["moves"] == facts["group"]["farthest"] == pick["distance"], pick
            assert facts["group"]["positions"] == pick["positions"], pick
            levels.append(
                {
                    "name": f"{title.split(': ')[1].capitalize()} {len(levels) + 1}",
                    "board": pick["board"],
                    **facts,
                }
            )
        packs[name] = {"title": title, "summary": summary, "about": ABOUT, "levels": levels}
    return packs


def check() -> list[str]:
    """Every shipped level graded again: the lines that name a stale fact."""
    stale = []
    for name in PACKS:
        for level in load(name)["levels"]:
            facts = grade(level["board"])
            if {key: level.get(key) for key in facts} != facts:
                stale.append(f"{name} {level['name']}: {facts}")
    return stale


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only regrade the shipped levels")
    parser.add_argument("--samples", type=Path, help="keep the searches' samples in this file")
    args = parser.parse_args(argv)
    if args.check:
        stale = check()
        for line in stale:
            print("stale:", line)
        return 1 if stale else 0
    started = time.perf_counter()
    chosen = choose(search(args.samples))
    for name, pack in packs_of(chosen).items():
        path = LEVELS_DIR / f"{name}.json"
        path.write_text(json.dumps(pack, indent=1) + "\n", encoding="utf-8")
        lengths = [level["moves"] for level in pack["levels"]]
        print(f"{name}: {len(lengths)} levels, {min(lengths)} to {max(lengths)} moves")
    print(f"{len(chosen)} levels in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
