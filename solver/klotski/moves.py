"""Klotski move generation on integer bitboards, precomputed per board geometry.

The search never looks at labels. A position is one integer *key*: for each
distinct piece shape (class ``k``) and each top-left cell ``p`` it has bit
``k * cells + p`` set when some piece of that shape stands there. Because
same-shaped pieces are interchangeable, this key is canonical. Alongside it the
search carries ``occ``, the bitmask of covered cells, so a move is legal when
the cells it enters are free: one AND against a precomputed mask.

:class:`Geometry` holds those masks for one (height, width, shapes) and
produces successors in three metrics: ``step`` (one piece, one cell),
``straight`` (one piece, any distance in one straight line) and ``piece``
(one piece, any distance, turning corners, along free cells). Every move of
every metric is a chain of one-cell steps, so the three share reachable sets
and differ only in what counts as one move.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from ..core.search import walk_back
from ..core.text import N_
from .board import KlotskiState, Layout

DIRECTIONS = (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))
#: how moves are counted; the names are also the words a player reads
METRICS = (N_("piece"), N_("straight"), N_("step"))


class KlotskiMove(NamedTuple):
    """One move: ``piece`` travels along ``path`` (top-left (row, col) cells, start first)."""

    piece: str
    path: tuple[tuple[int, int], ...]


class Geometry:
    """Precomputed masks for one board size and set of piece shapes.

    Bit ``g = k * cells + p`` stands for "a piece of class k with top-left p".
    ``cover[g]`` is the cells such a piece covers (0 where it does not fit);
    ``steps[g]`` lists its one-cell moves as (g2, cells entered, key xor,
    occupancy xor); ``around[g]`` the same neighbours as (g2, cells covered);
    ``feeds[e]`` the pieces (as key bits) that could step into empty cell ``e``;
    ``rays[g]`` per direction the spots (g2, cells covered) further and further
    along that line, which the straight metric slides through.
    """

    def __init__(self, height: int, width: int, classes: tuple[tuple[int, int], ...]):
        self.height, self.width, self.classes = height, width, classes
        n = self.cells = height * width
        self.full = (1 << n) - 1
        size = n * len(classes)
        self.cover = [0] * size
        self.steps: list[list] = [[] for _ in range(size)]
        self.around: list[list] = [[] for _ in range(size)]
        self.rays: list[list] = [[] for _ in range(size)]
        self.feeds = [0] * n
        self._memos: dict[str, dict[int, tuple]] = {}
        self._memo_moves = 0
        self._moves: dict[tuple[int, int], tuple] = {}
        for k, (h, w) in enumerate(classes):
            for r in range(height - h + 1):
                for c in range(width - w + 1):
                    self.cover[k * n + r * width + c] = _rect(r, c, h, w, width)
        for g, cells in enumerate(self.cover):
            if not cells:
                continue
            k, p = divmod(g, n)
            r, c = divmod(p, width)
            h, w = classes[k]
            for _name, dr, dc in DIRECTIONS:
                r2, c2 = r + dr, c + dc
                if not (0 <= r2 <= height - h and 0 <= c2 <= width - w):
                    continue
                g2 = k * n + r2 * width + c2
                cells2 = self.cover[g2]
                entered = cells2 & ~cells
                self.steps[g].append((g2, entered, (1 << g) | (1 << g2), cells ^ cells2))
                self.around[g].append((g2, cells2))
                for e in _bits(entered):
                    self.feeds[e] |= 1 << g
                ray = []
                while 0 <= r2 <= height - h and 0 <= c2 <= width - w:
                    ray.append((k * n + r2 * width + c2, _rect(r2, c2, h, w, width)))
                    r2, c2 = r2 + dr, c2 + dc
                self.rays[g].append(ray)

    # -- key space (what the breadth-first searches use) ---------------------
    def occupancy(self, key: int) -> int:
        """The covered cells of canonical ``key``."""
        cover, occ = self.cover, 0
        for g in _bits(key):
            occ |= cover[g]
        return occ

    def expansions(self, metric: str):
        """A function ``empty -> moves`` for ``metric``, remembering its answers.

        Whether a piece can move, and where to, depends only on the empty cells
        (its own cells plus those are all it may use). So for each set of empty
        cells the moves are listed once as ``(key bit, key xor, empty xor)``:
        a position with that key bit set moves to ``key ^ key xor``, its empty
        cells becoming ``empty ^ empty xor``. Boards with few blanks (4x5 has 2)
        see a few hundred distinct empty sets, so nearly every call is a lookup.
        """
        memo = self._memos.setdefault(metric, {})
        build = {
            "piece": self._piece_moves,
            "straight": self._straight_moves,
            "step": self._step_moves,
        }[metric]

        def moves_for(empty: int) -> tuple:
            found = memo.get(empty)
            if found is None:
                found = build(empty)
                if self._memo_moves < self.MEMO_MAX_MOVES:  # bounded memory
                    memo[empty] = found
                    self._memo_moves += len(found) + 1
            return found

        return moves_for

    #: remembered move references per geometry (about 8 bytes each; moves are shared)
    MEMO_MAX_MOVES = 2_000_000

    def _move(self, g: int, g2: int) -> tuple:
        """The shared (key bit, key xor, empty xor) of moving a piece from spot g to g2."""
        found = self._moves.get((g, g2))
        if found is None:
            found = self._moves[(g, g2)] = (
                1 << g,
                (1 << g) | (1 << g2),
                self.cover[g] ^ self.cover[g2],
            )
        return found

    def _candidates(self, empty: int):
        """Key bits of every piece spot that touches an empty cell and covers none."""
        feeds, cover, reach = self.feeds, self.cover, 0
        for e in _bits(empty):
            reach |= feeds[e]
        return [g for g in _bits(reach) if not cover[g] & empty]

    def _step_moves(self, empty: int) -> tuple:
        out = []
        for g in self._candidates(empty):
            for g2, entered, _key_flip, _occ_flip in self.steps[g]:
                if entered & empty == entered:
                    out.append(self._move(g, g2))
        return tuple(out)

    def _straight_moves(self, empty: int) -> tuple:
        out = []
        for g in self._candidates(empty):
            free = empty | self.cover[g]  # cells this piece may use
            for ray in self.rays[g]:
                for g2, cells2 in ray:
                    if cells2 & free != cells2:
                        break
                    out.append(self._move(g, g2))
        return tuple(out)

    def _piece_moves(self, empty: int) -> tuple:
        out = []
        around, cover = self.around, self.cover
        for g in self._candidates(empty):
            blocked = self.full ^ (empty | cover[g])  # cells this piece may not use
            reached = [g]
            for x in reached:
                for g2, cells2 in around[x]:
                    if not cells2 & blocked and g2 not in reached:
                        reached.append(g2)
            for g2 in reached[1:]:
                out.append(self._move(g, g2))
        return tuple(out)

    def successors(self, key: int, empty: int, metric: str) -> list[tuple[int, int]]:
        """(key, empty cells) after every move in ``metric`` (convenience; searches inline this)."""
        return [
            (key ^ kf, empty ^ ef) for bit, kf, ef in self.expansions(metric)(empty) if key & bit
        ]


@lru_cache(maxsize=64)
def geometry(height: int, width: int, classes: tuple[tuple[int, int], ...]) -> Geometry:
    """The shared (cached) :class:`Geometry` for a board size and shape set."""
    return Geometry(height, width, classes)


def layout_geometry(layout: Layout) -> Geometry:
    return geometry(layout.height, layout.width, layout.classes)


def state_key(state: KlotskiState) -> int:
    """The canonical key of a labelled position."""
    layout = state.layout
    n = layout.cells
    key = 0
    for k, top in zip(layout.piece_class, state.tops, strict=True):
        key |= 1 << (k * n + top)
    return key


def goal_bit(layout: Layout) -> int:
    """The key bit that is set exactly when the goal is met."""
    return 1 << (layout.goal_class * layout.cells + layout.goal_top)


# -- labelled moves (what the player sees) --------------------------------------


def labelled_moves(state: KlotskiState, metric: str) -> list[tuple[KlotskiMove, KlotskiState]]:
    """Every legal (move, next state) of a labelled position, in ``metric``.

    A piece move's path is a shortest route of one-cell steps to its new spot;
    a straight move's path is the cells it slides through.
    """
    layout = state.layout
    geo = layout_geometry(layout)
    n, width, cover = layout.cells, layout.width, geo.cover
    tops = state.tops
    gs = [k * n + top for k, top in zip(layout.piece_class, tops, strict=True)]
    occ = 0
    for g in gs:
        occ |= cover[g]
    out = []
    for i, g in enumerate(gs):
        label = layout.labels[i]
        if metric == "step":
            for g2, entered, _kf, _of in geo.steps[g]:
                if not entered & occ:
                    out.append(_move(state, i, label, [g, g2], n, width))
            continue
        if metric == "straight":
            rest = occ ^ cover[g]
            for ray in geo.rays[g]:
                route = [g]
                for g2, cells2 in ray:
                    if cells2 & rest:
                        break
                    route.append(g2)
                    out.append(_move(state, i, label, list(route), n, width))
            continue
        rest = occ ^ cover[g]
        parent: dict[int, int | None] = {g: None}
        order = [g]
        for x in order:
            for g2, cells2 in geo.around[x]:
                if g2 not in parent and not cells2 & rest:
                    parent[g2] = x
                    order.append(g2)
        for g2 in order[1:]:
            out.append(_move(state, i, label, walk_back(g2, parent.__getitem__), n, width))
    return out


def _move(state: KlotskiState, i: int, label: str, route: list[int], n: int, width: int):
    path = tuple(divmod(g % n, width) for g in route)
    tops = state.tops[:i] + (route[-1] % n,) + state.tops[i + 1 :]
    return KlotskiMove(label, path), KlotskiState(state.layout, tops)


def describe(move: KlotskiMove) -> str:
    """``B down``, ``A down 2``, ``J left, down``: runs of one direction are merged."""
    runs: list[list] = []
    for (r1, c1), (r2, c2) in pairwise(move.path):
        name = next(d for d, dr, dc in DIRECTIONS if (dr, dc) == (r2 - r1, c2 - c1))
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    legs = [name if count == 1 else f"{name} {count}" for name, count in runs]
    return f"{move.piece} {', '.join(legs)}"


def _rect(r: int, c: int, h: int, w: int, width: int) -> int:
    row = ((1 << w) - 1) << c
    mask = 0
    for dr in range(h):
        mask |= row << ((r + dr) * width)
    return mask


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
