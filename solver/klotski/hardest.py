"""The hardest start: the position of a group farthest from solved, distance proven.

A group is a reachable set (the same in every metric: every move is a chain of
one-cell steps). Its distance table (:func:`~solver.klotski.tables.build_table`)
gives every member's exact distance by breadth-first search from all goal
positions, so the largest entry is the group's hardest start, proven. This is
how the best sliding puzzles are found (fogleman's "unsolve" for Rush Hour);
over a piece set, every placement of the pieces is grouped and each solvable
group is measured once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoardError
from ..core.results import Monitor
from .board import Layout, format_board
from .domain import Klotski
from .moves import goal_bit, layout_geometry
from .packed import PackedDistances
from .placements import all_placements, label_key
from .tables import DistanceTable, build_table, component_keys, group_key

#: the most placements a piece-set search enumerates (the classic set has 65,880)
MAX_PLACEMENTS = 1_000_000


@dataclass
class Hardest:
    """A group's hardest start: ``board`` needs ``distance`` moves, the most in its group."""

    board: str
    distance: int | None  # None: the group has no solved position
    positions: int  # the group's size
    ties: int  # how many positions of the group are that far
    group: int  # the group key (its smallest member)

    def as_dict(self) -> dict:
        return dict(self.__dict__, group=str(self.group))


def hardest_of_table(layout: Layout, table: DistanceTable) -> Hardest:
    """The farthest position of a built table (ties: the smallest key, so runs agree)."""
    distance = table.distance
    far = int(max(distance.values()))
    if isinstance(distance, PackedDistances):  # compiled: no Python loop over the group
        first, ties = distance.smallest(far), distance.count(far)
    else:
        keys = [key for key, d in distance.items() if d == far]
        first, ties = min(keys), len(keys)
    board = format_board(label_key(layout, first))
    return Hardest(board, far if far >= 0 else None, len(table), ties, group_key(table))


def hardest_in_group(layout: Layout, key: int, metric: str, mon: Monitor | None = None) -> Hardest:
    """The hardest start of ``key``'s group in ``metric`` (no size limit: offline work)."""
    table = build_table(layout, key, metric, mon or Monitor(), limit=None)
    return hardest_of_table(layout, table)


@dataclass
class PieceSetReport:
    """Every placement of a piece set, grouped; the solvable groups' hardest starts."""

    placements: int
    groups: int
    solvable_groups: int
    hardest: list[Hardest]  # one per solvable group, hardest first


def hardest_placements(
    layout: Layout,
    metric: str,
    report: Callable[[str], None] | None = None,
    mon: Monitor | None = None,
) -> PieceSetReport:
    """Group every placement of ``layout``'s pieces by reachable set and measure each
    solvable group once; ``report`` receives progress lines.

    Raises BoardError when the piece set has more than :data:`MAX_PLACEMENTS` placements.
    """
    geo = layout_geometry(layout)
    mon = mon or Monitor()
    keys = []
    for key in all_placements(geo, layout):
        keys.append(key)
        if len(keys) > MAX_PLACEMENTS:
            raise BoardError(
                f"this piece set has over {MAX_PLACEMENTS:,} placements; too many "
                "to search them all (ask for the hardest start of one layout)"
            )
    goal = goal_bit(layout)
    seen: set = set()
    found: list[Hardest] = []
    groups = 0
    for start in keys:
        if start in seen:
            continue
        groups += 1
        members = component_keys(layout, start, mon, seen)
        if any(member & goal for member in members):
            found.append(hardest_in_group(layout, start, metric, mon))
        if report and groups % 200 == 0:
            best = max((h.distance for h in found if h.distance is not None), default=None)
            report(
                f"{len(seen):,} of {len(keys):,} placements, {groups:,} groups, "
                f"{len(found):,} solvable, hardest so far {best}"
            )
    # every group kept here holds a solved position, so its distance is known
    found.sort(key=lambda h: (-(h.distance or 0), h.group))
    if report:
        report(f"all {len(keys):,} placements searched: {groups:,} groups, {len(found):,} solvable")
    return PieceSetReport(len(keys), groups, len(found), found)


def hardest_report(
    board: str,
    metric: str = "piece",
    goal: str | None = None,
    placements: bool = False,
    report: Callable[[str], None] | None = None,
) -> dict:
    """What ``python -m solver hardest klotski`` prints, as JSON-ready data.

    The layout's own distance, its group's hardest start, and with
    ``placements`` the hardest start over every placement of its pieces.
    """
    domain = Klotski(metric=metric, goal=goal)
    state = domain.parse(board)
    layout, key = state.layout, domain.key(state)
    mon = Monitor(progress=_nodes_reporter(report, "group"))
    table = build_table(layout, key, metric, mon, limit=None)
    own = table.distance[key]
    group = hardest_of_table(layout, table)
    out: dict[str, Any] = {
        "puzzle": "klotski",
        "board": domain.format(state),
        "metric": metric,
        "distance": own if own >= 0 else None,
        "positions": len(table),
        "group_hardest": group.as_dict(),
    }
    if placements:
        found = hardest_placements(layout, metric, report)
        best = found.hardest[0] if found.hardest else None
        out.update(
            placements=found.placements,
            groups=found.groups,
            solvable_groups=found.solvable_groups,
            hardest=best.as_dict() if best else None,
            top=[h.as_dict() for h in found.hardest[:10]],
        )
    else:
        out["hardest"] = group.as_dict()
    hardest = out["hardest"]
    out["beats_by"] = (
        None
        if hardest is None or hardest["distance"] is None or own < 0
        else hardest["distance"] - own
    )
    out["seconds"] = round(mon.elapsed, 3)
    return out


def _nodes_reporter(report, what: str):
    if report is None:
        return None
    return lambda p: report(f"{what}: {p.nodes:,} positions measured, {p.elapsed:.1f} s")
