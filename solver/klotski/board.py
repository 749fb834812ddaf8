"""Klotski notation: board text <-> a labelled position, with strict validation.

A board is rows joined by ``/``; each piece is one letter or digit written on
every cell it covers, ``.`` is empty. Pieces must be solid rectangles. Parsing
yields a :class:`Layout` (what the level is: size, labels, shapes, goal) and
the pieces' top-left cells; everything the search needs is derived from those.

Cells are numbered row-major, ``r * width + c``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.errors import BoardError
from ..core.text import N_

MAX_SIDE = 10  # rows and columns
MAX_PIECES = 36
LABEL_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
GOAL_PATTERN = re.compile(r"([A-Za-z0-9])@(\d{1,3}),(\d{1,3})")

Shape = tuple[int, int]  # (height, width)


@dataclass(frozen=True)
class GoalSpec:
    """A requested goal: piece ``label`` with its top-left at (row, col), 0-based."""

    label: str
    row: int
    col: int

    @staticmethod
    def parse(text: object) -> GoalSpec:
        if not isinstance(text, str):
            raise BoardError(N_("goal must be text like A@3,0 (piece@row,column)"))
        match = GOAL_PATTERN.fullmatch(text.strip())
        if not match:
            raise BoardError(
                N_("goal %(goal)s must look like A@3,0 (piece@row,column, 0-based)"),
                goal=repr(text),
            )
        return GoalSpec(match.group(1), int(match.group(2)), int(match.group(3)))


@dataclass(frozen=True)
class Layout:
    """A level's fixed facts: board size, each piece's label and shape, the goal.

    Two boards with the same Layout differ only in where the pieces stand.
    ``classes`` lists the distinct shapes (sorted); pieces of one shape are
    interchangeable, so the canonical key only records, per shape, which
    top-left cells are taken. The goal is met when ANY piece of the goal
    piece's shape stands with its top-left on ``goal_top`` (with a unique
    goal shape, the usual case, that is exactly the named piece).
    """

    height: int
    width: int
    labels: tuple[str, ...]
    shapes: tuple[Shape, ...]
    goal_label: str
    goal_top: int
    classes: tuple[Shape, ...] = field(init=False, compare=False)
    piece_class: tuple[int, ...] = field(init=False, compare=False)
    goal_class: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        classes = tuple(sorted(set(self.shapes)))
        object.__setattr__(self, "classes", classes)
        object.__setattr__(self, "piece_class", tuple(classes.index(s) for s in self.shapes))
        goal_shape = self.shapes[self.labels.index(self.goal_label)]
        object.__setattr__(self, "goal_class", classes.index(goal_shape))

    @property
    def cells(self) -> int:
        return self.height * self.width

    def signature(self) -> tuple:
        """What a distance table depends on: geometry, shapes and counts, goal."""
        counts = tuple(self.piece_class.count(i) for i in range(len(self.classes)))
        return (self.height, self.width, self.classes, counts, self.goal_class, self.goal_top)


class KlotskiState(NamedTuple):
    """A labelled position: ``tops[i]`` is the top-left cell of piece ``layout.labels[i]``."""

    layout: Layout
    tops: tuple[int, ...]


def parse_board(text: object, goal: GoalSpec | None = None) -> KlotskiState:
    """Parse board text; raise :class:`BoardError` with one line naming the problem."""
    grid = _rows(text)
    height, width = len(grid), len(grid[0])
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch != ".":
                cells.setdefault(ch, []).append((r, c))
    if not cells:
        raise BoardError(N_("board has no pieces"))
    if len(cells) > MAX_PIECES:
        raise BoardError(
            N_("board has %(pieces)s pieces; at most %(most)s are allowed"),
            pieces=len(cells),
            most=MAX_PIECES,
        )
    labels = tuple(sorted(cells))
    shapes, tops = [], []
    for label in labels:
        spots = cells[label]
        r0 = min(r for r, _ in spots)
        c0 = min(c for _, c in spots)
        h = max(r for r, _ in spots) - r0 + 1
        w = max(c for _, c in spots) - c0 + 1
        if h * w != len(spots):
            raise BoardError(N_("piece %(piece)s is not a rectangle"), piece=label)
        shapes.append((h, w))
        tops.append(r0 * width + c0)
    goal_label, goal_top = _goal(goal, labels, shapes, height, width)
    layout = Layout(height, width, labels, tuple(shapes), goal_label, goal_top)
    return KlotskiState(layout, tuple(tops))


def _rows(text: object) -> list[str]:
    if not isinstance(text, str):
        raise BoardError(N_("board must be text"))
    if text == "":
        raise BoardError(N_("board is empty"))
    rows = text.split("/")
    if len(rows) > MAX_SIDE:
        raise BoardError(
            N_("board has %(rows)s rows; at most %(side)s rows of %(side)s cells are allowed"),
            rows=len(rows),
            side=MAX_SIDE,
        )
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if row == "":
            raise BoardError(N_("row %(row)s is empty"), row=number)
        if len(row) > MAX_SIDE:
            raise BoardError(
                N_(
                    "row %(row)s has %(cells)s cells; at most %(side)s rows of %(side)s cells are allowed"
                ),
                row=number,
                cells=len(row),
                side=MAX_SIDE,
            )
        for col, ch in enumerate(row, start=1):
            if ch != "." and ch not in LABEL_CHARS:
                raise BoardError(
                    N_(
                        "row %(row)s, column %(column)s: %(char)s is not a piece (use letters or digits, '.' for empty)"
                    ),
                    row=number,
                    column=col,
                    char=repr(ch),
                )
        if len(row) != width:
            raise BoardError(
                N_("row %(row)s has %(cells)s cells, expected %(width)s"),
                row=number,
                cells=len(row),
                width=width,
            )
    return rows


def _goal(goal: GoalSpec | None, labels, shapes, height: int, width: int):
    """Resolve the goal to (label, top-left cell); defaults to the one 2x2 piece."""
    if goal is None:
        big = [label for label, shape in zip(labels, shapes, strict=True) if shape == (2, 2)]
        if not big:
            raise BoardError(N_("no 2x2 goal piece: a board needs one, the piece to bring out"))
        if len(big) > 1:
            raise BoardError(
                N_("more than one 2x2 piece (%(pieces)s): keep one, the piece to bring out"),
                pieces=", ".join(big),
            )
        goal = GoalSpec(big[0], height - 2, (width - 2) // 2)
    if goal.label not in labels:
        raise BoardError(N_("goal piece %(piece)s is not on the board"), piece=goal.label)
    if not (0 <= goal.row < height and 0 <= goal.col < width):
        raise BoardError(
            N_("goal %(goal)s is off the board (rows 0-%(last_row)s, columns 0-%(last_column)s)"),
            goal=f"{goal.label}@{goal.row},{goal.col}",
            last_row=height - 1,
            last_column=width - 1,
        )
    h, w = shapes[labels.index(goal.label)]
    if goal.row + h > height or goal.col + w > width:
        raise BoardError(
            N_(
                "goal %(goal)s does not fit: piece %(piece)s is %(high)s high and %(wide)s wide; "
                "the board has %(rows)s rows and %(columns)s columns"
            ),
            goal=f"{goal.label}@{goal.row},{goal.col}",
            piece=goal.label,
            high=h,
            wide=w,
            rows=height,
            columns=width,
        )
    return goal.label, goal.row * width + goal.col


def format_board(state: KlotskiState) -> str:
    """The board text of ``state``; the exact inverse of :func:`parse_board`."""
    layout = state.layout
    width = layout.width
    grid = ["."] * layout.cells
    for label, (h, w), top in zip(layout.labels, layout.shapes, state.tops, strict=True):
        for dr in range(h):
            start = top + dr * width
            grid[start : start + w] = label * w
    return "/".join("".join(grid[r * width : (r + 1) * width]) for r in range(layout.height))
