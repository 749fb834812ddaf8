"""Every placement of a set of pieces on a board, as canonical keys, and keys back to boards.

Goal positions (every arrangement with the goal met) and the hardest-start
search over a piece set (every arrangement at all) both enumerate placements.
"""

from __future__ import annotations

from .board import KlotskiState, Layout


def all_placements(geo, layout: Layout):
    """Keys of every arrangement of ``layout``'s pieces on its board (goal or not)."""
    counts = [layout.piece_class.count(k) for k in range(len(layout.classes))]
    blanks = layout.cells - sum(h * w for h, w in layout.shapes)
    return fill_keys(geo, 0, 0, counts, blanks, 0)


def fill_keys(geo, cell: int, occ: int, counts: list[int], blanks: int, key: int):
    """Keys of every way to fill the cells from ``cell`` on with the pieces in ``counts``.

    The first free cell is either left blank or is some piece's top-left, so
    each arrangement is produced exactly once.
    """
    n = geo.cells
    while cell < n and occ >> cell & 1:
        cell += 1
    if cell == n:
        if not any(counts):
            yield key
        return
    if blanks:
        yield from fill_keys(geo, cell + 1, occ | 1 << cell, counts, blanks - 1, key)
    for k, left in enumerate(counts):
        cells = geo.cover[k * n + cell]
        if left and cells and not cells & occ:
            counts[k] -= 1
            yield from fill_keys(
                geo, cell + 1, occ | cells, counts, blanks, key | 1 << (k * n + cell)
            )
            counts[k] += 1


def label_key(layout: Layout, key: int) -> KlotskiState:
    """A labelled state for a canonical key: each shape's labels in order over its spots."""
    n = layout.cells
    spots = {}
    for k in range(len(layout.classes)):
        mask = key >> (k * n) & ((1 << n) - 1)
        spots[k] = [p for p in range(n) if mask >> p & 1]
    tops = [spots[k].pop(0) for k in layout.piece_class]
    return KlotskiState(layout, tuple(tops))
