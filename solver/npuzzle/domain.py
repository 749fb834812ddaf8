"""The N-puzzle (8-puzzle, 15-puzzle and larger): notation, rules and strategy.

The rules (states, moves, parity, the lower bound) are in :mod:`solver.npuzzle.rules`.

Strategy by size (see :meth:`NPuzzle.solve`):

* any size: parity decides solvability instantly, unsolvable boards are never searched;
* 2x2: breadth-first search (12 positions);
* 3x3: a full distance table (:mod:`solver.npuzzle.table`), optimal by lookup;
* 4x4: a compiled IDA* over additive pattern databases
  (:mod:`solver.npuzzle.pdb`), optimal within the budget (with no budget,
  always), else the best non-optimal solution (``optimal=False``); the
  databases are built before the budget's clock starts;
* 5x5: an anytime search (:mod:`solver.npuzzle.anytime`): the reduction's
  answer at once, then ever shorter ones from weighted IDA* over 5-tile pattern
  databases, each with its proven lower bound ("N moves, at least L");
* 6x6 and larger: the row-and-column reduction (:mod:`solver.npuzzle.reduce`)
  down to the bottom-right 5x5, which the anytime search finishes: never
  claimed optimal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from ..core.domain import Analysis, Domain, require
from ..core.errors import BoardError
from ..core.results import BUDGET, SOLVED, UNSOLVABLE, Budget, Cancel, Monitor, SearchResult
from ..core.search import OnProgress, breadth_first
from ..core.tables import TableSet
from ..core.text import N_
from .rules import (
    MAX_SIDE,
    Slide,
    goal_state,
    manhattan_conflicts,
    neighbours,
    replay_cells,
    side,
    slide,
    solvable,
)
from .table import STORE as EIGHT_STORE
from .table import best_cell, distance, distances, ranked, solve_by_table

# The 4x4 and larger searches (:mod:`.pdb`, :mod:`.anytime`, :mod:`.reduce`) are imported
# where a board of their size first needs them: an 8-puzzle call, a one-shot CLI run
# most of all, pays for none of their imports.

#: the proven 4x4 analysis of the rare very hard board: quick_analyse has answered already
ANALYSE_BUDGET = Budget(max_seconds=8.0)

#: quick_analyse's try at a proof on 4x4 (enough for nearly every board); with the
#: fallbacks below a hint always comes within a second
QUICK_PROOF = Budget(max_nodes=2_000_000, max_seconds=0.35)

#: a 5x5 analysis (a hint's best move and the distance bar)
ANALYSE_TWENTY_FOUR = Budget(max_seconds=1.0)

#: the share of a larger board's search given to its last 5x5 corner
CORNER = Budget(max_seconds=2.0)

#: after an optimal search runs out: (weight p/q on h, allowance), best first
FALLBACKS = [
    ((3, 2), Budget(max_seconds=0.25, max_nodes=3_000_000)),
    ((2, 1), Budget(max_seconds=0.2, max_nodes=2_000_000)),
]

PARITY_MESSAGE = N_("unsolvable: the tile parity cannot reach the goal")

_SEPARATORS = re.compile(r"[\s,/]+")
_NUMBER = re.compile(r"[0-9]+")


#: a board: the tile numbers row-major, 0 the blank
Tiles = tuple[int, ...]


class NPuzzle(Domain[Tiles, Slide]):
    """Sliding tiles on an n x n board, 2 <= n <= 10 (one domain serves every size)."""

    name = "npuzzle"
    quick_test = "parity"
    bipartite = True  # a slide moves the blank one cell: distance parity flips

    # -- notation -------------------------------------------------------
    def parse(self, text: str) -> tuple[int, ...]:
        if not isinstance(text, str):
            raise BoardError("board must be text")
        words = [w for w in _SEPARATORS.split(text.strip()) if w]
        require(
            bool(words), N_("board is empty: give the tile numbers row by row, 0 for the blank")
        )
        for word in words:
            require(
                _NUMBER.fullmatch(word) is not None,
                N_("%(word)s is not a tile number"),
                word=repr(word[:20]),
            )
        count = len(words)
        n = round(count**0.5)
        require(
            n * n == count,
            f"{count} tiles do not make a square board "
            f"(an n x n board has n*n numbers, counting 0 for the blank)",
        )
        require(n >= 2, N_("a 1x1 board is too small: the smallest is 2x2 (1 2 3 0)"))
        require(
            n <= MAX_SIDE, f"a {n}x{n} board is too large: the largest is {MAX_SIDE}x{MAX_SIDE}"
        )
        tiles = [int(w) for w in words]
        missing = sorted(set(range(count)) - set(tiles))
        lacking = f" and tile {missing[0]} is missing" if missing else ""
        seen = set()
        for t in tiles:
            require(
                t < count,
                f"tile {t} is out of range (a {n}x{n} board uses 0 to {count - 1}){lacking}",
            )
            require(t not in seen, f"tile {t} appears twice{lacking}")
            seen.add(t)
        # n*n distinct numbers below n*n: every tile is present exactly once
        return tuple(tiles)

    def format(self, state: Sequence[int]) -> str:
        return " ".join(str(t) for t in state)

    # -- rules ------------------------------------------------------------
    def moves(self, state: tuple[int, ...]) -> Iterator[tuple[Slide, tuple[int, ...]]]:
        z = state.index(0)
        for q, way in neighbours(side(state))[z]:
            board = list(state)
            board[z], board[q] = board[q], 0
            yield Slide(state[q], way), tuple(board)

    def is_goal(self, state: Sequence[int]) -> bool:
        return tuple(state) == goal_state(side(state))

    def heuristic(self, state: Sequence[int]) -> int:
        return manhattan_conflicts(state)

    def quick_solvable(self, state: Sequence[int]) -> bool | None:
        return solvable(state)

    def goal_states(self, start: Sequence[int]) -> Iterator[tuple[int, ...]]:
        yield goal_state(side(start))

    def distance_by_table(self, state: Sequence[int]) -> int | None:
        """3x3: the full distance table (-1 for the other parity half)."""
        state = tuple(state)
        if side(state) != 3:
            return None
        return distance(state) if solvable(state) else -1

    def within(
        self,
        state: Tiles,
        bound: int,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
    ) -> bool | None:
        """4x4: IDA* over the pattern databases that gives up past ``bound`` moves."""
        state = tuple(state)
        if side(state) != 4 or not solvable(state):
            return super().within(state, bound, budget=budget, cancel=cancel)
        from .pdb import ida_star_fifteen

        result = ida_star_fifteen(state, budget=budget, cancel=cancel, max_length=bound)
        if result.status == SOLVED:
            return result.length <= bound
        if result.status == UNSOLVABLE:
            return False
        return None

    # -- presentation -----------------------------------------------------
    def describe(self, move: Slide) -> str:
        return f"{move.tile} {move.dir}"

    def move_info(self, move: Slide) -> dict[str, Any]:
        return {"tile": move.tile, "dir": move.dir, "text": self.describe(move)}

    # -- strategy -----------------------------------------------------------
    def solve(
        self,
        state: Tiles,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[Tiles, Slide]:
        """The best answer each size allows (module docstring); never searches parity losers."""
        state = tuple(state)
        n = side(state)
        mon = Monitor(budget, cancel, progress)
        if not solvable(state):
            return mon.result(UNSOLVABLE, optimal=True, message=PARITY_MESSAGE)
        if self.is_goal(state):
            return mon.result(SOLVED, states=[state], optimal=True)
        if n == 2:
            return breadth_first(self, state, budget=budget, cancel=cancel, progress=progress)
        if n == 3:
            moves, states = replay_cells(state, solve_by_table(state))
            return mon.result(SOLVED, moves, states, optimal=True)
        if n == 4:
            return self._solve_fifteen(state, budget, cancel, progress)
        if n == 5:
            # at most its default time (no budget, or a longer one): its best answers are in
            from .anytime import DEFAULT_SECONDS, anytime_search

            limit = _tighter(budget, Budget(max_seconds=DEFAULT_SECONDS))
            return anytime_search(state, budget=limit, cancel=cancel, progress=progress)
        return self._solve_large(state, budget, cancel, progress)

    def _solve_large(
        self,
        state: Tiles,
        budget: Budget | None,
        cancel: Cancel | None,
        progress: OnProgress | None,
    ) -> SearchResult[Tiles, Slide]:
        """Rows and columns down to a 5x5 corner, then the anytime search on that corner."""
        from .anytime import anytime_search, cells_of, without_undos
        from .reduce import reduce_to

        cells, corner, to_big = reduce_to(state, 5)
        found = anytime_search(
            corner, budget=_tighter(budget, CORNER), cancel=cancel, progress=progress
        )
        if found.status != SOLVED:
            return found
        tail = [to_big[q] for q in cells_of(corner, found.states)]
        moves, states = replay_cells(state, without_undos(state, cells + tail))
        result = SearchResult(
            SOLVED,
            moves,
            states,
            optimal=False,
            nodes=found.nodes,
            seconds=found.seconds,
            message="rows and columns, then a searched 5x5 corner: not proven shortest",
        )
        result.lower_bound = manhattan_conflicts(state)
        return result

    def _solve_fifteen(
        self,
        state: Tiles,
        budget: Budget | None,
        cancel: Cancel | None,
        progress: OnProgress | None,
    ) -> SearchResult[Tiles, Slide]:
        """Optimal IDA* within ``budget`` (None: no limit, the optimum always); when it
        runs out, the best quick answer instead.

        The fallbacks, tried in order with a short allowance each: weighted IDA*
        with f = g + 1.5h (typically 5-10% longer than optimal), then g + 2h,
        then the row/column reduction, which always succeeds at once.
        """
        from .pdb import ida_star_fifteen

        result = ida_star_fifteen(state, budget=budget, cancel=cancel, progress=progress)
        if result.status != BUDGET:
            return result
        spent_nodes, spent_seconds = result.nodes, result.seconds
        for weight, allowance in FALLBACKS:
            quick = ida_star_fifteen(state, budget=allowance, cancel=cancel, weight=weight)
            spent_nodes += quick.nodes
            spent_seconds += quick.seconds
            if quick.status != BUDGET:
                break
        else:
            quick = self._solve_reduced(state, Monitor())
        quick.nodes, quick.seconds = spent_nodes, spent_seconds
        quick.lower_bound = result.lower_bound
        if quick.status == SOLVED:
            quick.message = (
                f"{result.message}; this {quick.length}-move solution is not proven shortest"
            )
        return quick

    def _solve_reduced(self, state: Tiles, mon: Monitor) -> SearchResult[Tiles, Slide]:
        from .reduce import reduction_cells

        moves, states = replay_cells(state, reduction_cells(state))
        return mon.result(
            SOLVED, moves, states, optimal=False, message="fast solution, not proven shortest"
        )

    def quick_analyse(
        self, state: Tiles, cancel: Cancel | None = None
    ) -> Analysis[Tiles, Slide] | None:
        """A hint within a second for boards whose proof may take longer (4x4 and up).

        :func:`solver.engine.analyse_stages` sends this before :meth:`analyse`.
        On 4x4 a short optimal search comes first (enough near the goal, and
        then the answer is final); else a weighted search or the row/column
        reduction gives a legal, unproven hint (``optimal`` False). If the
        pattern databases are not built yet, only the reduction runs: building
        them takes far longer than a second. ``None`` below 4x4, where the
        full answer is instant anyway.
        """
        state = tuple(state)
        if side(state) < 4:
            return None
        known = self._known(state)
        if known is not None:
            return known
        from .pdb import ida_star_fifteen, search_ready

        n = side(state)
        result = None
        if n == 4 and search_ready():
            result = ida_star_fifteen(state, budget=QUICK_PROOF, cancel=cancel)
            for weight, allowance in FALLBACKS:
                if result.status != BUDGET:
                    break
                result = ida_star_fifteen(state, budget=allowance, cancel=cancel, weight=weight)
        if result is None or result.status == BUDGET:
            result = self._solve_reduced(state, Monitor())
        if result.status != SOLVED:  # cancelled: the caller drops it anyway
            return None
        return _analysis_of(result, "" if result.optimal else "quick hint, not proven shortest")

    def _known(self, state: Tiles) -> Analysis[Tiles, Slide] | None:
        """The analysis known without searching: unsolvable by parity, or solved already."""
        if not solvable(state):
            return Analysis(solvable=False, distance=None, optimal=True, message=PARITY_MESSAGE)
        if self.is_goal(state):
            return Analysis(solvable=True, distance=0, optimal=True)
        return None

    def analyse(
        self,
        state: Tiles,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> Analysis[Tiles, Slide]:
        """Distance and best move: table lookup on 3x3, a budgeted proof attempt on 4x4."""
        state = tuple(state)
        known = self._known(state)
        if known is not None:
            return known
        n = side(state)
        if n == 3:
            move, nxt = slide(state, best_cell(state))
            return Analysis(
                solvable=True,
                distance=distance(state),
                optimal=True,
                best_move=move,
                next_state=nxt,
            )
        from .anytime import tables_ready as twenty_four_ready

        if n == 4:
            result = self._solve_fifteen(state, _tighter(budget, ANALYSE_BUDGET), cancel, progress)
        elif not twenty_four_ready():
            # a hint must not wait a minute for the 5x5 databases: the reduction answers
            result = self._solve_reduced(state, Monitor())
        elif n == 5:
            result = self.solve(
                state,
                budget=_tighter(budget, ANALYSE_TWENTY_FOUR),
                cancel=cancel,
                progress=progress,
            )
        else:
            result = self.solve(state, budget=budget, cancel=cancel, progress=progress)
        if result.status != SOLVED:
            return Analysis(
                solvable=True,
                distance=None,
                optimal=False,
                message=result.message,
                nodes=result.nodes,
            )
        return _analysis_of(result, result.message)


def _analysis_of(result: SearchResult, message: str) -> Analysis:
    """Distance and first move of a solution (of a board that is not the goal)."""
    return Analysis(
        solvable=True,
        distance=result.length,
        optimal=result.optimal,
        best_move=result.moves[0],
        next_state=result.states[1],
        message=message,
        lower_bound=result.lower_bound,
    )


def warm_tables() -> None:
    """Build (or load) the 3x3 table, the 4x4 and 5x5 pattern databases, and load the
    compiled searches (short solves), so the first hint pays for none of them.

    A server calls this before its workers report ready.
    """
    from .anytime import warm as warm_anytime
    from .pdb import ida_star_fifteen, searcher

    warm_eight()  # the generator's dict and the lookups' table
    searcher()  # the set the search uses: 7-8 once built on this machine, else 6-6-3
    ida_star_fifteen(WARM_BOARD)
    warm_anytime()


def warm_eight() -> None:
    """The 3x3 table only (a second): what a server warms before anything else."""
    distances()
    ranked()


def table_sets() -> list[TableSet]:
    """The tables :func:`warm_tables` reads (and the 15-puzzle's 7-8 set, which only
    ``python -m solver tables build`` makes), as ``python -m solver tables`` lists them."""
    from .anytime import GROUPS as TWENTY_FOUR_GROUPS
    from .anytime import STORE as TWENTY_FOUR_STORE
    from .anytime import TABLE_NAME as TWENTY_FOUR_TABLE
    from .anytime import tables as twenty_four_tables
    from .pdb import database_sets

    return [
        TableSet(
            name="8-puzzle-distances",
            what="every 8-puzzle position's distance (built on first use)",
            store=EIGHT_STORE,
            table="ranked",  # the lookups'; the generator's dict is built beside it
            build=lambda progress: (ranked(), distances()),
            size_bytes=None,  # 9! bytes, and the pickled dict: known once saved
        ),
        *database_sets(),
        TableSet(
            name="24-puzzle-5-5-5-5-4",
            what="24-puzzle 5-5-5-5-4 pattern databases (built on first use)",
            store=TWENTY_FOUR_STORE,
            table=TWENTY_FOUR_TABLE,
            build=twenty_four_tables,
            size_bytes=sum(25 ** len(g) for g in TWENTY_FOUR_GROUPS),
        ),
        six_six_six_six(),
    ]


def six_six_six_six() -> TableSet:
    """The 24-puzzle's 6-6-6-6 set: only ``tables build`` makes it (minutes)."""
    from .anytime import (
        SIX_GROUPS,
        SIX_NAME,
        SIX_STORE,
        SIX_TRACKED,
        build_six_tables,
        six_ready,
    )
    from .pdb import packed_sizes
    from .ranking import placements

    size = sum(packed_sizes(SIX_GROUPS, 25))
    largest = max(placements(25, len(g)) for g in SIX_GROUPS)
    return TableSet(
        name="24-puzzle-6-6-6-6",
        what="24-puzzle 6-6-6-6 pattern databases, packed (used instead of 5-5-5-5-4 once built)",
        store=SIX_STORE,
        table=SIX_NAME,
        build=build_six_tables,
        size_bytes=size,
        # a byte per (placement, free cell) of a group while it builds (per placement
        # untracked), and the packed tables twice while they are laid end to end
        memory_bytes=largest * ((25 - 6) if SIX_TRACKED else 1) + 2 * size,
        on_demand=False,
        usable=six_ready,
    )


#: one move from the goal: a solve that only loads the compiled search's machine code
WARM_BOARD = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15)


Limit = TypeVar("Limit", int, float)


def _tighter(budget: Budget | None, cap: Budget) -> Budget:
    """Each limit is the smaller of the caller's and ``cap``'s."""
    if budget is None:
        return cap

    def least(a: Limit | None, b: Limit | None) -> Limit | None:
        return b if a is None else a if b is None else min(a, b)

    return Budget(
        max_nodes=least(budget.max_nodes, cap.max_nodes),
        max_seconds=least(budget.max_seconds, cap.max_seconds),
    )
