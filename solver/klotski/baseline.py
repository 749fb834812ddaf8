"""Klotski over plain strings for the bench's baseline: no code shared with the real rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.baseline import seed_bfs


class StringKlotski:
    """Klotski with the board as one string of W*H characters ('.' empty)."""

    def __init__(
        self, board: str, goal_piece: str, goal_row: int, goal_col: int, metric: str = "piece"
    ):
        rows = board.split("/")
        self.h, self.w = len(rows), len(rows[0])
        self.start = "".join(rows)
        self.metric = metric
        cells: dict[str, list[int]] = {}
        for i, ch in enumerate(self.start):
            if ch != ".":
                cells.setdefault(ch, []).append(i)
        shapes = {}
        for label, idx in cells.items():
            rs = [i // self.w for i in idx]
            cs = [i % self.w for i in idx]
            shapes[label] = (max(rs) - min(rs) + 1, max(cs) - min(cs) + 1)
        # interchangeable pieces share one character in the canonical form
        classes: dict[tuple[int, int], str] = {}
        self.xlat = str.maketrans(
            {
                lab: classes.setdefault(shape, chr(ord("a") + len(classes)))
                for lab, shape in shapes.items()
            }
        )
        gh, gw = shapes[goal_piece]
        self.goal_cells = [
            (goal_row + r) * self.w + goal_col + c for r in range(gh) for c in range(gw)
        ]
        self.goal_piece = goal_piece

    @classmethod
    def for_board(cls, board: str, metric: str = "piece", goal: str | None = None) -> StringKlotski:
        """The model with ``goal`` (``A@3,1``: piece A's top-left at row 3, column 1), by
        default the one 2x2 piece at the bottom centre, found without the real domain."""
        if goal:
            piece, _, spot = goal.partition("@")
            row, col = (int(n) for n in spot.split(","))
            return cls(board, piece.strip(), row, col, metric)
        rows = board.split("/")
        h, w = len(rows), len(rows[0])
        for label in sorted(set(board) - {".", "/"}):
            cells = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == label]
            if len(cells) == 4 and len({r for r, _ in cells}) == 2:
                return cls(board, label, h - 2, (w - 2) // 2, metric)
        raise ValueError("no 2x2 piece")

    def encode(self, board: str) -> str:
        return board.replace("/", "")

    def canonical(self, pos: str) -> str:
        return pos.translate(self.xlat)

    def is_goal(self, pos: str) -> bool:
        return all(pos[i] == self.goal_piece for i in self.goal_cells)

    def _steps(self, pos: str, piece: str, directions=((-1, 0), (1, 0), (0, -1), (0, 1))):
        """Boards with ``piece`` moved one cell in each free direction."""
        w, h = self.w, self.h
        idx = [i for i, ch in enumerate(pos) if ch == piece]
        for dr, dc in directions:
            ok = True
            for i in idx:
                r, c = divmod(i, w)
                r2, c2 = r + dr, c + dc
                if not (0 <= r2 < h and 0 <= c2 < w) or pos[r2 * w + c2] not in (".", piece):
                    ok = False
                    break
            if ok:
                cells = list(pos)
                for i in idx:
                    cells[i] = "."
                for i in idx:
                    r, c = divmod(i, w)
                    cells[(r + dr) * w + c + dc] = piece
                yield "".join(cells)

    def successors(self, pos: str):
        pieces = sorted(set(pos) - {"."})
        for piece in pieces:
            if self.metric == "step":
                yield from self._steps(pos, piece)
                continue
            if self.metric == "straight":
                # one direction, as many cells as are free
                for direction in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    q: str | None = pos
                    while q is not None:
                        q = next(self._steps(q, piece, (direction,)), None)
                        if q is not None:
                            yield q
                continue
            # piece metric: everywhere this piece alone can reach is one move
            seen = {pos}
            frontier = [pos]
            while frontier:
                nxt = []
                for p in frontier:
                    for q in self._steps(p, piece):
                        if q not in seen:
                            seen.add(q)
                            nxt.append(q)
                            yield q
                frontier = nxt

    def solve(self, **limits):
        path, nodes = seed_bfs(self.start, self.successors, self.is_goal, self.canonical, **limits)
        return (None if path is None else len(path) - 1), nodes


def original_model(board: str, options: Mapping[str, Any]) -> StringKlotski:
    """The model :mod:`solver.originals` runs the originals' searches on, for the canonical
    board and the game's checked options."""
    return StringKlotski.for_board(board, options.get("metric") or "piece", options.get("goal"))
