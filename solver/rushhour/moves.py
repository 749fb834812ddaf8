"""Rush Hour moves: labelled slides for players, and integer keys for the searches.

A move slides one vehicle along its line, any distance over free cells: one move
whatever the distance (the count Fogleman's database uses). Every slide is a chain
of one-cell steps, so the cluster (every position reachable) is the same whether
one counts slides or steps; distances here are always in slides.

The key. Vehicle ``i`` (canonical order, :mod:`solver.rushhour.board`) keeps its
offset in bits ``3i`` to ``3i+2`` of one integer: at most 18 vehicles fit on 36
cells, so a key takes at most 54 bits. :class:`Geometry` holds, per vehicle and
offset, the cells covered as a 36-bit mask; a position's occupied cells are the
walls and its vehicles' masks, and a slide is legal when the cells it passes are
free. The domain's key (:func:`state_key`) adds the layout's *tag* above bit 56,
so positions of different layouts never compare equal.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from .board import SIDE, Layout, RushState

BITS = 3
#: the packed offsets' bits; a domain key's tag sits above them
PACK_BITS = 56
PACK_MASK = (1 << PACK_BITS) - 1


class RushMove(NamedTuple):
    """``piece`` slides ``steps`` cells (negative: left or up) from top-left ``start``."""

    piece: str
    horizontal: bool
    start: tuple[int, int]
    steps: int

    @property
    def path(self) -> tuple[tuple[int, int], ...]:
        """The top-left (row, column) after each one-cell step, the start first."""
        r, c = self.start
        sign = 1 if self.steps > 0 else -1
        dr, dc = (0, sign) if self.horizontal else (sign, 0)
        return tuple((r + dr * k, c + dc * k) for k in range(abs(self.steps) + 1))


class Geometry:
    """Masks for one layout signature: ``cover[i][o]`` the cells vehicle ``i`` covers at
    offset ``o`` (a 36-bit mask), ``walls`` the walls' cells, ``goal`` the red car's
    offset at the exit."""

    def __init__(self, layout: Layout):
        self.count = len(layout)
        self.walls = sum(1 << cell for cell in layout.walls)
        self.cover = [
            [
                sum(1 << layout.cell(i, offset, along) for along in range(layout.lengths[i]))
                for offset in range(layout.max_offset(i) + 1)
            ]
            for i in range(self.count)
        ]
        self.goal = layout.goal_offset
        self.shifts = [BITS * i for i in range(self.count)]

    def occupancy(self, key: int) -> int:
        occ = self.walls
        for shift, cover in zip(self.shifts, self.cover, strict=True):
            occ |= cover[key >> shift & 7]
        return occ

    def is_goal(self, key: int) -> bool:
        return key & 7 == self.goal

    def successors(self, key: int, occ: int) -> list[tuple[int, int]]:
        """(key, occupied cells) after every slide from ``key`` (whose cells are ``occ``)."""
        out = []
        for shift, cover in zip(self.shifts, self.cover, strict=True):
            offset = key >> shift & 7
            rest = occ ^ cover[offset]
            base = key - (offset << shift)
            to = offset - 1
            while to >= 0 and not cover[to] & rest:
                out.append((base | to << shift, rest | cover[to]))
                to -= 1
            to = offset + 1
            top = len(cover)
            while to < top and not cover[to] & rest:
                out.append((base | to << shift, rest | cover[to]))
                to += 1
        return out


#: geometries by layout signature (labels play no part), the most recent kept
_geometries: dict[tuple, Geometry] = {}
MAX_GEOMETRIES = 256


def geometry(layout: Layout) -> Geometry:
    """The shared :class:`Geometry` of ``layout``'s signature."""
    found = _geometries.get(layout.signature)
    if found is None:
        if len(_geometries) >= MAX_GEOMETRIES:
            _geometries.clear()
        found = _geometries[layout.signature] = Geometry(layout)
    return found


_tags: dict[tuple, int] = {}
_tag_lock = threading.Lock()


def layout_tag(layout: Layout) -> int:
    """A small number naming ``layout``'s signature in this process (keys carry it)."""
    tag = _tags.get(layout.signature)
    if tag is None:
        with _tag_lock:
            tag = _tags.setdefault(layout.signature, len(_tags) + 1)
    return tag


def pack(offsets: tuple[int, ...]) -> int:
    """The packed key of a tuple of offsets (labels play no part)."""
    key = 0
    for i, offset in enumerate(offsets):
        key |= offset << (BITS * i)
    return key


def unpack(key: int, count: int) -> tuple[int, ...]:
    return tuple(key >> (BITS * i) & 7 for i in range(count))


def state_key(state: RushState) -> int:
    """The domain's key: the packed offsets under the layout's tag."""
    return pack(state.offsets) | layout_tag(state.layout) << PACK_BITS


def labelled_moves(state: RushState) -> list[tuple[RushMove, RushState]]:
    """Every legal (move, next state) of a labelled position."""
    layout, offsets = state.layout, state.offsets
    geo = geometry(layout)
    occ = geo.occupancy(pack(offsets))
    out = []
    for i, cover in enumerate(geo.cover):
        offset = offsets[i]
        rest = occ ^ cover[offset]
        start = layout.top_left(i, offset)
        for step, stop in ((-1, -1), (1, len(cover))):
            to = offset + step
            while to != stop and not cover[to] & rest:
                move = RushMove(layout.labels[i], layout.horizontal[i], start, to - offset)
                out.append((move, RushState(layout, offsets[:i] + (to,) + offsets[i + 1 :])))
                to += step
    return out


def is_solved(state: RushState) -> bool:
    return state.offsets[0] == state.layout.goal_offset


def describe(move: RushMove) -> str:
    """``B left 2``, ``A right 3``, ``C down``."""
    if move.horizontal:
        way = "right" if move.steps > 0 else "left"
    else:
        way = "down" if move.steps > 0 else "up"
    count = abs(move.steps)
    return f"{move.piece} {way}" if count == 1 else f"{move.piece} {way} {count}"


def blockers(state: RushState) -> int | None:
    """How many vehicles stand between the red car and the exit; None when a wall or a
    horizontal vehicle does (it can never pass them)."""
    layout, offsets = state.layout, state.offsets
    red_end = offsets[0] + layout.lengths[0]
    path = {layout.lines[0] * SIDE + c for c in range(red_end, SIDE)}
    if path & set(layout.walls):
        return None
    count = 0
    for i in range(1, len(layout)):
        cells = {layout.cell(i, offsets[i], along) for along in range(layout.lengths[i])}
        if cells & path:
            if layout.horizontal[i]:
                return None
            count += 1
    return count
