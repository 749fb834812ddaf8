"""The originals: the original programs' own searches, kept as named baselines
(``seed-bfs``, ``seed-bidirectional``, ``seed-astar``, the names the CLI takes), run by
:func:`solver.core.baseline.original_search` over a game's string model, their answers
turned into the game's moves by replaying them with the rules.

The string models share no code with the rules, so a path they find is checked here:
each step must be one legal move of the real game, and the last position solved.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import catalogue
from .core.domain import Domain
from .core.results import SOLVED, Budget, Cancel, SearchResult
from .core.search import OnProgress

if TYPE_CHECKING:  # the loops themselves are imported when an original runs, not before
    from .core.baseline import OriginalModel

#: the originals the CLI, ``solve_board`` and the lab offer by name
ORIGINAL_SEARCHES = ("seed-bfs", "seed-bidirectional", "seed-astar")


def original_model(puzzle: str, board: str, options: Mapping[str, Any]) -> OriginalModel:
    """``puzzle``'s string model for ``board`` (canonical) and its checked options: the
    ``original_model`` of the game's ``baseline`` module, found by name as the bench finds
    the game's ``bench`` module, so no declaration imports it."""
    package = catalogue.get(puzzle).__module__.rsplit(".", 1)[0]
    made: OriginalModel = importlib.import_module(f"{package}.baseline").original_model(
        board, options
    )
    return made


class OriginalPathInvalid(RuntimeError):
    """An original's answer that the game's rules do not accept (a bug in a string model)."""


def original_solve(
    domain: Domain[Any, Any],
    state: Any,
    model: OriginalModel,
    name: str,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
) -> SearchResult[Any, Any]:
    """Run the original's search ``name`` from ``state``; a solution comes back as the
    game's own moves and states, replayed with the rules."""
    from .core.baseline import original_search

    if name not in ORIGINAL_SEARCHES:
        raise ValueError(f"unknown seed search {name!r}")
    found = original_search(name, model, budget=budget, cancel=cancel, progress=progress)
    # the original's own figures, its path (strings) swapped for the game's moves and states
    result: SearchResult[Any, Any] = found.replace(moves=[], states=[])
    if found.status == SOLVED:
        result.moves, result.states = replay_seed_path(domain, state, model, found.states)
    return result


def replay_seed_path(
    domain: Domain[Any, Any], start: Any, model: OriginalModel, path: list[str]
) -> tuple[list[Any], list[Any]]:
    """The game's moves and states along ``path`` (the model's strings from ``start``):
    at each step the legal move whose position the model writes as the next string."""
    canonical = model.canonical
    if canonical(model.encode(domain.format(start))) != canonical(path[0]):
        raise OriginalPathInvalid("the original's path does not start at the board")
    moves: list[Any] = []
    states = [start]
    for target in path[1:]:
        want = canonical(target)
        step = next(
            (
                (move, child)
                for move, child in domain.moves(states[-1])
                if canonical(model.encode(domain.format(child))) == want
            ),
            None,
        )
        if step is None:
            raise OriginalPathInvalid(f"the original's step to {target!r} is no legal move")
        moves.append(step[0])
        states.append(step[1])
    if not domain.is_goal(states[-1]):
        raise OriginalPathInvalid("the original's path does not end solved")
    return moves, states
