"""The Socket.IO protocol's payloads, one ``TypedDict`` per event and direction.

The protocol itself (the events, their fields and the rules) is described once, in
the manual's protocol page (``docs/protocol.rst``), which renders these classes; mypy
checks the server's code against them.

What a client sends is untrusted: :mod:`webapp.live.validation` checks it field by
field before anything else reads it, so :class:`JobPayload` describes what a
well-behaved client sends, not what the server may assume. Every reply carries the
request's ``id`` (:data:`RequestId`: text, a number, or None when
the client gave none) and its ``game``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, Protocol, TypedDict

from solver.payloads import AnalysisPayload, MoveInfo, Stats

#: a request's ``id`` as the client gave it, echoed in every reply
RequestId = str | int | None

# -- every event's name: the only place the server spells one --------------------------

#: what a client asks: a hint and distance, a full solve, stopping its job
ANALYSE, SOLVE, CANCEL = "analyse", "solve", "cancel"
#: what the server answers: an analysis, a long solve's progress, its solution, a proof
#: that none exists, and an ``error`` for every bad payload or search that could not answer
ANALYSIS, PROGRESS, SOLUTION, UNSOLVABLE, ERROR = (
    "analysis",
    "progress",
    "solution",
    "unsolvable",
    "error",
)
#: what the server says of itself: its solver processes are still warming up (sent to a
#: page that connects meanwhile), then that they are ready (sent to every page)
SOLVER_STATUS = "solver_status"
#: the events Socket.IO raises itself (a socket's arrival and its end) and the names it
#: keeps for itself, which a client may never send
CONNECT, DISCONNECT, CONNECT_ERROR, MESSAGE = "connect", "disconnect", "connect_error", "message"
RESERVED_EVENTS = frozenset({CONNECT, DISCONNECT, CONNECT_ERROR, MESSAGE})
#: Engine.IO's own events, under Socket.IO: a transport opens, closes, carries a packet
#: (the guards wrap their handlers)
TRANSPORT_OPEN, TRANSPORT_CLOSE, TRANSPORT_PACKET = "connect", "disconnect", "message"
#: what an ``error`` that answers none of the client's events names as its ``event``: a
#: frame that is no event, a handler that failed on one it could not name, a restart
UNKNOWN, RESTART = "unknown", "restart"
#: no event: Socket.IO's name for the catch-all handler, which takes every event no other
#: handler does (answered ``error``, never ignored); a client may not send it either
ANY_EVENT = "*"


class JobPayload(TypedDict):
    """``analyse`` / ``solve``: the game, the board, and the game's declared options
    (``metric``, ``goal``, ``capacity`` ...), which a TypedDict cannot list."""

    game: str
    board: str
    id: NotRequired[RequestId]


class CancelPayload(TypedDict, total=False):
    """``cancel``: stop the client's job (only the one with ``id`` when given)."""

    id: RequestId


class AnalysisEvent(AnalysisPayload):
    """``analysis``: the engine's analysis of the board (see
    :class:`solver.payloads.AnalysisPayload`), for this request."""

    id: RequestId
    game: str


class ProgressEvent(TypedDict):
    """``progress``: how a long ``solve`` is going, about four times a second.

    ``stage`` names work before the search proper (a table build, before the
    budget's clock starts); ``best`` and ``lower_bound`` come from the anytime
    search on the largest boards.
    """

    id: RequestId
    game: str
    nodes: int
    depth: int
    elapsed: float
    stage: NotRequired[str]
    best: NotRequired[int]
    lower_bound: NotRequired[int]


class SolutionEvent(TypedDict):
    """``solution``: the moves and boards from start to goal; ``lower_bound`` is proven
    (no solution is shorter; the length itself when ``optimal``)."""

    id: RequestId
    game: str
    board: str
    moves: list[MoveInfo]
    states: list[str]
    length: int | None
    optimal: bool
    lower_bound: int | None
    stats: Stats
    message: str


class UnsolvableEvent(TypedDict):
    """``unsolvable``: the solver proved that no solution exists."""

    id: RequestId
    game: str
    board: str
    message: str


class SolverStatusEvent(TypedDict):
    """``solver_status``, from a server that prebuilds its tables: ``warming`` while it
    builds the first minute's tables and starts its solver processes (analyses wait for
    them), ``building`` while it builds the biggest (an answer that needs one is an
    ``error`` saying so). Sent to a page that connects meanwhile, then to every page
    as each ends: a page still without its analysis asks again."""

    warming: bool
    building: bool


class ErrorEvent(TypedDict):
    """``error``: a bad payload or a search that could not answer; ``event`` names the
    request it answers (``analyse``, ``solve``, ``cancel`` or ``unknown``).

    A search that ran out of its budget says so (``gave_up``) with what it knows: the
    budget in whole seconds, the positions searched and a proven ``lower_bound``.
    """

    message: str
    event: str
    id: NotRequired[RequestId]
    game: NotRequired[str]
    #: the message as plain data, for the page to say in the player's language: its
    #: English template (``row %(row)s is empty``) and the values that fill it
    template: NotRequired[str]
    params: NotRequired[dict[str, str | int]]
    gave_up: NotRequired[bool]
    budget_seconds: NotRequired[float]
    nodes: NotRequired[int]
    lower_bound: NotRequired[int]


class Templated(Protocol):
    """A message kept as data: a solver's ``BoardError`` or the server's ``RequestRefused``."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...


def _safe_int(value: object) -> bool:
    """An int (or bool, as before) every JSON reader keeps exactly: JavaScript's safe
    integers."""
    return isinstance(value, int) and abs(value) <= 2**53 - 1


def message_fields(err: Templated) -> dict:
    """``template`` and ``params`` of a solver's error or a refusal, JSON-safe, for a
    reply to carry."""
    params = {
        name: value if isinstance(value, str) or _safe_int(value) else str(value)
        for name, value in err.params.items()
    }
    return {"template": err.template, "params": params}


# -- the solver lab -----------------------------------------------------------------

#: the lab's events: a run of 2-4 algorithms on one board, its live figures, each
#: algorithm's result, and stopping the run
LAB_RUN, LAB_PROGRESS, LAB_RESULT, LAB_CANCEL = (
    "lab_run",
    "lab_progress",
    "lab_result",
    "lab_cancel",
)


class LabRunPayload(JobPayload):
    """``lab_run``: the board (with the game's options, as ``solve`` sends them) and
    the 2-4 algorithms to run on it side by side."""

    algorithms: list[str]


class LabProgressEvent(TypedDict):
    """``lab_progress``: one algorithm's figures so far, about four times a second each.
    ``stored`` is how many entries its tables hold now (visited set, open list or path)
    and ``memory`` their bytes (:meth:`solver.core.results.Monitor.holding`)."""

    id: RequestId
    game: str
    algorithm: str
    nodes: int
    frontier: int
    depth: int
    elapsed: float
    stored: NotRequired[int]
    memory: NotRequired[int]


class LabResultEvent(TypedDict):
    """``lab_result``: how one algorithm ended. ``length`` is None unless it solved;
    ``optimal`` says the length is proven shortest (or the board proven unsolvable);
    ``nodes`` are the positions it expanded, as the CLI's ``--algorithm`` counts them."""

    id: RequestId
    game: str
    algorithm: str
    status: str
    length: int | None
    optimal: bool
    nodes: int
    seconds: float
    states: list[str]
    message: str
    #: the most entries its tables held at once, and their bytes (as in lab_progress)
    stored: NotRequired[int]
    memory: NotRequired[int]


# -- races ----------------------------------------------------------------------------

#: a race's events: joining one (or watching it), its owner starting it, a racer's
#: move (judged by the server), and the race as each racer sees it
RACE_JOIN, RACE_START, RACE_MOVE, RACE_STATE = (
    "race_join",
    "race_start",
    "race_move",
    "race_state",
)


class RaceJoinPayload(TypedDict, total=False):
    """``race_join``: no ``race``, the public lobby; ``"new"``, a private race owned by
    the joiner; else that race's id. ``name``: the racer's shown name."""

    race: str
    name: str


class RaceMovePayload(TypedDict):
    """``race_move``: the position the racer's next move reached (one legal move from
    their last)."""

    board: str


class RacePlayer(TypedDict):
    """One racer on the track: the moves judged one closer (``score``), puzzles solved."""

    name: str
    score: int
    solved: int


class RacePuzzle(TypedDict):
    """The position a racer is at, in the game's own text, with the game's options."""

    game: str
    board: str
    options: dict


class RaceStateEvent(TypedDict):
    """``race_state``: the race as this client sees it, sent to everyone in it on any
    change. ``puzzle`` (a racer's current one, while racing); ``you`` (the racer's
    shown name, None for a spectator), ``owner`` (may start it), ``public``; when
    ``finished``, ``puzzles`` (each with its proven ``shortest``) and ``rematch``
    (the next race's id, once someone asked for one)."""

    race: str
    status: str
    starts_in: float | None
    ends_in: float | None
    puzzle: NotRequired[RacePuzzle]
    players: list[RacePlayer]
    public: bool
    owner: bool
    you: str | None
    puzzles: NotRequired[list[dict]]
    rematch: NotRequired[str | None]


#: every event name: what clients send, what the server sends, and the names Socket.IO
#: and Engine.IO keep for themselves (no other module spells one: tests/test_architecture)
EVENTS = frozenset(
    {
        ANALYSE,
        SOLVE,
        CANCEL,
        ANALYSIS,
        PROGRESS,
        SOLUTION,
        UNSOLVABLE,
        ERROR,
        SOLVER_STATUS,
        LAB_RUN,
        LAB_PROGRESS,
        LAB_RESULT,
        LAB_CANCEL,
        RACE_JOIN,
        RACE_START,
        RACE_MOVE,
        RACE_STATE,
        TRANSPORT_OPEN,
        TRANSPORT_CLOSE,
        TRANSPORT_PACKET,
    }
    | RESERVED_EVENTS
)
