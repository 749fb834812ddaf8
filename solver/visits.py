"""The order a search expands the positions of a state space: what the lab animates.

The search runs as it always does (:data:`~solver.core.search.ALGORITHMS` over the
rules, or an original's over its string model) with its expansions watched: each time it
asks for a position's moves, that position's index in the :class:`StateSpace` is
recorded, with its depth in the search (moves from where its side began: the start,
or a goal for a backward search) and how many positions first found there. The
page replays that record: pause, step and speed work on it, not on a process.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, TypeVar, cast

from . import catalogue
from .core.baseline import OriginalModel, original_search
from .core.domain import Domain
from .core.results import SOLVED, UNSOLVABLE, Budget, Cancel, SearchResult
from .core.search import ALGORITHMS
from .core.space import StateSpace
from .originals import ORIGINAL_SEARCHES, original_model

T = TypeVar("T")

#: the most expansions recorded for one search (IDA* may expand a position many times)
MAX_VISITS = 200_000


class _Record:
    """Expansions as they happen: graph index, depth, positions first found."""

    def __init__(self, index: dict[Hashable, int]) -> None:
        self.index = index
        self.order: list[int] = []
        self.depth: list[int] = []
        self.added: list[int] = []
        self.depth_of: dict[Hashable, int] = {}

    def expand(
        self, key: Hashable, children: Iterable[T], key_of: Callable[[T], Hashable]
    ) -> Iterator[T]:
        here = self.depth_of.setdefault(key, 0)  # a root: the start, or a goal searched back from
        at = len(self.added)
        if at < MAX_VISITS:
            self.order.append(self.index.get(key, -1))
            self.depth.append(here)
            self.added.append(0)
        return self._children(children, key_of, here, at)

    def _children(
        self, children: Iterable[T], key_of: Callable[[T], Hashable], here: int, at: int
    ) -> Iterator[T]:
        for child in children:
            key = key_of(child)
            if key not in self.depth_of:
                self.depth_of[key] = here + 1
                if at < MAX_VISITS:
                    self.added[at] += 1
            yield child


class _WatchedDomain:
    """The domain as the search sees it, with every expansion recorded."""

    def __init__(self, domain: Domain[Any, Any], record: _Record) -> None:
        self._domain, self._record = domain, record

    def __getattr__(self, name: str) -> Any:
        return getattr(self._domain, name)

    def moves(self, state: Any) -> Iterator[tuple[Any, Any]]:
        key = self._domain.key
        return self._record.expand(key(state), self._domain.moves(state), lambda mc: key(mc[1]))

    def predecessors(self, state: Any) -> Iterator[tuple[Any, Any]]:
        key = self._domain.key
        found = self._domain.predecessors(state)
        return self._record.expand(key(state), found, lambda mc: key(mc[1]))


class _WatchedModel:
    """An original's string model with every expansion recorded."""

    def __init__(self, model: OriginalModel, record: _Record) -> None:
        self._model, self._record = model, record

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    def successors(self, pos: str) -> Iterator[str]:
        canonical = self._model.canonical
        return self._record.expand(canonical(pos), self._model.successors(pos), canonical)

    def actions(self, pos: str) -> Iterator[tuple[tuple[int, int], str]]:
        canonical = self._model.canonical
        found = cast(Any, self._model).actions(pos)
        return self._record.expand(canonical(pos), found, lambda an: canonical(an[1]))


def search_visits(
    puzzle: str,
    space: StateSpace,
    algorithm: str,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Run ``algorithm`` from the space's start (its position 0) and say, in the
    space's indices, the order it expanded positions (``order``, with ``depth`` and
    ``added`` for each) and the solution it found (``path``). ``complete`` is False
    when the record stopped at :data:`MAX_VISITS` or the search at ``budget``."""
    game = catalogue.get(puzzle)
    checked = game.check_options(options)
    domain = game.make_domain(**checked)
    budget = Budget(
        min(MAX_VISITS, (budget.max_nodes if budget and budget.max_nodes else MAX_VISITS)),
        budget.max_seconds if budget else None,
    )
    found: SearchResult[Any, Any]
    if algorithm in ORIGINAL_SEARCHES:
        model = original_model(puzzle, space.boards[0], checked)
        canonical = model.canonical
        index: dict[Hashable, int] = {
            canonical(model.encode(board)): i for i, board in enumerate(space.boards)
        }
        record = _Record(index)
        watched = cast(OriginalModel, _WatchedModel(model, record))
        found = original_search(algorithm, watched, budget=budget, cancel=cancel)
        path = [index.get(canonical(pos), -1) for pos in found.states]
    else:
        index = space.index or {
            domain.key(domain.parse(board)): i for i, board in enumerate(space.boards)
        }
        record = _Record(index)
        search = ALGORITHMS[algorithm]
        seen = cast("Domain[Any, Any]", _WatchedDomain(domain, record))
        found = search(seen, domain.parse(space.boards[0]), budget=budget, cancel=cancel)
        if algorithm == "bidirectional":
            # joining the halves replays the path, asking for moves again: no expansions
            for kept in (record.order, record.depth, record.added):
                del kept[found.nodes :]
        path = [index.get(domain.key(state), -1) for state in found.states]
    return {
        "algorithm": algorithm,
        "status": str(found.status),
        "nodes": found.nodes,
        "length": len(found.states) - 1 if found.solved else None,
        "optimal": found.optimal,
        "order": record.order,
        "depth": record.depth,
        "added": record.added,
        "path": path,
        "complete": len(record.order) < MAX_VISITS and found.status in (SOLVED, UNSOLVABLE),
    }
