"""The domain interface: what a puzzle must supply so the algorithms can search it.

One module per puzzle subclasses :class:`Domain` (think Simon Tatham's back ends,
or aima-python's ``Problem``). The algorithms in :mod:`solver.core.search` only ever
talk to this interface, so they are written once for every puzzle.

A domain object is built with the puzzle's options (metric, capacity, goal...)
and then ``parse`` turns board text into a state. Parsing may fix per-board
geometry on the domain (a Klotski board's size and goal), so use one domain
object per board family.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from .errors import BoardError
from .record import Record
from .results import SOLVED, UNSOLVABLE, Budget, Cancel, SearchResult
from .search import OnProgress, breadth_first

#: a domain's state: whatever the domain finds fastest (a tuple, bytes, an int...)
State = TypeVar("State")
#: a domain's move: whatever :meth:`Domain.describe` and :meth:`Domain.move_info` read
Move = TypeVar("Move")
StateT_contra = TypeVar("StateT_contra", contravariant=True)


class Analysis(Record, Generic[State, Move]):
    """How far a position is from solved, and the move that gets closest.

    ``solvable`` is None when the search gave up before deciding; ``distance`` is
    proven shortest only when ``optimal`` is True. ``lower_bound``: proven, no
    solution is shorter (None when only the domain's heuristic is known). ``nodes``:
    positions searched before the budget ran out (set only when the search gave
    up), so the player hears how much was tried.
    """

    _fields = (
        "solvable",
        "distance",
        "optimal",
        "best_move",
        "next_state",
        "message",
        "lower_bound",
        "nodes",
    )

    def __init__(
        self,
        solvable: bool | None,
        distance: int | None,
        optimal: bool,
        best_move: Move | None = None,
        next_state: State | None = None,
        message: str = "",
        lower_bound: int | None = None,
        nodes: int | None = None,
    ) -> None:
        self.solvable = solvable
        self.distance = distance
        self.optimal = optimal
        self.best_move = best_move
        self.next_state = next_state
        self.message = message
        self.lower_bound = lower_bound
        self.nodes = nodes


class Domain(Generic[State, Move]):
    """Base class for puzzle domains. Subclasses override what they need.

    Generic in its state and move types: ``class Jugs(Domain[tuple[int, ...], tuple[int,
    int]])`` tells a type checker what :meth:`parse` returns and :meth:`moves` yields,
    and the searches hand the same types back in their :class:`SearchResult`.
    """

    #: short name used by the CLI, URLs and Socket.IO (``klotski``, ``npuzzle`` ...)
    name: str = "puzzle"
    #: True when :meth:`heuristic` never overestimates, so A*/IDA* answers are optimal
    heuristic_admissible: bool = True
    #: True when every move can be undone by a move, so backward search may use ``moves``
    reversible: bool = True
    #: True when every move changes the distance to solved by exactly one (sliding
    #: tiles: the positions split in two by parity), so no move keeps it equal
    bipartite: bool = False

    # -- notation ---------------------------------------------------------
    def parse(self, text: str) -> State:
        """Turn board text into a state; raise :class:`BoardError` naming the problem."""
        raise NotImplementedError

    def format(self, state: State) -> str:
        """Turn a state back into board text; ``parse(format(s))`` gives ``s`` again."""
        raise NotImplementedError

    # -- rules ------------------------------------------------------------
    def moves(self, state: State) -> Iterable[tuple[Move, State]]:
        """Every legal (move, next state) pair from ``state`` in the domain's metric."""
        raise NotImplementedError

    def legal_moves(self, state: State) -> Iterable[tuple[Move, State]]:
        """Every move a player may make. ``moves`` may leave out moves that cannot
        matter to a search (one that only relabels tubes); a player may still make them."""
        return self.moves(state)

    def is_goal(self, state: State) -> bool:
        raise NotImplementedError

    def key(self, state: State) -> Hashable:
        """Canonical key: equal for states that are the same for search purposes."""
        return state

    # -- optional knowledge -----------------------------------------------
    def heuristic(self, state: State) -> int:
        """A lower bound on the moves left (0 is always safe)."""
        return 0

    #: what :meth:`quick_solvable` checks, for the message when it says False
    quick_test: str = "a quick test"

    def quick_solvable(self, state: State) -> bool | None:
        """A cheap exact solvability test when the puzzle has one (parity), else None."""
        return None

    def distance_by_table(self, state: State) -> int | None:
        """The proven distance when a table already built answers at once (-1: proven
        unsolvable), else None. Never builds a table nor searches."""
        return None

    def within(
        self,
        state: State,
        bound: int,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
    ) -> bool | None:
        """Is ``state`` solvable in at most ``bound`` moves? None when the budget ran out.

        The default solves the position; a domain with a bounded search (IDA*
        that stops at ``bound``) overrides this to answer sooner.
        """
        if bound < 0:
            return False
        result = self.solve(state, budget=budget, cancel=cancel)
        if result.status == SOLVED and result.optimal:
            return result.length <= bound
        if result.status == UNSOLVABLE:
            return False
        if result.status == SOLVED and result.length <= bound:
            return True
        return None

    def goal_states(self, start: State) -> Iterator[State]:
        """Every goal state reachable from ``start``'s family, for backward search."""
        raise NotImplementedError(f"{self.name} cannot enumerate its goal states")

    def predecessors(self, state: State) -> Iterable[tuple[Move, State]]:
        """States one move before ``state``. Reversible puzzles reuse ``moves``."""
        if not self.reversible:
            raise NotImplementedError(f"{self.name} moves are not reversible")
        return self.moves(state)

    # -- strategy -----------------------------------------------------------
    def solve(
        self,
        state: State,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[State, Move]:
        """Find a solution with the best algorithm for this puzzle (a SearchResult).

        The default is breadth-first search; domains override this to use their
        tables or heuristics.
        """
        return breadth_first(self, state, budget=budget, cancel=cancel, progress=progress)

    def analyse(
        self,
        state: State,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> Analysis[State, Move]:
        """Distance to solved and the best next move; tables answer by lookup."""
        quick = self.quick_solvable(state)
        if quick is False:
            return Analysis(solvable=False, distance=None, optimal=True)
        result = self.solve(state, budget=budget, cancel=cancel, progress=progress)
        if result.status == SOLVED:
            return Analysis(
                solvable=True,
                distance=result.length,
                optimal=result.optimal,
                best_move=result.moves[0] if result.moves else None,
                next_state=result.states[1] if result.moves else None,
            )
        if result.status == UNSOLVABLE:
            return Analysis(solvable=False, distance=None, optimal=True)
        return Analysis(
            solvable=None, distance=None, optimal=False, message=result.message, nodes=result.nodes
        )

    # -- presentation -----------------------------------------------------
    def describe(self, move: Move) -> str:
        """A human-readable move, e.g. ``B down`` or ``tube 1 -> 3``."""
        return str(move)

    def move_info(self, move: Move) -> dict[str, Any]:
        """A JSON-ready move for the web page (see each domain for its fields)."""
        return {"text": self.describe(move)}


@runtime_checkable
class QuickAnalyser(Protocol[StateT_contra]):
    """A domain that can answer at once, before its proven answer (the 15-puzzle).

    ``quick_analyse`` gives a hint within a second, maybe not the shortest, or None
    when it has nothing quick to say; the engine sends it as an interim analysis.
    """

    def quick_analyse(
        self, state: StateT_contra, cancel: Cancel | None = None
    ) -> Analysis[Any, Any] | None: ...


def require(condition: bool, message: str, **params: object) -> None:
    """Raise :class:`BoardError` with ``message`` (a template, when ``params`` fill it)
    unless ``condition`` holds."""
    if not condition:
        raise BoardError(message, **params)
