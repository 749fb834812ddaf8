"""Rush Hour notation: 36 characters <-> a labelled position, with strict validation.

A board is the 6x6 grid's rows top to bottom with no separators (Michael Fogleman's
notation, so boards from his database paste in): ``o`` or ``.`` empty, ``x`` a wall,
``A`` the red car, ``B``-``Z`` the other vehicles, each 2 or 3 cells in one straight
line. The red car lies horizontally on the third row; the exit is at that row's right.

A vehicle never leaves its line (its row if horizontal, its column if vertical) and
never passes another vehicle on that line, so a parsed board fixes a :class:`Layout`
(the walls, and each vehicle's direction, length and line) and every position of its
cluster is one *offset* per vehicle: how far along its line it stands. Vehicles are
kept in a canonical order, the red car first, then horizontal ones by row and column,
then vertical ones by column and row; that order never changes within a cluster.

Canonical form: :func:`format_board` writes ``o`` for empty cells and keeps the
vehicles' own letters, so ``format(parse(x)) == x`` for any board written with ``o``
(one written with ``.`` comes back with ``o``). Labels never reach the search: a
position's key (:mod:`solver.rushhour.moves`) is its offsets in canonical order, so
two boards that differ only in their letters are one position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.errors import BoardError
from ..core.text import N_, clipped

SIDE = 6
CELLS = SIDE * SIDE
#: the red car's row (0-based: the third row); the exit is on its right
EXIT_ROW = 2
RED = "A"
WALL = "x"
EMPTY = "o"
EMPTY_CHARS = frozenset("o.")
VEHICLE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
LENGTHS = (2, 3)
#: how much of a bad board an error quotes
QUOTE_CHARS = 40


@dataclass(frozen=True)
class Layout:
    """A cluster's fixed facts: the walls, and per vehicle (canonical order, red first)
    its label, direction, length and line.

    ``signature`` is what the search depends on (labels left out): two boards with
    the same signature differ only in where the vehicles stand along their lines.
    """

    labels: tuple[str, ...]
    horizontal: tuple[bool, ...]
    lengths: tuple[int, ...]
    lines: tuple[int, ...]
    walls: tuple[int, ...]
    signature: tuple = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "signature", (self.horizontal, self.lengths, self.lines, self.walls)
        )

    def __len__(self) -> int:
        return len(self.labels)

    def cell(self, vehicle: int, offset: int, along: int = 0) -> int:
        """The cell ``along`` cells into ``vehicle`` standing at ``offset``."""
        if self.horizontal[vehicle]:
            return self.lines[vehicle] * SIDE + offset + along
        return (offset + along) * SIDE + self.lines[vehicle]

    def top_left(self, vehicle: int, offset: int) -> tuple[int, int]:
        """(row, column) of the vehicle's first cell."""
        return divmod(self.cell(vehicle, offset), SIDE)

    def max_offset(self, vehicle: int) -> int:
        return SIDE - self.lengths[vehicle]

    @property
    def goal_offset(self) -> int:
        """The red car's offset with its right end in the last column."""
        return SIDE - self.lengths[0]


class RushState(NamedTuple):
    """A labelled position: ``offsets[i]`` is how far along its line vehicle
    ``layout.labels[i]`` stands (its column if horizontal, its row if vertical)."""

    layout: Layout
    offsets: tuple[int, ...]


def _quote(text: str) -> str:
    return repr(clipped(text, QUOTE_CHARS))


def parse_board(text: object) -> RushState:
    """Parse board text; raise :class:`BoardError` quoting it and naming the problem."""
    if not isinstance(text, str):
        raise BoardError(N_("board must be text"))
    if text == "":
        raise BoardError(N_("board is empty"))
    board = _quote(text)
    if len(text) != CELLS:
        raise BoardError(
            N_(
                "board %(board)s has %(cells)s cells; a Rush Hour board has 36, "
                "6 rows of 6 written top to bottom with no separators"
            ),
            board=board,
            cells=len(text),
        )
    cells: dict[str, list[int]] = {}
    walls = []
    for i, ch in enumerate(text):
        if ch in EMPTY_CHARS:
            continue
        if ch == WALL:
            walls.append(i)
        elif ch in VEHICLE_CHARS:
            cells.setdefault(ch, []).append(i)
        else:
            row, column = divmod(i, SIDE)
            raise BoardError(
                N_(
                    "board %(board)s, row %(row)s, column %(column)s: %(char)s is not a "
                    "vehicle (A-Z), a wall (x) or empty (o or .)"
                ),
                board=board,
                row=row + 1,
                column=column + 1,
                char=repr(ch),
            )
    if RED not in cells:
        raise BoardError(N_("board %(board)s has no red car A"), board=board)
    found = []
    for label in sorted(cells):
        spots = cells[label]
        rows = {p // SIDE for p in spots}
        columns = {p % SIDE for p in spots}
        first, last = spots[0], spots[-1]
        if len(rows) == 1:
            horizontal = True
            straight = last - first == len(spots) - 1
        elif len(columns) == 1:
            horizontal = False
            straight = last - first == (len(spots) - 1) * SIDE
        else:
            straight = False
        if not straight:
            raise BoardError(
                N_("board %(board)s: vehicle %(vehicle)s is not a straight line"),
                board=board,
                vehicle=label,
            )
        if len(spots) not in LENGTHS:
            raise BoardError(
                N_(
                    "board %(board)s: vehicle %(vehicle)s is %(cells)s cell(s) long; vehicles are 2 or 3"
                ),
                board=board,
                vehicle=label,
                cells=len(spots),
            )
        row, column = divmod(first, SIDE)
        if label == RED and not (horizontal and row == EXIT_ROW):
            raise BoardError(
                N_("board %(board)s: the red car A must lie horizontally on the third row"),
                board=board,
            )
        line, offset = (row, column) if horizontal else (column, row)
        found.append((label != RED, not horizontal, line, offset, label, len(spots)))
    found.sort()
    layout = Layout(
        labels=tuple(v[4] for v in found),
        horizontal=tuple(not v[1] for v in found),
        lengths=tuple(v[5] for v in found),
        lines=tuple(v[2] for v in found),
        walls=tuple(walls),
    )
    return RushState(layout, tuple(v[3] for v in found))


def format_board(state: RushState) -> str:
    """The board text of ``state`` (``o`` for empty); the inverse of :func:`parse_board`."""
    layout = state.layout
    grid = [EMPTY] * CELLS
    for cell in layout.walls:
        grid[cell] = WALL
    for i, (label, offset) in enumerate(zip(layout.labels, state.offsets, strict=True)):
        for along in range(layout.lengths[i]):
            grid[layout.cell(i, offset, along)] = label
    return "".join(grid)


def relabelled(layout: Layout, offsets: tuple[int, ...]) -> str:
    """The board with its vehicles lettered afresh: ``A`` the red car, then ``B``, ``C``
    ... in reading order of their first cells (how placements are written)."""
    firsts = sorted(range(1, len(layout)), key=lambda i: layout.cell(i, offsets[i]))
    letters = {i: chr(ord("B") + n) for n, i in enumerate(firsts)}
    letters[0] = RED
    fresh = Layout(
        tuple(letters[i] for i in range(len(layout))),
        layout.horizontal,
        layout.lengths,
        layout.lines,
        layout.walls,
    )
    return format_board(RushState(fresh, offsets))
