"""Optimal 15-puzzle search: compiled IDA* over additive pattern databases, plus the mirror.

Two sets of databases, each read a second time on the board mirrored in its
main diagonal (:mod:`solver.npuzzle.ida`), the larger sum used:

* **6-6-3**, the default: the 15 tiles in disjoint groups of six, six and
  three, each database built with the blank's position tracked
  (:mod:`solver.npuzzle.pdb_build`). Built in a few seconds on first use, so
  a fresh machine answers at once; 589,000 nodes per Korf instance.
* **7-8** (Felner, Korf and Hanan 2004): 288 MB packed
  (:mod:`solver.npuzzle.packed_build`), built once per machine by ``python -m
  solver tables build`` and used whenever it is saved on this machine; 19,000
  nodes per Korf instance, thirty times fewer.

Tables are never charged to a search's budget: :func:`ida_star_fifteen` loads
or builds them (reporting the build through ``progress``) before its clock
starts. A :class:`~solver.core.tables.TableStore` saves them with how long they
took, and every process maps the saved arrays read-only (one copy shared).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import BoardError
from ..core.results import SOLVED, UNSOLVABLE, Monitor, Progress, SearchResult, StopSearch
from ..core.tables import TableSet, TableStore
from .pdb_build import UNSEEN, build_pattern
from .ranking import placements
from .rules import mirror_cells, mirror_tiles, replay_cells

if TYPE_CHECKING:  # annotations only: the search imports numpy and numba
    from .ida import PatternSearch

N = 4
CELLS = N * N
#: the left and right 2x3 blocks of the top three rows, and the bottom row's three tiles
#: (the best of five 6-6-3 splits tried on five of Korf's instances)
GROUPS: tuple[tuple[int, ...], ...] = ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12), (13, 14, 15))
#: names the content: "blank" = built with the blank's position tracked (see the builder)
TABLE_NAME = "blank-" + "-".join("_".join(map(str, g)) for g in GROUPS)
#: the databases, fingerprinted by their builder and its compiled layers
_HERE = Path(__file__).parent
STORE = TableStore(
    "npuzzle-4x4-pdb", _HERE / "pdb_build.py", _HERE / "kernels.py", _HERE / "pdb.py", slow=True
)
#: the 7-8 split: the top two rows' eight tiles and the bottom rows' seven (the mirror
#: lookup reads the same tables as the left and right columns)
PACKED_GROUPS: tuple[tuple[int, ...], ...] = ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15))
PACKED_NAME = "packed-" + "-".join("_".join(map(str, g)) for g in PACKED_GROUPS)
#: the packed databases, fingerprinted by their builder (its ranks and region tables)
PACKED_STORE = TableStore(
    "npuzzle-4x4-packed",
    _HERE / "ranking.py",
    _HERE / "packed_build.py",
    _HERE / "pdb_build.py",
    _HERE / "kernels.py",
    slow=True,
)
__all__ = [
    "GROUPS",
    "PACKED_GROUPS",
    "UNSEEN",
    "tables",
    "tables_ready",
    "build_seconds",
    "lower_bound",
    "ida_star_fifteen",
    "database_sets",
    "search_ready",
]

MIRROR_CELL = mirror_cells(N)
MIRROR_TILE = mirror_tiles(N)

ProgressFn = Callable[[Progress], None] | None


def build_groups(
    n: int, groups, what: str, progress: ProgressFn = None, tracked: bool | None = None
) -> dict:
    """Build one database per group, reporting each layer as stage ``what (i/k)``."""
    seconds, built = [], []
    for i, group in enumerate(groups, 1):
        started = time.perf_counter()
        built.append(
            build_pattern(
                group,
                n,
                tracked=tracked,
                progress=progress,
                stage=f"building the {what} ({i}/{len(groups)})",
            )
        )
        seconds.append(round(time.perf_counter() - started, 3))
    import numpy as np  # only boards of 4x4 and up build databases

    flat = np.concatenate([np.frombuffer(t, np.uint8) for t in built])
    return {
        "groups": tuple(groups),
        "flat": flat,
        "sizes": [len(t) for t in built],
        "build_seconds": seconds,
    }


class Databases(list):
    """The databases of one split as a list of arrays, all views of ``flat``: one uint8
    array that a saved table maps from its file, so every process shares one copy and
    the compiled search reads it in place (no per-process copy)."""

    def __init__(self, saved: dict):
        flat, at = saved["flat"], 0
        views = []
        for size in saved["sizes"]:
            views.append(flat[at : at + size])
            at += size
        super().__init__(views)
        self.flat = flat


def _databases(progress: ProgressFn = None) -> dict:
    return STORE.get(
        TABLE_NAME,
        lambda: build_groups(N, GROUPS, "15-puzzle pattern databases, once per machine", progress),
    )


def tables_ready() -> bool:
    """True when :func:`tables` answers at once: in memory, or saved in the cache."""
    return STORE.ready(TABLE_NAME)


def tables(progress: ProgressFn = None) -> Databases:
    """One database per group: memory, else disk cache, else built now (a few seconds)."""
    return databases_list(_databases(progress))


_lists: dict[int, Databases] = {}


def databases_list(saved: dict) -> Databases:
    """The list view of a saved split, made once per loaded value (so the search laid out
    over it is reused)."""
    found = _lists.get(id(saved))
    if found is None or found.flat is not saved["flat"]:
        found = _lists[id(saved)] = Databases(saved)
    return found


def build_seconds() -> list[float]:
    """How long each group's database took to build (when it was built, maybe earlier)."""
    return _databases()["build_seconds"]


_laid_out: list = []  # [(the tables it was made from, PatternSearch)]


def laid_out_search(memo: list, n: int, groups, tabs):
    """The compiled search over ``tabs``, made once per tables object and kept in ``memo``
    (laying the databases out for the compiled code copies them)."""
    if not memo or memo[0][0] is not tabs:
        from .ida import PatternSearch  # numpy and numba only once a big board asks

        memo[:] = [(tabs, PatternSearch(n, groups, tabs))]
    return memo[0][1]


def build_packed_set(
    groups, what: str, progress: ProgressFn = None, *, n: int = N, tracked: bool = True
) -> dict:
    """Build one packed database per group on an n x n board (:func:`build_groups`,
    packed): their arrays laid end to end in ``flat``, with how long each took and how
    deep it went."""
    from .packed_build import build_packed  # numba: only a packed build or search needs it

    built, seconds, depths, cut = [], [], [], 0
    for i, group in enumerate(groups, 1):
        started = time.perf_counter()
        made = build_packed(
            group,
            n,
            tracked=tracked,
            progress=progress,
            stage=f"building the {what} ({i}/{len(groups)})",
        )
        seconds.append(round(time.perf_counter() - started, 3))
        built.append(made["table"])
        depths.append(made["depth"])
        cut += made["cut"]
    import numpy as np

    flat = np.concatenate(built)
    del built
    return {
        "groups": tuple(groups),
        "flat": flat,
        "sizes": packed_sizes(groups, n * n),
        "build_seconds": seconds,
        "depths": depths,
        "cut": cut,
    }


def packed_sizes(groups, cells: int = CELLS) -> list[int]:
    """Bytes of each group's packed database: four bits per placement."""
    return [(placements(cells, len(g)) + 1) // 2 for g in groups]


def whole_packed(saved: object, groups, cells: int = CELLS) -> bool:
    """A loaded packed set has the arrays ``groups`` need (not some other table's)."""
    if not isinstance(saved, dict) or saved.get("groups") != tuple(groups):
        return False
    sizes = packed_sizes(groups, cells)
    flat = saved.get("flat")
    return saved.get("sizes") == sizes and getattr(flat, "nbytes", None) == sum(sizes)


def _whole(saved: object) -> bool:
    """A loaded 7-8 value has the arrays its groups need (not some other table's)."""
    return whole_packed(saved, PACKED_GROUPS)


def build_packed_tables(progress: ProgressFn = None) -> dict:
    """The 7-8 databases: loaded, else built now (minutes, 4.5 GB) and saved."""
    return PACKED_STORE.get(
        PACKED_NAME,
        lambda: build_packed_set(PACKED_GROUPS, "15-puzzle 7-8 pattern databases", progress),
        valid=_whole,
    )


def _packed() -> dict | None:
    """The 7-8 databases if this machine has them whole; never builds them."""
    return PACKED_STORE.load(PACKED_NAME, valid=_whole)


_packed_laid_out: list = []


def packed_searcher() -> PatternSearch | None:
    """The compiled search over the 7-8 databases, or None when they are not built."""
    saved = _packed()
    if saved is None:
        return None
    if not _packed_laid_out or _packed_laid_out[0][0] is not saved["flat"]:
        from .packed_search import PackedSearch

        search = PackedSearch(N, PACKED_GROUPS, saved["flat"], saved["sizes"])
        _packed_laid_out[:] = [(saved["flat"], search)]
    return _packed_laid_out[0][1]


@dataclass(frozen=True)
class DatabaseSet:
    """One split of the 15 tiles: its name, groups, and how to get its search."""

    name: str
    groups: tuple[tuple[int, ...], ...]
    packed: bool

    def size_bytes(self) -> int:
        """Bytes on disk and in the page cache once built."""
        if self.packed:
            return sum(packed_sizes(self.groups))
        return sum(CELLS ** len(g) for g in self.groups)

    def ready(self) -> bool:
        """True when its tables are in memory or saved whole on this machine."""
        return _packed() is not None if self.packed else tables_ready()

    def searcher(self, progress: ProgressFn = None) -> PatternSearch:
        """Its compiled search; 6-6-3 is built first if need be, 7-8 must be built already."""
        if not self.packed:
            return sparse_searcher(progress)
        found = packed_searcher()
        if found is None:
            raise BoardError(
                "the 15-puzzle's 7-8 databases are not built on this machine "
                "(python -m solver tables build 15-puzzle-7-8)"
            )
        return found

    def build_seconds(self) -> list[float]:
        """How long each group's database took to build on this machine (maybe earlier)."""
        if self.packed:
            saved = _packed()
            return [] if saved is None else saved["build_seconds"]
        return build_seconds()


#: the sets, the default first
SETS = {
    "6-6-3": DatabaseSet("6-6-3", GROUPS, packed=False),
    "7-8": DatabaseSet("7-8", PACKED_GROUPS, packed=True),
}


def chosen() -> DatabaseSet:
    """The set the search uses: 7-8 once it is saved whole on this machine, else 6-6-3
    (a missing or damaged 7-8 file never starts a build: that is ``tables build``'s)."""
    return SETS["7-8"] if SETS["7-8"].ready() else SETS["6-6-3"]


def search_ready() -> bool:
    """True when :func:`ida_star_fifteen` starts at once (no table to build first)."""
    return chosen().ready()


def sparse_searcher(progress: ProgressFn = None):
    """The compiled search over the 6-6-3 databases (built first if need be)."""
    return laid_out_search(_laid_out, N, GROUPS, tables(progress))


def searcher(progress: ProgressFn = None, databases: str | None = None):
    """The compiled search over ``databases`` (a name of :data:`SETS`; by default the
    :func:`chosen` one), its tables loaded or built first."""
    return (SETS[databases] if databases else chosen()).searcher(progress)


def lower_bound(board: Sequence[int], databases: str | None = None) -> int:
    """The heuristic: max of the direct and mirrored additive sums."""
    return searcher(databases=databases).lower_bound(board)


def database_sets() -> list[TableSet]:
    """Both sets as ``python -m solver tables`` lists and builds them."""
    seven_eight = SETS["7-8"]
    return [
        TableSet(
            name="15-puzzle-6-6-3",
            what="15-puzzle 6-6-3 pattern databases (the default; built on first use)",
            store=STORE,
            table=TABLE_NAME,
            build=lambda progress: SETS["6-6-3"].searcher(progress),
            size_bytes=SETS["6-6-3"].size_bytes(),
        ),
        TableSet(
            name="15-puzzle-7-8",
            what="15-puzzle 7-8 pattern databases, packed (used instead of 6-6-3 once built)",
            store=PACKED_STORE,
            table=PACKED_NAME,
            build=build_packed_tables,
            size_bytes=seven_eight.size_bytes(),
            # a byte per (placement, free cell) of the largest group while it builds
            memory_bytes=max(
                placements(CELLS, len(g)) * (CELLS - len(g)) for g in seven_eight.groups
            )
            + seven_eight.size_bytes() * 2,
            on_demand=False,
            usable=lambda: SETS["7-8"].ready(),
        ),
    ]


def ida_star_fifteen(
    state: Sequence[int],
    *,
    budget=None,
    cancel=None,
    progress=None,
    weight: tuple[int, int] = (1, 1),
    max_length: int | None = None,
    databases: str | None = None,
) -> SearchResult:
    """Proven-shortest solution of a solvable 4x4 board, within ``budget``.

    ``weight`` (p, q) searches on f = g + (p/q)*h instead: with p > q it finds
    a solution far sooner, at most p/q times too long, and never claims it optimal.
    ``max_length`` stops the search once no solution of at most that many moves
    exists: the result is then ``unsolvable`` within that bound, which is how
    the coach tells a d-1 neighbour from a d+1 one (one bounded search, cheap).
    The tables are ready before the budget's clock starts. Returns a
    SearchResult (status solved, budget or cancelled) whose moves and states
    are replayed through the rules by :func:`solver.npuzzle.rules.replay_cells`.
    ``databases`` names the set to search with (default: :func:`chosen`).
    """
    search = searcher(progress, databases)
    mon = Monitor(budget, cancel, progress)
    start = tuple(state)
    upper = None if max_length is None else max_length + 1
    try:
        cells = search.search(start, mon, weight, upper=upper)
    except StopSearch as stop:
        result = mon.stopped(stop)
        result.lower_bound = search.lower_bound(start)
        return result
    if cells is None:
        result = mon.result(
            UNSOLVABLE, optimal=True, message=f"no solution within {max_length} moves"
        )
        result.lower_bound = None if max_length is None else max_length + 1
        return result
    moves, states = replay_cells(start, cells)
    optimal = weight[0] <= weight[1]
    result = mon.result(SOLVED, moves, states, optimal=optimal)
    result.lower_bound = len(cells) if optimal else search.lower_bound(start)
    return result
