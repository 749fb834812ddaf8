"""The job model: what a client or a page asks for, the budgets it runs under, one job.

Everything here is plain data. A :class:`Job` crosses the whole job machinery:
the core (:mod:`webapp.jobs.core`) makes it, a lane queues it fairly, a back end
runs its ``kind``/``request``/``limits`` in a solver process or an RQ worker and
hands every event back to ``on_event``. Requests and limits are frozen and
picklable, so they cross into other processes unchanged.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from solver.core.text import N_

from ..protocol import ANALYSE as ANALYSE_EVENT
from ..protocol import LAB_RUN, RequestId
from ..protocol import SOLVE as SOLVE_EVENT


class Kind(StrEnum):
    """What a job does. A client's two kinds: a hint and distance (table lookups, kept
    fast) and a full solve, named as the Socket.IO events that ask for them; a page's
    tasks (:mod:`webapp.jobs.contract`): a generated level, the editor's solvability
    check, a state space's graph and one search's visiting order over it (the lab's
    animation, in the long lane); the replay of a submitted line; one judged move of a
    streak, a storm or a race; and the lab's run of several algorithms side by side, in
    the long lane."""

    ANALYSE = ANALYSE_EVENT
    SOLVE = SOLVE_EVENT
    LAB = LAB_RUN
    GENERATE = "generate"
    CHECK = "check"
    GRAPH = "graph"
    VISITS = "visits"
    REPLAY = "replay"
    JUDGE = "judge"


class LaneName(StrEnum):
    """The four lanes, named as ``/readyz`` reports them: the quick lane (this machine's
    analysis processes, in both modes), the long lane (this machine's solve processes,
    or RQ workers in a cluster), the page lane (generated levels, checks) and the
    replay lane (submitted lines; this machine's processes in both modes)."""

    QUICK = "quick"
    LONG = "long"
    PAGE = "page"
    REPLAY = "replay"


#: the members by their short names, as the job modules use them
ANALYSE, SOLVE, GENERATE, CHECK = Kind.ANALYSE, Kind.SOLVE, Kind.GENERATE, Kind.CHECK
GRAPH, LAB, VISITS = Kind.GRAPH, Kind.LAB, Kind.VISITS
REPLAY = Kind.REPLAY
JUDGE = Kind.JUDGE
QUICK, LONG, PAGE = LaneName.QUICK, LaneName.LONG, LaneName.PAGE
REPLAY_LANE = LaneName.REPLAY

#: what a search reports when its budget ran out (never sent to a player as such)
GAVE_UP = "gave_up"

BUSY_MESSAGE = N_("server busy, try again")
CLOSING_MESSAGE = N_("server is shutting down, try again soon")
#: a long search asked while the cluster's Redis is hung or gone
UNAVAILABLE_MESSAGE = N_("long searches are unavailable; try again")
#: a long search whose worker said nothing for its whole budget and a few seconds more
OVERDUE_MESSAGE = N_("the search did not come back from its worker in time; try again")
#: an answer that needs a table the server's prebuild is still building (a new server)
WARMING_MESSAGE = N_(
    "the solver is still building the tables for this puzzle (a minute on a new server); "
    "it answers once they are built"
)
MEMORY_MESSAGE = N_("this position needs more memory than the server allows per search")
INTERNAL_MESSAGE = N_("internal error while searching")
TASK_BUSY_MESSAGE = N_("the server is busy generating and checking puzzles; try again soon")
TASK_SLOW_MESSAGE = N_(
    "this took longer than the server allows; try a smaller puzzle or again later"
)

#: any event's payload as the job machinery carries it (one of webapp.protocol's)
Payload = Mapping[str, Any]


@dataclass(frozen=True)
class JobRequest:
    """A checked ``analyse``/``solve``/``lab_run`` request (:mod:`webapp.live.validation`
    makes it); ``algorithms`` are a comparison's."""

    game: str
    board: str
    id: RequestId = None
    options: dict = field(default_factory=dict)
    algorithms: tuple[str, ...] = ()


A = TypeVar("A")


class Task(Generic[A]):
    """A page task whose answer is an ``A`` (the six kinds: :mod:`webapp.jobs.contract`);
    ``kind`` names it for the lanes and the logs."""

    kind: ClassVar[Kind]
    game: str
    #: what an ``error`` echoes as the request's id: a client's request has one, a task none
    id: ClassVar[None] = None


Request = JobRequest | Task


class TaskRefused(Exception):
    """A page task could not be run now (queue full, over its time budget, its worker
    lost): a 503 with ``Retry-After``, its words kept as data as a RequestRefused's are
    (:func:`webapp.jobs.outcomes.refusal`)."""

    status: ClassVar[int] = 503
    headers: ClassVar[Mapping[str, str]] = MappingProxyType({"Retry-After": "5"})

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


@dataclass(frozen=True)
class Limits:
    """One job's budgets, from the app's configuration."""

    seconds: float
    max_nodes: int | None = None
    progress_interval: float = 0.25
    #: a quick try: no progress lines, and running out of budget is an outcome the
    #: core turns into a move to the long lane (:mod:`webapp.jobs.escalation`)
    quick: bool = False
    #: the budget a process's runaway backstop counts from, when longer than ``seconds``:
    #: tables load before a search's clock starts, so a quick try whose process loads
    #: the 15-puzzle's databases first is not taken for a runaway after half a second
    backstop_seconds: float | None = None

    @property
    def runaway_after(self) -> float:
        """The budget a solver process is allowed before it is stopped as a runaway."""
        return max(self.seconds, self.backstop_seconds or 0.0)


@dataclass(frozen=True)
class WorkerSettings:
    """How a solver process sets itself up (picklable: it crosses into the process)."""

    memory_mb: int | None = None
    warm_tables: bool = False
    #: judge a move of every game first (the replay lane: streak, storm and race moves)
    warm_judging: bool = False
    nice: int = 0
    #: with ``warm_tables``, the server's prebuild flag (shared memory, set once every
    #: table is on disk): the process warms the first minute's tables, reports ready,
    #: and loads the rest when idle once the flag is up
    tables_built: Any = None


_numbers = itertools.count(1)


@dataclass(eq=False)
class Job:
    """One request on its way through a lane; the callbacks run on a back end's thread.

    ``player`` is the client (its Socket.IO session, empty for a page task),
    ``address`` the client's address as resolved through the trusted proxies:
    lanes share their workers fairly between addresses, then between the players
    of one address. A back end calls ``on_event`` for every event of the search,
    ``on_lost(message, retry)`` when the worker running it vanished, and
    ``on_done`` once, at the end.
    """

    kind: str
    request: Request
    limits: Limits
    player: str = ""
    address: str = ""
    on_event: Callable[[str, Payload], None] = lambda event, payload: None
    on_done: Callable[[], None] = lambda: None
    on_lost: Callable[[str, bool], None] | None = None
    seq: int = field(default_factory=lambda: next(_numbers))
    cancelled: bool = False
    queued_at: float = field(default_factory=time.monotonic)
    log_id: str = ""  # the request id the log lines carry
    #: a quick try: within an address's turn it goes after plain lookups, newest first
    trial: bool = False
    attempt: int = 1
    note: Any = None  # the core's own bookkeeping for this job

    @property
    def group(self) -> str:
        """Whose share of a lane the job uses: its address, else its player."""
        return self.address or self.player
