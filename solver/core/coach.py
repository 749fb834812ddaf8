"""Every legal move of a position rated, written once over the Domain interface.

A chess tablebase lists each legal move with its exact outcome; here each move
gets the distance to solved of the position it leads to, and a verdict against
the position's own distance ``d``:

* ``best``: the move reaches ``d - 1`` (no move can do better);
* ``equal``: it stays at ``d`` (no closer, no farther);
* ``worse``: it lands farther than ``d``;
* ``dead``: afterwards the puzzle cannot be solved at all;
* ``unknown``: not proven within the budget. Nothing is ever guessed.

How a child's distance is found, cheapest first: the domain's quick
solvability test, a table lookup (:meth:`Domain.distance_by_table`), the
parent's own answer (its best move reaches ``d - 1``), then a search. For a
reversible puzzle a child lies within one move of its parent, so its distance
is ``d - 1``, ``d`` or ``d + 1`` and bounded searches (:meth:`Domain.within`)
decide which; a bipartite puzzle (sliding tiles) cannot stay at ``d``, so one
bounded search settles it. Other puzzles (a pour cannot be undone) solve each
child within what is left of the budget.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Generic, TypeVar

from .results import SOLVED, UNSOLVABLE, Budget, Cancel, cancel_test

if TYPE_CHECKING:
    from .domain import Analysis, Domain

S = TypeVar("S")
M = TypeVar("M")


class Verdict(StrEnum):
    """A move's verdict against its position; strings, so JSON carries ``"best"``."""

    BEST = "best"
    EQUAL = "equal"
    WORSE = "worse"
    DEAD = "dead"
    UNKNOWN = "unknown"


BEST, EQUAL, WORSE, DEAD, UNKNOWN = Verdict
#: the order options are listed in: best first, dead last
VERDICT_ORDER = {BEST: 0, EQUAL: 1, WORSE: 2, UNKNOWN: 3, DEAD: 4}


@dataclass
class Rated(Generic[S, M]):
    """One legal move and what is proven about the position after it.

    ``distance`` is proven shortest when ``optimal`` holds; with ``optimal``
    False it is only an upper bound (shown as "≤"), or None when nothing is known.
    """

    move: M
    state: S
    distance: int | None = None
    solvable: bool | None = None
    optimal: bool = False
    verdict: Verdict = UNKNOWN

    @property
    def exact(self) -> bool:
        return self.optimal and (self.distance is not None or self.solvable is False)


def accuracy(shortest: int, length: int) -> int:
    """A solve's accuracy: ``100 * shortest / length`` as a whole percentage, rounded half
    up and never over 100. The one rule for the server and the page (the page's copy,
    ``static/js/score.js``, is held equal to it); integers only, so no float decides a
    half."""
    if length <= 0:
        raise ValueError("a solve has at least one move")
    return min(100, (200 * shortest + length) // (2 * length))


class _Clock:
    """What is left of one budget shared by every child's search."""

    def __init__(self, budget: Budget | None, cancel: Cancel | None) -> None:
        self.budget = budget or Budget()
        self.started = time.monotonic()
        self.cancel = cancel
        self.cancelled = cancel_test(cancel)
        self.ran_out = False

    def left(self) -> Budget | None:
        """The budget for the next search, or None when nothing is left."""
        if self.cancelled():
            self.ran_out = True
            return None
        seconds = self.budget.max_seconds
        if seconds is not None:
            seconds -= time.monotonic() - self.started
            if seconds <= 0.001:
                self.ran_out = True
                return None
        return Budget(self.budget.max_nodes, seconds)


def rate_moves(
    domain: Domain[S, M],
    state: S,
    analysis: Analysis[S, M],
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    search: bool = True,
) -> tuple[list[Rated[S, M]], bool]:
    """Every legal move of ``state`` rated; ``analysis`` is the position's own analysis.

    Returns (rated moves, best first; complete). ``complete`` is False when the
    budget ran out (or ``search`` was False) before every child that a search
    could settle was settled, so more time might prove more.
    """
    clock = _Clock(budget, cancel)
    parent = analysis.distance if analysis.optimal and analysis.solvable else None
    best_key = (
        domain.key(analysis.next_state)
        if analysis.next_state is not None and parent is not None
        else None
    )
    here = domain.key(state)
    rated = [Rated(move, child) for move, child in domain.legal_moves(state)]
    # a search is worth it when the parent's own answer came within the budget
    # (a reversible child is as hard as its parent: without the parent's proof,
    # its bounds are all one can honestly give)
    searchable = (
        search and analysis.solvable is not None and (parent is not None or not domain.reversible)
    )
    for item in rated:
        if domain.key(item.state) == here and parent is not None:
            _set(item, parent, True)  # a move that only relabels (tube order)
        elif not _rate_without_search(domain, item, parent, best_key, analysis):
            if searchable:
                _rate_by_search(domain, item, parent, clock)
            if not item.exact:
                _bound_from_parent(domain, item, analysis)
    _judge(rated, parent)
    complete = search and not clock.ran_out
    rated.sort(
        key=lambda r: (VERDICT_ORDER[r.verdict], r.distance if r.distance is not None else 1 << 30)
    )
    return rated, complete


def _rate_without_search(
    domain: Domain[S, M],
    item: Rated[S, M],
    parent: int | None,
    best_key: Hashable | None,
    analysis: Analysis[S, M],
) -> bool:
    """Settle ``item`` by what costs nothing; True when it is settled."""
    child = item.state
    if analysis.solvable is False and analysis.optimal:
        _set(item, None, False)  # no move rescues an unsolvable position
        return True
    if domain.quick_solvable(child) is False:
        _set(item, None, False)
        return True
    known = domain.distance_by_table(child)
    if known is not None:
        _set(item, known, known >= 0)
        return True
    if domain.is_goal(child):
        _set(item, 0, True)
        return True
    if best_key is not None and parent is not None and domain.key(child) == best_key:
        _set(item, parent - 1, True)
        return True
    return False


def _rate_by_search(
    domain: Domain[S, M], item: Rated[S, M], parent: int | None, clock: _Clock
) -> None:
    """Bounded searches around the parent's distance, else a solve of the child."""
    child = item.state
    if domain.reversible and parent is not None:
        for bound in (parent - 1, parent):
            if bound == parent and domain.bipartite:
                _set(item, parent + 1, True)  # neither d-1 nor d: the only one left
                return
            left = clock.left()
            if left is None:
                return
            found = domain.within(child, bound, budget=left, cancel=clock.cancel)
            if found is None:
                clock.ran_out = True
                return
            if found:
                _set(item, bound, True)
                return
        _set(item, parent + 1, True)
        return
    left = clock.left()
    if left is None:
        return
    result = domain.solve(child, budget=left, cancel=clock.cancel)
    if result.status == SOLVED:
        item.distance, item.solvable, item.optimal = result.length, True, result.optimal
        clock.ran_out = clock.ran_out or not result.optimal  # its proof ran out of time
    elif result.status == UNSOLVABLE:
        _set(item, None, False)
    else:
        clock.ran_out = True


def _bound_from_parent(domain: Domain[S, M], item: Rated[S, M], analysis: Analysis[S, M]) -> None:
    """Upper bounds from the parent's answer, proven or not: its best move's child is
    one move nearer, and (reversible puzzles) any child at most one move farther."""
    if analysis.distance is None or not analysis.solvable:
        return
    if analysis.next_state is not None and domain.key(item.state) == domain.key(
        analysis.next_state
    ):
        ceiling = analysis.distance - 1
    elif domain.reversible:
        ceiling = analysis.distance + 1
    else:
        return
    item.solvable = True
    if item.distance is None or item.distance > ceiling:
        item.distance, item.optimal = ceiling, False


def _set(item: Rated[S, M], distance: int | None, solvable: bool) -> None:
    item.distance = distance if solvable else None
    item.solvable = solvable
    item.optimal = True


def _judge(rated: list[Rated[S, M]], parent: int | None) -> None:
    """Verdicts from proven distances only; an unproven child stays ``unknown``.

    Without the parent's distance, it follows once every child is proven:
    ``d = 1 + the least child distance``.
    """
    if parent is None:
        live = [r.distance for r in rated if r.exact and r.solvable and r.distance is not None]
        if rated and all(r.exact for r in rated) and live:
            parent = 1 + min(live)
    for item in rated:
        if item.solvable is False and item.optimal:
            item.verdict = DEAD
        elif not item.exact or parent is None or item.distance is None:
            item.verdict = UNKNOWN
        elif item.distance < parent:
            item.verdict = BEST
        elif item.distance == parent:
            item.verdict = EQUAL
        else:
            item.verdict = WORSE
