"""The hardest start: the position of a cluster farthest from solved, distance proven.

A cluster's distance table (:func:`~solver.rushhour.tables.build_table`) gives every
member's exact distance by breadth-first search from all its solved positions, so
its largest entry is the cluster's hardest start, proven. Over a vehicle set, every
placement of its vehicles is searched and each cluster measured once
(:mod:`solver.rushhour.placements`); that is how Fogleman's database of the hardest
6x6 puzzles was made, and its rows are the checks.

"Cluster size" is counted as that database counts it: every position reachable from
the board, the solved ones and the board itself included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.results import Budget, Cancel, Monitor
from .board import RushState, format_board, parse_board
from .moves import pack, unpack
from .placements import search_placements
from .tables import build_table


def hardest_report(
    board: str,
    placements: bool = False,
    report: Callable[[str], None] | None = None,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
) -> dict:
    """What ``python -m solver hardest rushhour`` prints, as JSON-ready data.

    The board's own distance, its cluster's size and hardest start, and with
    ``placements`` the hardest start over every placement of its vehicles.
    ``report`` receives progress lines; ``budget`` and ``cancel`` hold for each of the
    two searches (StopSearch when they say stop).
    """
    state = parse_board(board)
    layout, key = state.layout, pack(state.offsets)
    mon = Monitor(budget, cancel, _nodes_reporter(report))
    table = build_table(layout, key, mon, limit=None)
    own = table.distance[key]
    far, least, ties = table.hardest()
    group = {
        "board": format_board(RushState(layout, unpack(least, len(layout)))),
        "distance": far if far >= 0 else None,
        "positions": len(table),
        "ties": ties,
    }
    out: dict[str, Any] = {
        "puzzle": "rushhour",
        "board": format_board(state),
        "distance": own if own >= 0 else None,
        "positions": len(table),
        "group_hardest": group,
    }
    if placements:
        found = search_placements(layout, Monitor(budget, cancel), report)
        best = found.hardest[0].as_dict() if found.hardest else None
        out.update(
            placements=found.placements,
            pressed=found.pressed,
            groups=found.groups,
            solvable_groups=found.solvable_groups,
            grouped_positions=found.positions,
            hardest=best,
            top=[h.as_dict() for h in found.hardest],
            by_distance={str(d): n for d, n in sorted(found.by_distance.items())},
        )
    else:
        out["hardest"] = group
    hardest = out["hardest"]
    out["beats_by"] = (
        None
        if hardest is None or hardest["distance"] is None or own < 0
        else hardest["distance"] - own
    )
    out["seconds"] = round(mon.elapsed, 3)
    return out


def _nodes_reporter(report):
    if report is None:
        return None
    return lambda p: report(f"cluster: {p.nodes:,} positions measured, {p.elapsed:.1f} s")
