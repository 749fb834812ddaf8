"""The 24-puzzle (5x5), anytime: a legal answer at once, then ever shorter ones, with a proof bound.

Optimal 24-puzzle solutions take hours even in C, so the search trades proof
for time and says how good each answer is: "N moves, at least L".

1. The row-and-column reduction (:mod:`solver.npuzzle.reduce`) gives a legal
   solution at once: the first upper bound U.
2. Weighted IDA* (f = g + w*h over additive pattern databases built with the
   blank tracked, with the mirror lookup, compiled) with a falling weight w.
   The databases are the packed 6-6-6-6 ones (:data:`SIX_GROUPS`,
   :mod:`solver.npuzzle.packed_search`) once ``python -m solver tables build``
   has made them on this machine, else 5-5-5-5-4 (:mod:`solver.npuzzle.ida`,
   built in a minute on first use). Each pass prunes every path that cannot end below U moves, and
   within a pass every shorter solution found lowers U at once; a pass ends with
   the iteration that found its first solution (or after half the time left),
   and the next, smaller weight starts. Over 6-6-6-6 the passes after the
   first answer are not taken one after another: 4/3, 5/4 and 6/5 search in
   turn, a slice of nodes each, joining one by one (:func:`_in_turn`), and
   every answer of one lowers U for all. A solution found with weight w is at
   most w times the optimum. After every improvement a window search replaces
   stretches of the answer by shorter ways between their two ends: up to 24 moves
   on the Manhattan distance (:func:`shorten`), then, over 6-6-6-6, 48 to 64 moves
   over the pattern databases by relabeling the tiles (:func:`shorten_wide`,
   :mod:`solver.npuzzle.windows`).
3. The last pass has w = 1: plain IDA*. Each of its iterations that ends
   without a solution proves a higher lower bound L; if it ends with nothing
   left below U, U is proven optimal.

Every improvement reaches the caller's ``progress`` as ``best`` and
``lower_bound``; the lower bound starts at the heuristic of the start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.errors import BoardError
from ..core.results import SOLVED, Budget, Monitor, Progress, SearchResult, StopSearch
from ..core.tables import TableStore
from .pdb import (
    Databases,
    build_groups,
    build_packed_set,
    databases_list,
    laid_out_search,
    whole_packed,
)
from .pdb_build import compiled
from .reduce import cancel_undos, reduction_cells
from .rules import goal_state, manhattan_conflicts, replay_cells

N = 5
#: the top-left and top-right blocks, the left column's block, the middle right block, the rest
GROUPS: tuple[tuple[int, ...], ...] = (
    (1, 2, 3, 6, 7),
    (4, 5, 8, 9, 10),
    (11, 12, 16, 17, 21),
    (13, 14, 15, 18, 19),
    (20, 22, 23, 24),
)
#: built with the blank's region tracked (flood fills: about a minute, once per machine);
#: on Korf and Felner's 50 the mean bound is 80.0 against 77.5 untracked (optima: 100.8)
TABLE_NAME = "blank-" + "-".join("_".join(map(str, g)) for g in GROUPS)
_HERE = Path(__file__).parent
STORE = TableStore(
    "npuzzle-5x5-pdb", _HERE / "pdb_build.py", _HERE / "kernels.py", _HERE / "pdb.py", slow=True
)

#: the 6-6-6-6 split (the size Korf and Felner 2002 used): four compact blocks turning
#: round the board, the top rows' left 2x3, the right columns' upper 3x2, the left
#: columns' lower 3x2, and the six around the blank's corner. Not symmetric in the main
#: diagonal, on purpose: the mirror lookup reads the same four tables on the mirrored
#: board, which sums a second split (each block's image) and keeps the larger. A split
#: that is its own image would need only its distinct groups built (three), but its
#: mirrored sum equals its direct one: on Korf and Felner's 50 the mean bound was 77.3
#: for such a split against 78.3 for this one, both untracked (5-5-5-5-4 tracked: 80.0).
SIX_GROUPS: tuple[tuple[int, ...], ...] = (
    (1, 2, 3, 6, 7, 8),
    (4, 5, 9, 10, 14, 15),
    (11, 12, 16, 17, 21, 22),
    (13, 18, 19, 20, 23, 24),
)
#: built with the blank's region tracked (flood fills, minutes a group): see the docs
SIX_TRACKED = True
SIX_NAME = ("blank-" if SIX_TRACKED else "free-") + "-".join(
    "_".join(map(str, g)) for g in SIX_GROUPS
)
#: the packed 6-6-6-6 databases, fingerprinted by their builder
SIX_STORE = TableStore(
    "npuzzle-5x5-packed",
    _HERE / "ranking.py",
    _HERE / "packed_build.py",
    _HERE / "pdb_build.py",
    _HERE / "kernels.py",
    slow=True,
)

#: the weights (p, q): w = p/q, tried in turn; the last one proves
WEIGHTS: tuple[tuple[int, int], ...] = (
    (2, 1),
    (7, 4),
    (3, 2),
    (7, 5),
    (4, 3),
    (5, 4),
    (6, 5),
    (8, 7),
    (11, 10),
    (21, 20),
    (1, 1),
)
#: the weights over the 6-6-6-6 databases: the first pass at 3/2, which their sharper
#: bound makes find an answer within a second, with 2 only if it found none (on Korf
#: and Felner's 1-20 at 3 s the mean length fell from 1.060x to 1.047x the optimum;
#: over 5-5-5-5-4 a first pass at 3/2 found nothing on one in ten); the smaller weights
#: search in turn before the proof (:data:`SIX_IN_TURN`)
SIX_WEIGHTS: tuple[tuple[int, int], ...] = ((3, 2), (2, 1), (1, 1))
#: over 6-6-6-6, after the first answer and before the proof: these weights searched
#: in turn a slice at a time (:func:`_in_turn`), each pruned below the best length so far
SIX_IN_TURN: tuple[tuple[int, int], ...] = ((4, 3), (5, 4), (6, 5))
#: with no budget given, a 5x5 search stops after this long (an optimum may take hours)
DEFAULT_SECONDS = 10.0

ProgressFn = Callable[[Progress], None] | None


def tables(progress: ProgressFn = None) -> Databases:
    """One database per group: memory, else disk cache, else built now (a few seconds)."""
    return databases_list(
        STORE.get(
            TABLE_NAME,
            lambda: build_groups(
                N, GROUPS, "24-puzzle pattern databases, once per machine", progress, tracked=True
            ),
        )
    )


def tables_ready() -> bool:
    """True when :func:`searcher` answers at once (6-6-6-6 saved, or 5-5-5-5-4 at hand)."""
    return six_ready() or STORE.ready(TABLE_NAME)


def _six_whole(saved: object) -> bool:
    return whole_packed(saved, SIX_GROUPS, N * N)


def six_tables() -> dict | None:
    """The 6-6-6-6 databases if this machine has them whole; never builds them."""
    return SIX_STORE.load(SIX_NAME, valid=_six_whole)


def six_ready() -> bool:
    return six_tables() is not None


def build_six_tables(progress: ProgressFn = None) -> dict:
    """The 6-6-6-6 databases: loaded, else built now (minutes) and saved."""
    return SIX_STORE.get(
        SIX_NAME,
        lambda: build_packed_set(
            SIX_GROUPS,
            "24-puzzle 6-6-6-6 pattern databases",
            progress,
            n=N,
            tracked=SIX_TRACKED,
        ),
        valid=_six_whole,
    )


def database_name() -> str:
    """The split :func:`searcher` uses on this machine."""
    return "6-6-6-6" if six_ready() else "5-5-5-5-4"


def databases_of(search) -> str:
    """The name of the split a :func:`searcher` answer searches over."""
    return "6-6-6-6" if _six_laid_out and search is _six_laid_out[0][1] else "5-5-5-5-4"


_laid_out: list = []
_six_laid_out: list = []


def searcher(progress: ProgressFn = None, databases: str | None = None):
    """The compiled search over the 5x5 databases: 6-6-6-6 once built on this machine,
    else 5-5-5-5-4 (built first if need be); ``databases`` names one of the two."""
    saved = six_tables() if databases != "5-5-5-5-4" else None
    if saved is None and databases == "6-6-6-6":
        raise BoardError(
            "the 24-puzzle's 6-6-6-6 databases are not built on this machine "
            "(python -m solver tables build 24-puzzle-6-6-6-6)"
        )
    if saved is not None:
        if not _six_laid_out or _six_laid_out[0][0] is not saved["flat"]:
            from .packed_search import PackedSearch

            search = PackedSearch(N, SIX_GROUPS, saved["flat"], saved["sizes"])
            _six_laid_out[:] = [(saved["flat"], search)]
        return _six_laid_out[0][1]
    return laid_out_search(_laid_out, N, GROUPS, tables(progress))


def lower_bound(board: Sequence[int], databases: str | None = None) -> int:
    """The admissible heuristic of a 5x5 board (:func:`searcher`'s)."""
    return searcher(databases=databases).lower_bound(board)


class BestSoFar:
    """The best solution so far and the proven lower bound, told to ``progress`` on change."""

    def __init__(self, cells: list[int], bound: int, progress: ProgressFn, mon: Monitor):
        self.cells, self.bound = cells, bound
        self.progress, self.mon = progress, mon

    def tag(self, p: Progress) -> None:
        """Every progress report carries the best length and the bound."""
        p.best, p.lower_bound = len(self.cells), self.bound
        if self.progress is not None:
            self.progress(p)

    def tell(self, depth: int = 0) -> None:
        if self.progress is not None:
            self.tag(Progress(self.mon.count, depth, 0, self.mon.elapsed))

    def offer(self, cells: list[int]) -> None:
        if len(cells) < len(self.cells):
            self.cells = cells
            self.tell(len(cells))


def anytime_search(
    state: Sequence[int],
    *,
    budget: Budget | None = None,
    cancel=None,
    progress: ProgressFn = None,
    weights: Sequence[tuple[int, int]] | None = None,
    databases: str | None = None,
    relabeled_windows: bool = True,
) -> SearchResult:
    """The shortest solution found within ``budget`` (default :data:`DEFAULT_SECONDS`),
    with its proven ``lower_bound``; ``optimal`` only when the two meet. ``databases``
    names the split (default: :func:`searcher`'s choice); ``weights`` the passes'
    weights (default: :data:`SIX_WEIGHTS` over 6-6-6-6, else :data:`WEIGHTS`)."""
    start = tuple(state)
    search = searcher(progress, databases)  # before the clock: tables are not charged
    if budget is None or (budget.max_seconds is None and budget.max_nodes is None):
        budget = Budget(max_seconds=DEFAULT_SECONDS)
    mon = Monitor(budget, cancel)
    bound = max(search.lower_bound(start), manhattan_conflicts(start))  # both admissible
    best = BestSoFar(reduction_cells(start), bound, progress, mon)
    mon.progress = best.tag if progress is not None else None
    best.tell()
    stopped = None
    solved_at = float("inf")  # the weight of the last pass that found a solution
    six = databases_of(search) == "6-6-6-6"
    in_turn = SIX_IN_TURN if six and weights is None else ()
    if weights is None:
        weights = SIX_WEIGHTS if six else WEIGHTS
    deepen = relabeled_windows and six
    tried: set = set()  # the wide windows that found nothing shorter

    def windows() -> None:
        shorten(start, best, mon)
        if deepen:
            shorten_wide(start, best, mon, search, tried)

    try:
        shorten(start, best, mon)
        for weight in weights:
            if best.bound >= len(best.cells):
                break
            if weight[0] / weight[1] > solved_at:
                continue  # a greedier weight only stands in for one that found nothing
            proving = weight[0] == weight[1]
            if proving and in_turn:
                _in_turn(start, best, mon, search, in_turn, windows)
                if best.bound >= len(best.cells):
                    break
            cells = search.search(
                start,
                mon,
                weight,
                upper=len(best.cells),
                found=best.offer,
                iteration_done=_Proof(best) if proving else None,
                stop_at=None if proving else _share_of_what_is_left(mon),
                one_iteration=not proving,
            )
            if cells is not None:
                best.offer(cells)
                windows()
                solved_at = weight[0] / weight[1]
            elif proving:
                best.bound = len(best.cells)  # nothing shorter was left below the upper cut
    except StopSearch as stop:
        stopped = stop
    moves, states = replay_cells(start, best.cells)
    optimal = best.bound >= len(best.cells)
    result = mon.result(SOLVED, moves, states, optimal=optimal)
    result.lower_bound = min(best.bound, len(best.cells))
    if not optimal:
        why = f" ({stopped.message})" if stopped is not None else ""
        result.message = f"{len(best.cells)} moves, at least {best.bound}: not proven shortest{why}"
    return result


#: the share of the time left that one weighted pass may use (later, smaller weights
#: get their turn; a pass that finds nothing better in its share rarely would later)
PASS_SHARE = 0.5


def _share_of_what_is_left(mon: Monitor) -> float | None:
    if mon.budget.max_seconds is None:
        return None
    return time.monotonic() + (mon.budget.max_seconds - mon.elapsed) * PASS_SHARE


#: the share of the budget kept for the proof (w = 1) after the searches in turn
PROOF_SHARE = 0.05
#: the searches in turn join one by one, each after this share of their time
STAGGER = 1 / 3


def _in_turn(
    start: tuple[int, ...],
    best: BestSoFar,
    mon: Monitor,
    search,
    weights: Sequence[tuple[int, int]],
    windows: Callable[[], None],
) -> None:
    """Weighted IDA* at each of ``weights``, a slice of nodes each in turn, until all
    but :data:`PROOF_SHARE` of the budget is spent; the first starts alone, the k-th
    joins after k times :data:`STAGGER` of that time. Which weight finds a shorter
    answer first varies from board to board by a factor of ten and more (on Korf and
    Felner's 1-10, from the 3/2 pass's answer: 4/3 first on some, 5/4 or 6/5 on
    others, each after 0.1 to 20 million nodes), so none is dropped for the next.
    Every search is pruned below the best length so far, whoever found it; each keeps
    going after its answers (later iterations at the same weight find shorter ones),
    and the windows run after every round that improved the answer. A search that
    runs out of paths below the best length proves that length shortest."""
    until, apart = float("inf"), 0.0  # on a budget of nodes alone: all at once
    if mon.budget.max_seconds is not None:
        until = mon.budget.max_seconds * (1 - PROOF_SHARE)
        apart = (until - mon.elapsed) * STAGGER
    began = mon.elapsed
    waiting = list(weights)
    runs: list = []
    length = len(best.cells)
    while (runs or waiting) and mon.elapsed < until:
        if waiting and mon.elapsed >= began + len(runs) * apart:
            runs.append(
                search.steps(
                    start,
                    mon,
                    waiting.pop(0),
                    len(best.cells),
                    best.offer,
                    upper_now=lambda: len(best.cells),
                )
            )
        for run in list(runs):
            try:
                next(run)
            except StopIteration:
                best.bound = len(best.cells)  # nothing below the upper cut was left
                best.tell()
                return
        if len(best.cells) < length:
            windows()
            length = len(best.cells)


#: (window, step, node limit): stretches of the solution searched for a shorter way
WINDOWS = ((12, 3, 20_000), (18, 4, 100_000), (24, 6, 300_000))


def shorten(start: tuple[int, ...], best: BestSoFar, mon: Monitor) -> None:
    """Replace stretches of the best solution by shorter ways between their two ends.

    For a window of w moves from position s_i to s_{i+w}, IDA* on the Manhattan
    distance between the two looks for a way of at most w-2 moves (a way
    between two positions has the parity of w). Weighted searches leave such
    detours; this finds many of them in milliseconds.
    """
    import numpy as np

    kernels = compiled()

    n = N
    out = np.zeros(64, np.int64)
    improved = True
    while improved:
        improved = False
        for window, step, limit in WINDOWS:
            cells = list(best.cells)
            boards = _boards(start, cells)
            i = 0
            while i + window <= len(cells):
                mon.check(len(cells), 0)
                target = np.zeros(n * n, np.int64)
                for c, t in enumerate(boards[i + window]):
                    target[t] = c
                found = kernels.segment_search(
                    np.array(boards[i], np.int64), target, n, window - 2, limit, out
                )
                if found >= 0:
                    cells = _cancel_undos(
                        start, cells[:i] + [int(c) for c in out[:found]] + cells[i + window :]
                    )
                    boards = _boards(start, cells)
                    best.offer(cells)
                    improved = True
                else:
                    i += step


#: (window, step, node limit) of the windows searched over the pattern databases: on
#: Korf and Felner's 1-10 no window of 40 beat the Manhattan windows, those of 48-72
#: saved 2-4 moves on half of the answers, found within 30,000-800,000 nodes (windows
#: of 72 at a million nodes as well left the w = 1 pass no time: see the docs)
WIDE_WINDOWS = ((48, 4, 300_000), (56, 4, 300_000), (64, 4, 400_000))
#: the share of the time left the wide windows may take after each answer
WIDE_SHARE = 0.3


def shorten_wide(
    start: tuple[int, ...], best: BestSoFar, mon: Monitor, search, tried: set | None = None
) -> None:
    """:func:`shorten` with windows of 48 to 64 moves, each searched over the pattern
    databases by relabeling (:mod:`solver.npuzzle.windows`), within a share of the
    time left. ``tried`` keeps the windows that found nothing (a later answer often
    shares them) so that they are not searched again."""
    from .windows import way_between

    tried = set() if tried is None else tried
    deadline = None
    if mon.budget.max_seconds is not None:
        deadline = mon.elapsed + (mon.budget.max_seconds - mon.elapsed) * WIDE_SHARE
    for window, step, limit in WIDE_WINDOWS:
        cells = list(best.cells)
        boards = _boards(start, cells)
        i = 0
        while i + window <= len(cells):
            if deadline is not None and mon.elapsed >= deadline:
                return
            key = (tuple(boards[i]), tuple(boards[i + window]))
            way = None
            if key not in tried:
                way = way_between(search, boards[i], boards[i + window], window - 2, limit, mon)
            if way is None:
                tried.add(key)
                i += step
                continue
            cells = _cancel_undos(start, cells[:i] + way + cells[i + window :])
            boards = _boards(start, cells)
            best.offer(cells)


def _boards(start: tuple[int, ...], cells: list[int]) -> list[list[int]]:
    board, blank = list(start), start.index(0)
    boards = [list(board)]
    for q in cells:
        board[blank], board[q] = board[q], 0
        blank = q
        boards.append(list(board))
    return boards


def without_undos(start: Sequence[int], cells: list[int]) -> list[int]:
    """``cells`` without the moves that the next move takes straight back."""
    return cancel_undos(list(start).index(0), cells)


_cancel_undos = without_undos


def cells_of(start: Sequence[int], states: Sequence[Sequence[int]]) -> list[int]:
    """The cells slid along ``states`` (the blank's cell after each move)."""
    return [list(s).index(0) for s in states[1:]]


def warm() -> None:
    """Load the tables and the compiled searches (a server does this before it is ready)."""
    import numpy as np

    searcher()  # the split the searches use: 6-6-6-6 once built here, else 5-5-5-5-4
    board = goal_state(N)[:-2] + (0, N * N - 1)
    anytime_search(board, budget=Budget(max_seconds=0.1))
    target = np.arange(-1, N * N - 1, dtype=np.int64)
    target[0] = N * N - 1
    compiled().segment_search(np.array(board, np.int64), target, N, 2, 10, np.zeros(4, np.int64))


class _Proof:
    """Plain IDA*: every iteration that ends without a solution proves the next bound."""

    def __init__(self, best: BestSoFar):
        self.best = best

    def __call__(self, next_bound: int) -> None:
        if next_bound > self.best.bound:
            self.best.bound = min(next_bound, len(self.best.cells))
            self.best.tell(next_bound)
