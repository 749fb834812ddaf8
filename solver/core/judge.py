"""A judged move: one position to the next, checked by the rules and rated by exact distance.

Streak, storm (and races) trust nothing the page says but the position it reached:
:func:`judge_move` checks that ``after`` is one legal move from ``before`` and rates
the move by the proven distances of both. A move is *closer* when it takes exactly
one move off the distance; any other makes the puzzle longer to solve, and then the
answer names a move that was closer. Distances come from the game's own strategy
(tables, or a search within ``budget``); an answer that is not proven is refused.
"""

from __future__ import annotations

from typing import Any

from .domain import Analysis, Domain
from .results import Budget, Cancel


class NotProven(Exception):
    """The distance could not be proven within the budget: the move was not judged."""


def _distance(
    domain: Domain[Any, Any], state: Any, budget: Budget | None, cancel: Cancel | None
) -> tuple[int | None, Analysis[Any, Any]]:
    """(proven distance, or None when unsolvable; the analysis)."""
    analysis = domain.analyse(state, budget=budget, cancel=cancel)
    if analysis.solvable is False:
        return None, analysis
    if not (analysis.optimal and analysis.distance is not None):
        raise NotProven(analysis.message or "the distance could not be proven in time")
    return analysis.distance, analysis


def judge_move(
    domain: Domain[Any, Any],
    before: str,
    after: str,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
) -> dict[str, Any]:
    """``{"legal": False}`` when ``after`` is not one legal move from ``before``; else
    ``{"legal", "board" (after, canonical), "move" (its words), "before", "after"
    (proven distances; None: unsolvable), "closer", "solved", "better", "better_move"}``
    where ``better`` is a position one closer move away (None when the move was closer).
    BoardError for a board that does not parse; :class:`NotProven` when over budget."""
    start = domain.parse(before)
    target = domain.parse(after)
    wanted = domain.key(target)
    played = next((m for m, nxt in domain.legal_moves(start) if domain.key(nxt) == wanted), None)
    if played is None:
        return {"legal": False}
    was, analysis = _distance(domain, start, budget, cancel)
    now, _ = _distance(domain, target, budget, cancel)
    closer = was is not None and now is not None and now == was - 1
    better = better_move = None
    if not closer and analysis.next_state is not None and analysis.best_move is not None:
        better = domain.format(analysis.next_state)
        better_move = domain.describe(analysis.best_move)
    return {
        "legal": True,
        "board": domain.format(target),
        "move": domain.describe(played),
        "before": was,
        "after": now,
        "closer": closer,
        "solved": domain.is_goal(target),
        "better": better,
        "better_move": better_move,
    }
