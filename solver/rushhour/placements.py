"""Every placement of a Rush Hour vehicle set, and the search for its hardest start.

A vehicle set is what a board has, with its positions forgotten: the red car (its
length; it stays horizontal on the third row), how many horizontal and vertical
vehicles of length 2 and 3 there are, and the walls (which stay where they are). A
*placement* puts every vehicle somewhere on the board, each vehicle of a kind
interchangeable with the others of that kind.

Every placement lies in one cluster, and a cluster's least position (its key, the
offsets in canonical order, as an integer) has no vehicle that could slide back,
left or up: that would make a smaller key. So the compiled walk
(:func:`solver.rushhour.kernels.placements_run`) visits only placements in which
every vehicle is pressed against something behind it, in the order a board is
read (each free cell left empty or made the first cell of a vehicle), and from each
it searches the cluster breadth-first, giving up at the first position smaller
than the start: the cluster is measured from its least position only, exactly
once, its distances found from all its solved positions at once. No set of
visited positions is kept across clusters.

:func:`count_placements` counts all placements (pressed or not) without walking
them, so progress can say how far along the walk is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..core.errors import BoardError
from ..core.jit import load_cached
from ..core.results import Monitor
from ..core.text import N_
from .board import CELLS, EXIT_ROW, SIDE, Layout, relabelled
from .packed import compiled

#: the most placements a vehicle set may have to be searched (the 51-move puzzle's set
#: has 120,600,956)
MAX_PLACEMENTS = 2_000_000_000
#: the hardest starts a search keeps, farthest first
TOP = 10
SLICE = 1 << 21
#: seconds between progress lines
REPORT_EVERY = 5.0
#: the types' order in the walk: the red car, horizontal 2 and 3, vertical 2 and 3
KINDS = ((True, 2), (True, 3), (False, 2), (False, 3))


@dataclass(frozen=True)
class VehicleSet:
    """A board's vehicles with their positions forgotten (walls kept)."""

    red: int  # the red car's length
    counts: tuple[int, int, int, int]  # horizontal 2, horizontal 3, vertical 2, vertical 3
    walls: int  # the walls' cells as a mask

    @classmethod
    def of(cls, layout: Layout) -> VehicleSet:
        counts = [0, 0, 0, 0]
        for i in range(1, len(layout)):
            counts[KINDS.index((layout.horizontal[i], layout.lengths[i]))] += 1
        walls = sum(1 << cell for cell in layout.walls)
        return cls(layout.lengths[0], (counts[0], counts[1], counts[2], counts[3]), walls)

    @property
    def blanks(self) -> int:
        used = self.red + sum(
            n * length for n, (_h, length) in zip(self.counts, KINDS, strict=True)
        )
        return CELLS - bin(self.walls).count("1") - used


def count_placements(vehicles: VehicleSet) -> int:
    """How many placements ``vehicles`` has (every one, pressed or not), by counting the
    ways to fill the board cell by cell; no placement is made."""
    return _ways(vehicles).start()


def _cells(t: int, cell: int, filled: int, red: int) -> int:
    """The cells a vehicle of type ``t`` starting at ``cell`` covers, 0 if it does not fit
    (the red car only on its row)."""
    horizontal, length = ((True, red), *KINDS)[t]
    r, c = divmod(cell, SIDE)
    if t == 0 and r != EXIT_ROW:
        return 0
    if horizontal:
        if c + length > SIDE:
            return 0
        cells = ((1 << length) - 1) << cell
    else:
        if r + length > SIDE:
            return 0
        cells = sum(1 << (cell + SIDE * k) for k in range(length))
    return 0 if cells & filled else cells


class _Ways:
    """Ways to fill the rest of a board with what is left of a vehicle set, remembered
    by (cell, the cells taken from it on, the vehicles and empty cells left): the
    cells before ``cell`` are always all taken, so that is all a count depends on.
    Vehicles left are counted 5 bits a type (the red car first)."""

    def __init__(self, vehicles: VehicleSet):
        self.vehicles = vehicles
        self.shapes = [
            [_cells(t, cell, 0, vehicles.red) for cell in range(CELLS)] for t in range(5)
        ]
        self.memo: dict[int, int] = {}

    def left(self, counts) -> int:
        return sum(n << (5 * t) for t, n in enumerate(counts))

    def start(self) -> int:
        v = self.vehicles
        return self(0, v.walls, self.left((1, *v.counts)), v.blanks)

    def __call__(self, cell: int, filled: int, left: int, blanks: int) -> int:
        while cell < CELLS and filled >> cell & 1:
            cell += 1
        if cell == CELLS:
            return 1 if left == 0 and blanks == 0 else 0
        key = (((filled >> cell) << 6 | cell) << 40) | left << 6 | blanks
        found = self.memo.get(key)
        if found is not None:
            return found
        total = 0
        if blanks:
            total += self(cell + 1, filled | 1 << cell, left, blanks - 1)
        for t in range(5):
            if left >> (5 * t) & 31:
                cells = self.shapes[t][cell]
                if cells and not cells & filled:
                    total += self(cell + 1, filled | cells, left - (1 << (5 * t)), blanks)
        self.memo[key] = total
        return total


@lru_cache(maxsize=4)
def _ways(vehicles: VehicleSet) -> _Ways:
    return _Ways(vehicles)


def walked(vehicles: VehicleSet, cell_at, choice, depth: int) -> int:
    """How many placements come before the walk's current one, in the walk's order
    (each cell: empty first, then the types in order): its progress."""
    ways = _ways(vehicles)
    counts = [1, *vehicles.counts]
    blanks = vehicles.blanks
    filled = vehicles.walls
    before = 0
    for d in range(depth + 1):
        cell, ch = int(cell_at[d]), int(choice[d])
        left = ways.left(counts)
        for alternative in range(ch):
            if alternative == 0:
                if blanks:
                    before += ways(cell + 1, filled | 1 << cell, left, blanks - 1)
            elif counts[alternative - 1]:
                cells = _cells(alternative - 1, cell, filled, vehicles.red)
                if cells:
                    before += ways(
                        cell + 1, filled | cells, left - (1 << 5 * (alternative - 1)), blanks
                    )
        if ch == 0:
            blanks -= 1
            filled |= 1 << cell
        elif ch > 0:
            filled |= _cells(ch - 1, cell, filled, vehicles.red)
            counts[ch - 1] -= 1
    return before


@dataclass
class Found:
    """One cluster's hardest start: ``board`` needs ``distance`` slides, the most in its
    cluster of ``positions``; ``ties`` positions of it are that far."""

    board: str
    distance: int
    positions: int
    ties: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class PlacementReport:
    placements: int  # every placement of the set
    pressed: int  # placements walked: no vehicle could slide back
    groups: int  # clusters
    solvable_groups: int
    positions: int  # positions in all clusters (equals ``placements`` once done)
    hardest: list[Found]  # the farthest starts, one per cluster, farthest first
    by_distance: dict[int, int]  # solvable clusters by their hardest start's distance
    seconds: float
    #: with ``per_distance``: up to that many clusters' hardest starts for each distance
    samples: dict[int, list[Found]]


def search_placements(
    layout: Layout | VehicleSet,
    mon: Monitor | None = None,
    report: Callable[[str], None] | None = None,
    top: int = TOP,
    per_distance: int = 0,
) -> PlacementReport:
    """Every placement of ``layout``'s vehicle set (or of a set given), each cluster measured once: the
    hardest starts over all of them. ``mon`` brings the budget and cancel (checked
    between compiled slices); ``report`` receives a progress line about every few
    seconds. With ``per_distance``, up to that many clusters of each distance are kept
    too (a level pack's sample: scripts/make_rushhour_levels.py), the same ones on every
    run, spread over the walk by a hash of their hardest start. Raises BoardError
    past :data:`MAX_PLACEMENTS` placements."""
    import numpy as np

    mon = mon or Monitor()
    vehicles = layout if isinstance(layout, VehicleSet) else VehicleSet.of(layout)
    walls = tuple(cell for cell in range(CELLS) if vehicles.walls >> cell & 1)
    total = count_placements(vehicles)
    if total > MAX_PLACEMENTS:
        raise BoardError(
            N_(
                "this vehicle set has %(count)s placements; at most %(most)s can be "
                "searched (ask for the hardest start of the board's own cluster)"
            ),
            count=f"{total:,}",
            most=f"{MAX_PLACEMENTS:,}",
        )
    k = compiled()
    pctx = np.zeros(k.PCTX_SIZE, np.int64)
    pctx[k.P_BLANKS] = vehicles.blanks
    pgeo = np.array([vehicles.walls, vehicles.red, top, per_distance], np.int64)
    counts = np.array([1, *vehicles.counts], np.int64)
    depth = CELLS + 1
    cell_at = np.zeros(depth, np.int64)
    choice = np.full(depth, -1, np.int64)
    filled_at = np.zeros(depth, np.int64)
    occ_at = np.zeros(depth, np.int64)
    first = 0
    while vehicles.walls >> first & 1:
        first += 1
    cell_at[0], filled_at[0], occ_at[0] = first, vehicles.walls, vehicles.walls
    geo = np.array([0, vehicles.walls, 0], np.int64)
    cover = np.zeros(18 * k.STRIDE, np.int64)
    tops = np.zeros(18, np.int64)
    top_d = np.full(top, -1, np.int64)
    top_size = np.zeros(top, np.int64)
    top_ties = np.zeros(top, np.int64)
    top_cells = np.zeros(36 * top, np.int64)
    by_distance = np.zeros(k.MAX_PICK_DISTANCE + 1, np.int64)
    slots = (k.MAX_PICK_DISTANCE + 1) * max(per_distance, 1)
    picks = np.zeros(3 * slots, np.int64)
    pick_cells = np.zeros(36 * slots, np.int64)
    pick_fill = np.zeros(k.MAX_PICK_DISTANCE + 1, np.int64)
    capacity = 1 << 12
    work = _Work(np, capacity)
    walk = (pctx, pgeo, counts, cell_at, choice, filled_at, occ_at, geo, cover, tops)
    tail = (top_d, top_size, top_ties, top_cells, by_distance, picks, pick_cells, pick_fill)
    load_cached(k.placements_run, *walk, *work.arrays(), *tail, SLICE)
    next_line = mon.elapsed + REPORT_EVERY
    while True:
        before = int(pctx[k.P_WORK])
        status = k.placements_run(*walk, *work.arrays(), *tail, SLICE)
        mon.count += int(pctx[k.P_WORK]) - before
        if status == k.DONE:
            break
        if status == k.P_FULL:
            work.grow()
        mon.check(0, 0)
        if report is not None and mon.elapsed >= next_line:
            next_line = mon.elapsed + REPORT_EVERY
            share = walked(vehicles, cell_at, choice, int(pctx[k.P_DEPTH])) / max(total, 1)
            best = int(top_d[0])
            report(
                f"{share:.1%} of {total:,} placements walked, "
                f"{int(pctx[k.P_GROUPS]):,} clusters, {int(pctx[k.P_SOLVABLE]):,} solvable, "
                f"hardest so far {best if best >= 0 else '-'}, {mon.elapsed:.0f} s"
            )
    found = [
        Found(
            _board(walls, top_cells[36 * j : 36 * (j + 1)]),
            int(top_d[j]),
            int(top_size[j]),
            int(top_ties[j]),
        )
        for j in range(int(pctx[k.P_TOP_FILL]))
    ]
    samples = {}
    for d in np.flatnonzero(pick_fill) if per_distance else ():
        slots = range(int(d) * per_distance, int(d) * per_distance + int(pick_fill[d]))
        samples[int(d)] = sorted(
            (
                Found(
                    _board(walls, pick_cells[36 * j : 36 * (j + 1)]),
                    int(d),
                    int(picks[3 * j + 1]),
                    int(picks[3 * j + 2]),
                )
                for j in slots
            ),
            key=lambda f: f.board,
        )
    out = PlacementReport(
        placements=total,
        pressed=int(pctx[k.P_LEAVES]),
        groups=int(pctx[k.P_GROUPS]),
        solvable_groups=int(pctx[k.P_SOLVABLE]),
        positions=int(pctx[k.P_POSITIONS]),
        hardest=found,
        by_distance={d: int(n) for d, n in enumerate(by_distance) if n},
        seconds=mon.elapsed,
        samples=samples,
    )
    if report is not None:
        report(
            f"all {total:,} placements searched: {out.groups:,} clusters, "
            f"{out.solvable_groups:,} solvable, {mon.elapsed:.1f} s"
        )
    return out


class _Work:
    """The per-cluster arrays of the walk (queue, visited set, distances), grown when a
    cluster outgrows them."""

    def __init__(self, np, capacity: int):
        self.np = np
        self._make(capacity)

    def _make(self, capacity: int) -> None:
        np = self.np
        self.keys = np.zeros(capacity, np.int64)
        self.goals = np.zeros(capacity, np.int64)
        self.table = np.zeros(2 * capacity, np.int64)
        self.stamps = np.zeros(2 * capacity, np.int64)
        self.dist = np.zeros(2 * capacity, np.int16)

    def grow(self) -> None:
        self._make(2 * self.keys.size)

    def arrays(self):
        return self.keys, self.table, self.stamps, self.dist, self.goals


def _board(walls: tuple[int, ...], codes) -> str:
    """The board of a placement given as cell codes (vehicle index + 1, -1 a wall, 0
    empty), its vehicles lettered afresh (:func:`~solver.rushhour.board.relabelled`)."""
    cells: dict[int, list[int]] = {}
    for cell, code in enumerate(codes):
        if int(code) > 0:
            cells.setdefault(int(code), []).append(cell)
    labels, horizontal, lengths, lines, offsets = [], [], [], [], []
    for code in sorted(cells):
        spots = cells[code]
        row, column = divmod(spots[0], SIDE)
        flat = len(spots) > 1 and spots[1] == spots[0] + 1
        labels.append("A" if code == 1 else "?")
        horizontal.append(flat)
        lengths.append(len(spots))
        lines.append(row if flat else column)
        offsets.append(column if flat else row)
    fresh = Layout(tuple(labels), tuple(horizontal), tuple(lengths), tuple(lines), walls)
    return relabelled(fresh, tuple(offsets))
