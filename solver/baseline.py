"""The plain baseline the bench compares against: the seeds' approach.

A generic breadth-first search (a deque and a trail dict, exactly the loop in
the generic-puzzle-solver seed) over states that are plain strings, with move
generators written the obvious way by string manipulation. Nothing here is
tuned; it is the yardstick, so keep it honest and simple. It shares no code
with the real domains on purpose: a bug there must not hide here.
"""
from __future__ import annotations

import time
from collections import deque
from typing import Callable, Iterable, Optional


class GaveUp(Exception):
    """The baseline hit its node or time limit before finishing."""

    def __init__(self, message: str, nodes: int):
        super().__init__(message)
        self.nodes = nodes


def seed_bfs(start: str, successors: Callable[[str], Iterable[str]],
             is_goal: Callable[[str], bool], canonical: Callable[[str], str] = lambda s: s,
             max_nodes: Optional[int] = None, max_seconds: Optional[float] = None):
    """Breadth-first search as in the seed; returns (path of states or None, nodes)."""
    queue = deque([start])
    trail = {canonical(start): None}
    nodes = 0
    started = time.monotonic()
    while queue:
        pos = queue.popleft()
        if is_goal(pos):
            path = []
            while pos is not None:
                path.append(pos)
                pos = trail[canonical(pos)]
            return path[::-1], nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise GaveUp(f"gave up after {nodes} positions", nodes)
        if max_seconds is not None and nodes % 1000 == 0 and time.monotonic() - started > max_seconds:
            raise GaveUp(f"gave up after {nodes} positions ({max_seconds:g} s)", nodes)
        for nxt in successors(pos):
            c = canonical(nxt)
            if c in trail:
                continue
            trail[c] = pos
            queue.append(nxt)
    return None, nodes


# -- Klotski over strings ------------------------------------------------------

class StringKlotski:
    """Klotski with the board as one string of W*H characters ('.' empty)."""

    def __init__(self, board: str, goal_piece: str, goal_row: int, goal_col: int,
                 metric: str = "piece"):
        rows = board.split("/")
        self.h, self.w = len(rows), len(rows[0])
        self.start = "".join(rows)
        self.metric = metric
        cells = {}
        for i, ch in enumerate(self.start):
            if ch != ".":
                cells.setdefault(ch, []).append(i)
        shapes = {}
        for label, idx in cells.items():
            rs = [i // self.w for i in idx]
            cs = [i % self.w for i in idx]
            shapes[label] = (max(rs) - min(rs) + 1, max(cs) - min(cs) + 1)
        # interchangeable pieces share one character in the canonical form
        classes = {}
        self.xlat = str.maketrans({lab: classes.setdefault(shape, chr(ord("a") + len(classes)))
                                   for lab, shape in shapes.items()})
        gh, gw = shapes[goal_piece]
        self.goal_cells = [(goal_row + r) * self.w + goal_col + c
                           for r in range(gh) for c in range(gw)]
        self.goal_piece = goal_piece

    def canonical(self, pos: str) -> str:
        return pos.translate(self.xlat)

    def is_goal(self, pos: str) -> bool:
        return all(pos[i] == self.goal_piece for i in self.goal_cells)

    def _steps(self, pos: str, piece: str):
        """Boards with ``piece`` moved one cell in each free direction."""
        w, h = self.w, self.h
        idx = [i for i, ch in enumerate(pos) if ch == piece]
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
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


# -- N-puzzle over strings -------------------------------------------------------

class StringNPuzzle:
    """The N-puzzle as a string of tile characters ('0' the blank), as in the 8-puzzle seed."""

    SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"

    def __init__(self, board: str):
        tiles = [int(t) for t in board.replace(",", " ").replace("/", " ").split()]
        self.n = int(round(len(tiles) ** 0.5))
        self.start = "".join(self.SYMBOLS[t] for t in tiles)
        self.goal = "".join(self.SYMBOLS[t] for t in range(1, len(tiles))) + "0"

    def successors(self, pos: str):
        n = self.n
        b = pos.index("0")
        r, c = divmod(b, n)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < n and 0 <= c2 < n:
                t = r2 * n + c2
                cells = list(pos)
                cells[b], cells[t] = cells[t], cells[b]
                yield "".join(cells)

    def solve(self, **limits):
        path, nodes = seed_bfs(self.start, self.successors, lambda s: s == self.goal, **limits)
        return (None if path is None else len(path) - 1), nodes


# -- water-sort over strings ----------------------------------------------------

class StringWaterSort:
    """Water-sort with tubes as a comma-joined string, sorted for the canonical form."""

    def __init__(self, board: str, capacity: int = 4):
        self.start = board
        self.capacity = capacity

    def canonical(self, pos: str) -> str:
        return ",".join(sorted(pos.split(",")))

    def is_goal(self, pos: str) -> bool:
        return all(t == "" or (len(t) == self.capacity and t == t[0] * len(t))
                   for t in pos.split(","))

    def successors(self, pos: str):
        tubes = pos.split(",")
        cap = self.capacity
        for i, src in enumerate(tubes):
            if not src:
                continue
            colour = src[-1]
            run = len(src) - len(src.rstrip(colour))
            for j, dst in enumerate(tubes):
                if i == j or len(dst) == cap or (dst and dst[-1] != colour):
                    continue
                amount = min(run, cap - len(dst))
                new = list(tubes)
                new[i] = src[:-amount]
                new[j] = dst + colour * amount
                yield ",".join(new)

    def solve(self, **limits):
        path, nodes = seed_bfs(self.start, self.successors, self.is_goal, self.canonical, **limits)
        return (None if path is None else len(path) - 1), nodes
