"""Compact ranks of tile placements, and the packed entry of a pattern database.

A group of k tiles on C cells has C!/(C-k)! placements. Indexing them by
``sum(c_i * C**i)`` (:mod:`solver.npuzzle.pdb_build`) is fast to update but
wastes space: for the 15-puzzle's 8-tile group that is 16**8 = 4.3 G entries
where 518.9 M placements exist. The *rank* here is the placement's number in
that compact order: tile i's cell, counted among the cells tiles 0..i-1 left
free, is a digit of radix C-i. :mod:`solver.npuzzle.packed_kernels` computes
the same ranks with a popcount; this plain version is what the tests and the
bound shown for one board use.

A packed database stores per placement not the distance d but ``(d - m) / 2``,
where m is the group's Manhattan distance: every move of a group tile changes
m by one, so d - m is even and never negative, and the excess is small enough
for four bits (two placements per byte).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: what four bits hold; an excess above it would be stored as this (still a lower bound)
MAX_EXCESS = 15


def placements(cells: int, k: int) -> int:
    """How many ways k distinct tiles can sit on ``cells`` cells: cells!/(cells-k)!."""
    total = 1
    for i in range(k):
        total *= cells - i
    return total


def rank(spots: Sequence[int], cells: int = 16) -> int:
    """The compact rank of tiles at cells ``spots`` (tile i at ``spots[i]``)."""
    used, value = 0, 0
    for i, c in enumerate(spots):
        value = value * (cells - i) + c - bin(used & ((1 << c) - 1)).count("1")
        used |= 1 << c
    return value


def unrank(value: int, k: int, cells: int = 16) -> list[int]:
    """The cells of the placement whose rank is ``value`` (the inverse of :func:`rank`)."""
    digits = []
    for i in range(k - 1, -1, -1):
        value, digit = divmod(value, cells - i)
        digits.append(digit)
    free = list(range(cells))  # the cells still free, in order: a digit picks one out
    return [free.pop(digit) for digit in reversed(digits)]


def manhattan(group: Sequence[int], spots: Sequence[int], n: int = 4) -> int:
    """The group's Manhattan distance with tile ``group[i]`` at cell ``spots[i]``."""
    return sum(
        abs(c // n - (t - 1) // n) + abs(c % n - (t - 1) % n)
        for t, c in zip(group, spots, strict=True)
    )


def excess(table: Any, at: int) -> int:
    """Entry ``at`` of a packed table (bytes or a uint8 array): two entries per byte, the
    even one in the low half."""
    return (table[at >> 1] >> ((at & 1) * 4)) & 0xF
