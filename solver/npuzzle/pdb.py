"""Optimal 15-puzzle search: compiled IDA* over additive 6-6-3 pattern databases, plus the mirror.

The 15 tiles are split into disjoint groups of six, six and three, each with a
database built with the blank's position tracked (:mod:`solver.npuzzle.pdb_build`);
the same databases are read again on the board mirrored in its main diagonal
and the larger sum is used (:mod:`solver.npuzzle.ida`). On Korf's first
instance this expands 0.48M positions where the earlier 5-5-5 split needed 7.3M.

Tables are never charged to a search's budget: :func:`ida_star_fifteen` loads
or builds them (reporting the build through ``progress``) before its clock
starts. A :class:`~solver.core.tables.TableStore` saves them with how long they
took and keeps them in memory as ``bytes``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.results import SOLVED, UNSOLVABLE, Monitor, Progress, SearchResult, StopSearch
from ..core.tables import TableStore
from .pdb_build import UNSEEN, build_pattern
from .rules import mirror_cells, mirror_tiles, replay_cells

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
    "npuzzle-4x4-pdb", _HERE / "pdb_build.py", _HERE / "kernels.py", _HERE / "pdb.py"
)
__all__ = [
    "GROUPS",
    "UNSEEN",
    "tables",
    "tables_ready",
    "build_seconds",
    "lower_bound",
    "ida_star_fifteen",
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


def searcher(progress: ProgressFn = None):
    """The compiled search over the databases (built first if need be)."""
    return laid_out_search(_laid_out, N, GROUPS, tables(progress))


def lower_bound(board: Sequence[int]) -> int:
    """The heuristic: max of the direct and mirrored additive sums."""
    return searcher().lower_bound(board)


def ida_star_fifteen(
    state: Sequence[int],
    *,
    budget=None,
    cancel=None,
    progress=None,
    weight: tuple[int, int] = (1, 1),
    max_length: int | None = None,
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
    """
    search = searcher(progress)
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
