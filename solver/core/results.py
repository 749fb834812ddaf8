"""What a search returns and how it is limited: statuses, budgets, progress, results.

Kept apart from the algorithms so domains, tables and front ends can name a
status or a budget without importing the searches themselves.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import (
    Any,
    Generic,
    NotRequired,
    Protocol,
    TypeAlias,
    TypedDict,
    TypeVar,
    runtime_checkable,
)

from .record import Record

S = TypeVar("S")
M = TypeVar("M")


class Status(StrEnum):
    """How a search ended. Members are strings, so JSON carries ``"solved"`` as before."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    BUDGET = "budget"
    CANCELLED = "cancelled"


SOLVED = Status.SOLVED
UNSOLVABLE = Status.UNSOLVABLE
BUDGET = Status.BUDGET
CANCELLED = Status.CANCELLED


@runtime_checkable
class CancelEvent(Protocol):
    """Anything with ``is_set()``, such as a ``threading.Event`` or ``multiprocessing.Event``."""

    def is_set(self) -> bool: ...


#: how a caller stops a search: an event-like object, or a callable answering True to stop
Cancel: TypeAlias = CancelEvent | Callable[[], bool]


class Budget(Record):
    """Limits for one search. ``None`` means no limit."""

    _fields = ("max_nodes", "max_seconds")

    def __init__(self, max_nodes: int | None = None, max_seconds: float | None = None) -> None:
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds


class ProgressPayload(TypedDict):
    """:class:`Progress` as a JSON-ready dict (the optional keys only when known)."""

    nodes: int
    depth: int
    frontier: int
    elapsed: float
    stage: NotRequired[str]
    best: NotRequired[int]
    lower_bound: NotRequired[int]
    stored: NotRequired[int]
    memory: NotRequired[int]


class Progress(Record):
    """What a running search reports: nodes expanded, current depth, open nodes, time.

    ``stage`` names work before the search proper (a table build: no budget
    runs yet); an anytime search adds its ``best`` solution length so far and
    the proven ``lower_bound``. ``stored`` and ``memory`` are what a search that
    keeps tables holds: see :meth:`Monitor.holding`.
    """

    _fields = (
        "nodes",
        "depth",
        "frontier",
        "elapsed",
        "stage",
        "best",
        "lower_bound",
        "stored",
        "memory",
    )

    def __init__(
        self,
        nodes: int,
        depth: int,
        frontier: int,
        elapsed: float,
        stage: str = "",
        best: int | None = None,
        lower_bound: int | None = None,
        stored: int | None = None,
        memory: int | None = None,
    ) -> None:
        self.nodes = nodes
        self.depth = depth
        self.frontier = frontier
        self.elapsed = elapsed
        self.stage = stage
        self.best = best
        self.lower_bound = lower_bound
        self.stored = stored
        self.memory = memory

    def as_dict(self) -> ProgressPayload:
        """The ``progress`` event's payload (the optional keys only when known)."""
        found: ProgressPayload = {
            "nodes": self.nodes,
            "depth": self.depth,
            "frontier": self.frontier,
            "elapsed": round(self.elapsed, 3),
        }
        if self.stage:
            found["stage"] = self.stage
        if self.best is not None:
            found["best"] = self.best
        if self.lower_bound is not None:
            found["lower_bound"] = self.lower_bound
        if self.stored is not None:
            found["stored"] = self.stored
        if self.memory is not None:
            found["memory"] = self.memory
        return found


class SearchResult(Record, Generic[S, M]):
    """The outcome of a search: moves and states from start to goal when solved.

    ``lower_bound``: proven, no solution is shorter (the length itself when optimal;
    None when unknown). ``stored`` and ``memory``: the most entries the search's
    tables held at once, and those entries' bytes (:meth:`Monitor.holding`); None for
    a search that does not say.
    """

    _fields = (
        "status",
        "moves",
        "states",
        "optimal",
        "nodes",
        "seconds",
        "message",
        "lower_bound",
        "stored",
        "memory",
    )

    def __init__(
        self,
        status: Status,
        moves: list[M] | None = None,
        states: list[S] | None = None,
        optimal: bool = False,
        nodes: int = 0,
        seconds: float = 0.0,
        message: str = "",
        lower_bound: int | None = None,
        stored: int | None = None,
        memory: int | None = None,
    ) -> None:
        self.status = status
        self.moves: list[M] = [] if moves is None else moves
        self.states: list[S] = [] if states is None else states
        self.optimal = optimal
        self.nodes = nodes
        self.seconds = seconds
        self.message = message
        self.lower_bound = lower_bound
        self.stored = stored
        self.memory = memory

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    @property
    def length(self) -> int:
        return len(self.moves)


class StopSearch(Exception):
    """Raised inside a search when the budget runs out or the caller cancels."""

    def __init__(self, status: Status, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Monitor:
    """Counts nodes and, every few hundred of them, checks budget, cancel and progress.

    Checking the clock on every node would cost more than the search itself, so
    ``count`` is bumped inline and :meth:`check` runs when it reaches ``next_check``
    (every 256 nodes: a few milliseconds, well inside the 100 ms cancel promise).
    """

    CHECK_EVERY = 256
    PROGRESS_EVERY = 0.25
    #: where time comes from (tests give a fake clock, so budgets are checked without waiting)
    clock = staticmethod(lambda: time.monotonic())

    def __init__(
        self,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> None:
        self.budget = budget or Budget()
        self._cancelled = cancel_test(cancel)
        self.progress = progress
        self.started = self.clock()
        self.count = 0
        self.next_check = self.CHECK_EVERY
        self._next_report = self.started + self.PROGRESS_EVERY
        self._holding: Callable[[], int] | None = None
        self.entry_bytes = 0
        self.peak = 0

    def holding(self, entries: Callable[[], int], entry_bytes: int) -> None:
        """Say what the search keeps, for the memory figure: ``entries()`` counts the
        entries of its tables now (visited set, open list, path), ``entry_bytes`` is
        what one takes (:func:`entry_size`). Read at every check, so cheap to call."""
        self._holding = entries
        self.entry_bytes = entry_bytes

    def _stored(self) -> int | None:
        if self._holding is None:
            return None
        stored = self._holding()
        self.peak = max(self.peak, stored)
        return stored

    @property
    def elapsed(self) -> float:
        return self.clock() - self.started

    def check(self, depth: int = 0, frontier: int = 0) -> None:
        """Raise :class:`StopSearch` when the search must stop; report progress."""
        self.next_check = self.count + self.CHECK_EVERY
        now = self.clock()
        if self._holding is not None:
            self.peak = max(self.peak, self._holding())
        if self._cancelled():
            raise StopSearch(CANCELLED, "cancelled")
        max_nodes, max_seconds = self.budget.max_nodes, self.budget.max_seconds
        if max_nodes is not None and self.count >= max_nodes:
            raise StopSearch(BUDGET, f"gave up after {self.count} positions")
        if max_seconds is not None and now - self.started >= max_seconds:
            raise StopSearch(
                BUDGET, f"gave up after {self.count} positions ({max_seconds:g} s budget)"
            )
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + self.PROGRESS_EVERY
            self.report(depth, frontier)

    def report(self, depth: int = 0, frontier: int = 0) -> None:
        if self.progress is not None:
            stored = self._stored()
            memory = None if stored is None else stored * self.entry_bytes
            self.progress(
                Progress(self.count, depth, frontier, self.elapsed, stored=stored, memory=memory)
            )

    def result(
        self,
        status: Status,
        moves: Iterable[M] = (),
        states: Iterable[S] = (),
        optimal: bool = False,
        message: str = "",
    ) -> SearchResult[S, M]:
        found: SearchResult[S, M] = SearchResult(
            status, list(moves), list(states), optimal, self.count, self.elapsed, message
        )
        if self._stored() is not None:
            found.stored, found.memory = self.peak, self.peak * self.entry_bytes
        return found

    def stopped(self, stop: StopSearch) -> SearchResult[Any, Any]:
        return self.result(stop.status, message=stop.message)


#: what a dict entry costs beyond its key and value objects: its slot in the entries
#: array and index (CPython: 3 pointers and ~1.5 index bytes, at two-thirds load)
DICT_SLOT_BYTES = 40


def entry_size(*parts: object) -> int:
    """Bytes of one table entry made of ``parts`` (key, state, the link tuple ...):
    ``sys.getsizeof`` of each object reached through tuples, lists, sets and dict
    values, each counted once, plus one dict slot; small ints and None, which
    CPython shares, cost an entry nothing. Measured on the start position: every
    position of a board has the same shape."""
    seen: set[int] = set()
    total = DICT_SLOT_BYTES
    todo = list(parts)
    while todo:
        item = todo.pop()
        if id(item) in seen or item is None or _shared_int(item):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, tuple | list | set | frozenset):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
    return total


def _shared_int(item: object) -> bool:
    return isinstance(item, int) and -5 <= item <= 256


def cancel_test(cancel: Cancel | None) -> Callable[[], bool]:
    """A no-argument test that is True once ``cancel`` asks the search to stop."""
    if cancel is None:
        return lambda: False
    if isinstance(cancel, CancelEvent):
        return cancel.is_set
    if callable(cancel):
        return cancel
    raise TypeError("cancel must be an Event-like object or a callable")
