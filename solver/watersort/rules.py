"""Water sort's rules shared by the domain and its search: colours, pours, the lower bound."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import NamedTuple

MAX_CAPACITY = 12
MAX_TUBES = 40
COLOURS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"
COLOUR_SET = frozenset(COLOURS)

State = tuple[str, ...]


class Pour(NamedTuple):
    """One pour: ``amount`` units of ``colour`` from tube ``src`` onto tube ``dst`` (0-based)."""

    src: int
    dst: int
    amount: int
    colour: str


def top_run(tube: str) -> int:
    """Length of the run of one colour on top of ``tube`` (0 for an empty tube)."""
    if not tube:
        return 0
    colour = tube[-1]
    n = len(tube)
    run = 1
    while run < n and tube[n - 1 - run] == colour:
        run += 1
    return run


def blocks(tube: str) -> int:
    """Number of maximal one-colour runs in ``tube``."""
    if not tube:
        return 0
    return 1 + sum(1 for a, b in pairwise(tube) if a != b)


def lower_bound(tubes: Iterable[str], capacity: int) -> int:
    """Fewest pours any solution still needs (admissible and consistent).

    For each colour c let t_c be its blocks (maximal runs) that do not sit at the
    bottom of a tube, s_c its blocks at the bottom of a tube, and k_c = units of
    c / capacity the full tubes it fills when solved. Then at least
    ``t_c + max(0, s_c - k_c)`` pours move colour c:

    * a block above another colour must leave its tube (the tube ends up one
      colour, and what lies below can only leave after it); the first pour
      that takes units of a given block has that block's tube as its source,
      so different blocks need different pours (two blocks in one tube are
      separated by another colour, so one pour cannot reach both);
    * a bottom block never touched keeps its tube's bottom at c forever, so
      that tube is one of the k_c tubes of c at the end: at least s_c - k_c
      bottom blocks must be touched too, each by its own pour.

    Every pour moves one colour, so the sum over colours is a lower bound. One
    pour changes one colour's t or s by at most one in the direction that lowers
    the bound, so the bound drops by at most 1 per pour (consistent).
    """
    tubes = [t for t in tubes if t]
    units: dict[str, int] = {}
    bottoms: dict[str, int] = {}
    non_bottom = 0
    for tube in tubes:
        bottoms[tube[0]] = bottoms.get(tube[0], 0) + 1
        prev = ""
        for ch in tube:
            units[ch] = units.get(ch, 0) + 1
            if ch != prev:
                non_bottom += 1
                prev = ch
    non_bottom -= len(tubes)
    extra = 0
    for colour, s in bottoms.items():
        k = units[colour] // capacity
        if s > k:
            extra += s - k
    return non_bottom + extra
