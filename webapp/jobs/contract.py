"""The typed contract between the web process and the solver processes for page tasks.

A page (or a socket handler that waits, as a race's move does) asks the solver
processes for one of six things; each is one frozen request type here, with the
answer type it gets back: a generated level (:class:`GenerateLevel` ->
:class:`GeneratedLevel`), the editor's check (:class:`CheckBoard` ->
:class:`Checked`), a state space's graph and one search's visiting order over it
(:class:`GraphSpace`, :class:`VisitOrder` -> :class:`Packed`, JSON already
compressed in the solver process), the replay of a submitted line
(:class:`ReplayLine` -> :class:`~solver.core.replay.Replay`) and one judged move
(:class:`JudgeMove` -> :class:`Judged`). A solver process reports how the task went
as an :class:`Outcome` and, unless it is done, a :class:`Failure`.

Everything here is plain, picklable data that crosses the process boundary unchanged
(and, for the cluster's long lane, :func:`to_wire` / :func:`from_wire` as JSON):
:meth:`JobCore.page_task <webapp.jobs.core.JobCore.page_task>` takes a request and
returns its answer, :mod:`webapp.jobs.tasks` runs it, :mod:`webapp.jobs.outcomes`
says what a refusal means for HTTP and for a socket.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from enum import StrEnum
from typing import Any, ClassVar, NotRequired, TypedDict

from solver.core.replay import Replay

from .model import CHECK, GENERATE, GRAPH, JUDGE, REPLAY, VISITS, Kind, Task


class Outcome(StrEnum):
    """How a page task went, as its solver process reports it: ``DONE`` (the answer
    follows), ``REFUSED`` (the request is bad: a BoardError, a 400), ``TOO_LARGE`` (a
    state space over its limit, a 413) or ``FAILED`` (over its budget, its worker
    lost or failed: a 503, try again)."""

    DONE = "done"
    REFUSED = "refused"
    TOO_LARGE = "too_large"
    FAILED = "failed"


@dataclass(frozen=True)
class Failure:
    """A task that did not answer: the English message, and as data its template and
    values (a solver's error keeps them across the process boundary)."""

    message: str
    template: str | None = None
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class GenerateLevel(Task["GeneratedLevel"]):
    """A seeded level from ``game``'s generator (``params`` already checked)."""

    kind: ClassVar[Kind] = GENERATE
    game: str
    params: dict
    seed: int
    daily: bool


@dataclass(frozen=True)
class CheckBoard(Task["Checked"]):
    """The editor's check: is ``board`` solvable, how far from solved (a short search)."""

    kind: ClassVar[Kind] = CHECK
    game: str
    board: str
    options: dict


@dataclass(frozen=True)
class GraphSpace(Task["Packed"]):
    """Every position reachable from ``board``, with its distance and its moves."""

    kind: ClassVar[Kind] = GRAPH
    game: str
    board: str
    options: dict


@dataclass(frozen=True)
class VisitOrder(Task["Packed"]):
    """The order ``algorithm`` expands the positions of :class:`GraphSpace`'s answer."""

    kind: ClassVar[Kind] = VISITS
    game: str
    board: str
    options: dict
    algorithm: str


@dataclass(frozen=True)
class ReplayLine(Task[Replay]):
    """A submitted line (``states``, as sent) replayed with the rules from ``board``;
    ``shortest`` (when known) caps its length."""

    kind: ClassVar[Kind] = REPLAY
    game: str
    board: str
    options: dict
    states: tuple
    shortest: int | None


@dataclass(frozen=True)
class JudgeMove(Task["Judged"]):
    """The move from ``before`` (the server's position) to ``after`` (text as sent)."""

    kind: ClassVar[Kind] = JUDGE
    game: str
    options: dict
    before: str
    after: str


class GeneratedLevel(TypedDict):
    """A seeded level as :meth:`~solver.core.game.Game.generate` makes it."""

    board: str
    options: dict
    min_moves: int
    optimal: bool
    params: dict
    name: NotRequired[str]


@dataclass(frozen=True)
class Checked:
    """The editor's check of a board: solvable (None: not known within the budget), its
    distance (None: not known), whether that is proven shortest, the solver's words."""

    solvable: bool | None
    distance: int | None
    optimal: bool
    message: str


@dataclass(frozen=True)
class Packed:
    """A graph or a visiting order: its JSON, gzip-compressed in the solver process (the
    web process passes the bytes on), and how many positions it covers."""

    gzip: bytes
    positions: int


@dataclass(frozen=True)
class Judged:
    """One legal move rated: the position reached (canonical), the move's words, the
    proven distances before and after (None: unsolvable), whether it came one closer,
    whether it solved the puzzle, and a closer move when it did not."""

    board: str
    move: str
    before: int | None
    after: int | None
    closer: bool
    solved: bool
    better: str | None = None
    better_move: str | None = None


#: every page task's request type by its kind
TASKS: dict[str, type[Task[Any]]] = {
    task.kind: task
    for task in (GenerateLevel, CheckBoard, GraphSpace, VisitOrder, ReplayLine, JudgeMove)
}

# -- the contract as JSON, for the cluster's Redis (the long lane's RQ workers) --------


def to_wire(payload: Any) -> Any:
    """A job's request, or a task's answer or failure, as JSON-ready data (bytes as
    base64); any other payload (a client's events are JSON already) as it is."""
    if isinstance(payload, Packed):
        return {"gzip": base64.b64encode(payload.gzip).decode(), "positions": payload.positions}
    if is_dataclass(payload) and not isinstance(payload, type):
        return asdict(payload)
    return payload


def task_from_wire(kind: str, data: Mapping[str, Any]) -> Task[Any]:
    """The request :func:`to_wire` wrote for a ``kind`` task."""
    task = TASKS[kind]
    if task is ReplayLine:
        data = {**data, "states": tuple(data["states"])}
    return task(**data)


def from_wire(kind: str, outcome: str, data: Any) -> tuple[Outcome, Any]:
    """The (outcome, answer or failure) :func:`to_wire` wrote for a ``kind`` task."""
    done = Outcome(outcome)
    if done is not Outcome.DONE:
        return done, Failure(**data)
    if kind in (GRAPH, VISITS):
        return done, Packed(base64.b64decode(data["gzip"]), data["positions"])
    if kind == REPLAY:
        return done, Replay(tuple(data["states"]), data["length"])
    answer: type | None = {str(CHECK): Checked, str(JUDGE): Judged}.get(kind)
    if answer is not None:
        return done, answer(**{f.name: data[f.name] for f in fields(answer)})
    return done, data
