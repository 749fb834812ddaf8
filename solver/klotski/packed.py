"""Distance tables of whole Klotski groups built by the compiled search, kept as flat arrays.

:func:`build_packed` enumerates a group with :class:`~solver.klotski.bitboard.GroupSearch`
(one-cell steps: the cheapest moves, and every metric's moves are chains of
them, so the group is the same), then measures every position's distance in
the asked metric from all goals at once. The table is the search's own
open-addressing array of packed keys with a distance array beside it
(:class:`PackedDistances`), read through the same mapping interface as a
dict of canonical keys, so the domain, the coach and the hardest-start
search read it like any table.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..core.results import Monitor
from .bitboard import GroupSearch, Packing, TooManyPositions, compiled, packing, slot_of
from .board import Layout


class PackedDistances(Mapping):
    """Canonical key -> distance (-1: unsolvable) over a packed table and its distances.

    ``table`` is the compiled search's open-addressing array (two words a
    slot) and ``dist[slot]`` the distance of the key in that slot. Lookups
    hash in Python, the same hash as :mod:`solver.klotski.kernels`, so a
    process that only reads tables never loads numba; saved tables come back
    as read-only arrays mapped from their files, shared by every process.
    """

    def __init__(self, pack: Packing, table, dist, facts: dict | None = None):
        self.pack = pack
        self.table = table
        self.dist = dist
        self._mask = table.size // 2 - 1
        # Python-int views for lookups (a numpy scalar per read costs several times more)
        self._words = memoryview(table).cast("B").cast("q")
        self._dists = memoryview(dist).cast("B").cast(dist.dtype.char)
        self._slots: Any = None
        #: size, solvable, least key: known without reading the arrays (a loaded table
        #: touches no page until a lookup needs it)
        self._facts = dict(facts or {})

    def __getstate__(self) -> dict:  # saved tables: the arrays, the layout, their facts
        facts = {"size": len(self), "solvable": self.solvable, "least": self.smallest()}
        return {"layout": self.pack.layout, "table": self.table, "dist": self.dist, **facts}

    def __setstate__(self, state: dict) -> None:
        pack = packing(state["layout"], "step")
        facts = {k: state[k] for k in ("size", "solvable", "least")}
        PackedDistances.__init__(self, pack, state["table"], state["dist"], facts)

    @property
    def slots(self):
        """The used slots (computed on first need: 8 bytes a position, private to a process)."""
        if self._slots is None:
            import numpy as np

            table = self.table
            self._slots = np.flatnonzero((table[0::2] != 0) | (table[1::2] != 0))
        return self._slots

    def _slot(self, key) -> int:
        if not isinstance(key, int) or key <= 0 or key.bit_length() > len(self.pack.cover_ints):
            return -1
        try:
            lo, hi = self.pack.pack(key)
        except ValueError:
            return -1
        words, mask = self._words, self._mask
        h = slot_of(lo, hi, mask)
        while True:
            a, b = words[2 * h], words[2 * h + 1]
            if a == lo and b == hi:
                return h
            if a == 0 and b == 0:
                return -1
            h = (h + 1) & mask

    def __getitem__(self, key) -> int:
        slot = self._slot(key)
        if slot < 0:
            raise KeyError(key)
        return self._dists[slot]

    def __contains__(self, key) -> bool:
        return self._slot(key) >= 0

    def __len__(self) -> int:
        if "size" not in self._facts:
            self._facts["size"] = int(self.slots.size)
        return self._facts["size"]

    def __iter__(self) -> Iterator[int]:
        for slot in self.slots:
            yield self.pack.unpack(int(self.table[2 * slot]), int(self.table[2 * slot + 1]))

    def __eq__(self, other) -> bool:
        """Same layout, same keys, same distances (compared as sorted arrays, not in Python)."""
        if not isinstance(other, PackedDistances):
            return super().__eq__(other)
        return self.pack.layout == other.pack.layout and _rows(self) == _rows(other)

    __hash__ = None  # type: ignore[assignment]  # a mapping: unhashable, like dict

    def values(self):  # a numpy array, not a view: max() and counts stay fast
        return self.dist[self.slots]

    @property
    def solvable(self) -> bool:
        if "solvable" not in self._facts:
            self._facts["solvable"] = bool(len(self)) and int(self.values().max()) >= 0
        return self._facts["solvable"]

    def smallest(self, distance: int | None = None) -> int:
        """The least canonical key (of those at ``distance``, when given); compiled, and
        remembered for the whole table (it names the group: loading a table needs no numba)."""
        import numpy as np

        if distance is None and "least" in self._facts:
            return self._facts["least"]
        slots = self.slots if distance is None else self.slots[self.values() == distance]
        pack = self.pack
        slot = int(
            compiled().smallest(self.table, np.ascontiguousarray(slots), pack.geo, pack.cover)
        )
        if slot < 0:
            raise ValueError(f"no position at distance {distance}")
        least = pack.unpack(int(self.table[2 * slot]), int(self.table[2 * slot + 1]))
        if distance is None:
            self._facts["least"] = least
        return least

    def count(self, distance: int) -> int:
        return int((self.values() == distance).sum())


def _rows(table: PackedDistances) -> bytes:
    import numpy as np

    slots = table.slots
    lo, hi, dist = table.table[2 * slots], table.table[2 * slots + 1], table.dist[slots]
    order = np.lexsort((hi, lo))
    return lo[order].tobytes() + hi[order].tobytes() + dist[order].astype(np.int16).tobytes()


def build_packed(layout: Layout, start: int, metric: str, mon: Monitor, limit: int | None = None):
    """(PackedDistances of ``start``'s group in ``metric``); raises TooManyPositions past
    ``limit`` positions and StopSearch from ``mon``."""
    search = GroupSearch(packing(layout, "step"), start, stop_at_goal=False)
    search.run(mon, limit)
    if limit is not None and search.count > limit:
        raise TooManyPositions(search.count)
    dist = search.distances(mon, packing(layout, metric))
    return PackedDistances(search.pack, search.table, dist)


def solve_packed(layout: Layout, start: int, metric: str, mon: Monitor):
    """(canonical keys from ``start`` to the nearest goal, or None; positions reached):
    breadth-first in ``metric``, compiled, proven shortest."""
    search = GroupSearch(packing(layout, metric), start, stop_at_goal=True)
    search.run(mon)
    if search.goal_at < 0:
        return None, search.count
    return search.path(search.goal_at), search.count
