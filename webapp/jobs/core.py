"""The job core: the rules every search follows, whichever back end runs it.

The core owns the rules players feel, once, for both ways of running searches:

* **one job per client, the newest request wins**: each client (Socket.IO
  session) has a :class:`Slot`; a new request bumps its *generation* and cancels
  the job before it, and an event reaches the client only while its job is still
  the newest (:meth:`JobCore._deliver`), so a superseded job never speaks;
* **two lanes**: every analysis, and every solve first, runs in the *quick lane*
  (this machine's analysis processes, in both modes) under a short budget; what
  needs more moves to the *long lane* (this machine's solve processes, or RQ
  workers in a cluster), decided in one place, :mod:`webapp.jobs.escalation`. A
  solve known to need the long lane (it escalated before) goes there at once, and a
  quick try that waited longer than its own budget moves there untried, so the
  quick lane never holds a queue of long work in front of a trivial search;
* **fair shares and bounded queues** in every lane (:mod:`webapp.jobs.fairness`):
  between addresses, then between the players of one address; a full lane
  answers "server busy, try again" at once;
* **lost workers**: a back end reports a job whose worker vanished
  (``Job.on_lost``); the core retries it once when the back end says it may,
  else the player hears ``error``;
* **page tasks** (a generated level, the editor's check) run in the page lane
  while the page waits, within a budget (:meth:`JobCore.page_task`).

A lane is anything with the :class:`Lane` methods: :class:`webapp.jobs.pool.WorkerPool`
(this machine) and :class:`webapp.jobs.cluster.ClusterLane` (RQ on Redis). The
core imports neither; :func:`webapp.app.create_app` hands it its lanes.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from ..guard.quiet import RefusalLog
from ..protocol import ANALYSIS, ERROR, SOLVER_STATUS, SolverStatusEvent
from .contract import Failure, Outcome
from .escalation import Chain, settle
from .model import (
    ANALYSE,
    BUSY_MESSAGE,
    CLOSING_MESSAGE,
    LAB,
    LONG,
    PAGE,
    QUICK,
    SOLVE,
    TASK_BUSY_MESSAGE,
    TASK_SLOW_MESSAGE,
    Job,
    JobRequest,
    Limits,
    Payload,
    Task,
    TaskRefused,
)
from .outcomes import answer_of
from .recent import RecentAnalyses
from .replies import job_error
from .retry import Backoff

log = logging.getLogger(__name__)
refusals = RefusalLog(log)

A = TypeVar("A")

#: how many boards known to need the long lane are remembered
KNOWN_LONG = 1024
#: a page waits this much longer than its task's budget before giving up
TASK_GRACE_SECONDS = 2.0
#: how often waiting quick tries are checked for having waited too long
SWEEP_SECONDS = 0.05
#: a job whose worker vanished runs this many times at most
MAX_ATTEMPTS = 2
#: how often a warming server looks whether every lane has a process ready
WARMING_POLL_SECONDS = 0.25
#: a page task refused as busy is answered after this pause: a client asking again at
#: once cannot spin the web process on refusals (issue 46's graph flood, 10 clients of
#: one address, was answered 380 times a second, and the page worker, niced, starved)
BUSY_PAUSE_SECONDS = 1.0


class LaneBusy(Exception):
    """A lane's queue (or the address's share of it) is full: "server busy".

    ``message`` is what the player is told (a lane whose back end is down says so)."""

    def __init__(self, lane: str, message: str = BUSY_MESSAGE):
        super().__init__(lane)
        self.message = message


class Lane(Protocol):
    """What the core asks of a back end's lane."""

    name: str

    def submit(self, job: Job) -> None:
        """Queue ``job`` fairly; raise :class:`LaneBusy` when full or closing."""

    def cancel(self, job: Job) -> None:
        """Stop ``job`` (queued or running); it says nothing more."""

    def withdraw(self, job: Job) -> bool:
        """Take ``job`` back if it is still waiting; True when it was."""

    def waiting(self) -> list[Job]:
        """The jobs waiting for a worker."""

    def players(self) -> set:
        """Players with a job queued or running here."""

    def start(self) -> None:
        """Start the workers now (else on first use)."""

    def close(self) -> list[Job]:
        """Refuse new jobs, cancel every one queued or running; return them."""

    def shutdown(self, timeout: float) -> Any:
        """:meth:`close`, then stop the workers."""

    def stats(self) -> dict:
        """Figures for ``/readyz``, the same keys for every lane."""


@dataclass
class Slot:
    """A client's single job slot."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    generation: int = 0
    job: Job | None = None
    lane: Lane | None = None


@dataclass
class _Note:
    """What the core keeps on each client job (``Job.note``)."""

    slot: Slot
    generation: int
    chain: Chain
    player: str


class JobCore:
    """Runs clients' analyse/solve jobs and pages' tasks over the lanes, by the rules above.

    ``emit(event, payload, to=sid)`` sends to one client (``socketio.emit``);
    ``lanes`` maps :data:`QUICK`, :data:`LONG` and :data:`PAGE` to a :class:`Lane`;
    ``limits`` maps ``analyse``/``solve`` to their full budgets, and
    ``quick_seconds`` is the quick lane's budget for a try (None: no tries, every
    solve goes to the long lane and every analysis has its full budget). ``recent``
    keeps exact analyses: a request for one is answered from it at once, the same
    payload a solver process gave (:mod:`webapp.jobs.recent`).
    """

    def __init__(
        self,
        emit: Callable[..., Any],
        lanes: dict[str, Lane],
        limits: dict[str, Limits],
        quick_seconds: float | None = None,
        recent: RecentAnalyses | None = None,
    ):
        self._emit = emit
        self.lanes = lanes
        self.limits = limits
        self.recent = recent or RecentAnalyses(0)
        self.quick_seconds = quick_seconds
        self._slots: dict[str, Slot] = {}
        self._lock = threading.Lock()
        self._known_long: collections.OrderedDict[tuple, None] = collections.OrderedDict()
        self.closing = False
        #: a server that prebuilds sets both: until every lane has had a process ready,
        #: ``/readyz`` says "warming"; until its biggest tables are built, answers that
        #: need one say so; pages hear both through ``solver_status`` (:meth:`status`)
        self.warming = False
        self.building = False
        self.busy_pause = BUSY_PAUSE_SECONDS
        self._sweeper: threading.Thread | None = None

    @property
    def quick_seconds(self) -> float | None:
        return self._quick_seconds

    @quick_seconds.setter
    def quick_seconds(self, seconds: float | None) -> None:
        self._quick_seconds = seconds or None
        # a try's budgets, made once (every analysis and most solves start as one)
        self._tries = {
            kind: replace(limit, seconds=seconds, quick=True, backstop_seconds=limit.seconds)
            for kind, limit in self.limits.items()
            if seconds and seconds < limit.seconds
        }

    # -- called from event handlers ----------------------------------------------
    def submit(
        self, sid: str, kind: str, request: JobRequest, log_id: str = "", address: str = ""
    ) -> None:
        """Queue ``request`` for client ``sid`` (from ``address``), cancelling whatever
        the client had before; an analysis kept in :attr:`recent` is answered at once."""
        slot = self._slot(sid)
        kept = None
        if kind == ANALYSE:
            kept = self.recent.get(
                self.recent.key(request.game, request.board, request.options), request.id
            )
        lane, limits = self._first_lane(kind, request)
        with slot.lock:
            slot.generation += 1
            self._cancel_locked(slot)
            if self.closing:
                self._emit(ERROR, job_error(CLOSING_MESSAGE, kind, request), to=sid)
                return
            if kept is not None:  # the older job is cancelled: this answer is the newest
                self._emit(ANALYSIS, kept, to=sid)
                return
            job = Job(
                kind,
                request,
                limits,
                player=sid,
                address=address,
                log_id=log_id,
                trial=kind == SOLVE and limits.quick,
            )
            self._queue_locked(slot, job, lane, Chain())

    def cancel(self, sid: str, job_id: Any = None) -> bool:
        """Cancel the client's job (only the one with ``job_id`` when given)."""
        slot = self._slots.get(sid)
        if slot is None:
            return False
        with slot.lock:
            job = slot.job
            if job is None or job.cancelled or (job_id is not None and job.request.id != job_id):
                return False
            slot.generation += 1
            self._cancel_locked(slot)
            return True

    def drop(self, sid: str) -> None:
        """The client left: cancel its job and forget its slot."""
        with self._lock:
            slot = self._slots.pop(sid, None)
        if slot is not None:
            with slot.lock:
                slot.generation += 1
                self._cancel_locked(slot)

    # -- called from page views ----------------------------------------------------
    def page_task(
        self,
        task: Task[A],
        seconds: float,
        address: str = "",
        player: str = "",
        lane_name: str = PAGE,
    ) -> A:
        """Run a page's search (one request of :mod:`webapp.jobs.contract`) in the page
        lane and wait for it.

        Returns the task's answer; raises BoardError for a bad request, SpaceTooLarge
        for a state space over its limit and :class:`~webapp.jobs.model.TaskRefused`
        (a 503) when the lane is full or the task overran ``seconds`` or failed, so the
        page answers instead of holding its thread (:mod:`webapp.jobs.outcomes`).
        The wait is an event's: under gevent only the waiting greenlet sleeps.
        ``address`` and ``player`` (a replay's client) say whose fair share of the lane
        (``lane_name``: the page lane, or the replay lane) the task uses; by default
        each kind shares one.
        """
        lane = self.lanes[lane_name]
        finished = threading.Event()
        reports: list[tuple[str, Any]] = []
        job = Job(
            task.kind,
            task,
            Limits(seconds),
            player=player,
            address=address or task.kind,
            on_event=lambda outcome, payload: reports.append((outcome, payload)),
            on_done=finished.set,
            on_lost=lambda message, _retry: reports.append((Outcome.FAILED, Failure(message))),
        )
        try:
            if self.closing:
                raise LaneBusy(lane.name)
            lane.submit(job)
        except LaneBusy:
            if not self.closing:  # only this request waits, under gevent
                time.sleep(self.busy_pause)
            raise TaskRefused(TASK_BUSY_MESSAGE) from None
        if not finished.wait(seconds + TASK_GRACE_SECONDS):
            lane.cancel(job)
            raise TaskRefused(TASK_SLOW_MESSAGE)
        return answer_of(reports[-1] if reports else None)

    # -- the server's ----------------------------------------------------------------
    def busy_clients(self) -> int:
        """Clients with a job queued or still running (cancelled ones included)."""
        players = set()
        for name in (QUICK, LONG):
            players |= self.lanes[name].players()
        return len(players - {""})

    def health(self) -> dict:
        """Figures for ``/readyz``: the same keys whichever back ends run the lanes."""
        with self._lock:
            clients = len(self._slots)
        return {
            "clients": clients,
            "busy_clients": self.busy_clients(),
            "building_tables": self.building,  # the prebuild's second stage still runs
            "lanes": {name: lane.stats() for name, lane in self.lanes.items()},
            "recent_analyses": self.recent.stats(),
        }

    def start(self) -> None:
        """Start every lane's workers now (the server does; tests start them lazily)."""
        for lane in self.lanes.values():
            lane.start()
        self._start_sweeper()
        if self.warming:
            threading.Thread(target=self._until_warm, name="jobs-warming", daemon=True).start()

    def still_warming(self) -> bool:
        """Whether some lane (of any size) has not yet had a process ready since the
        server started."""
        if not self.warming:
            return False
        stats = [lane.stats() for lane in self.lanes.values()]
        if all(lane["ready"] or not lane["size"] for lane in stats):
            self.warming = False
            log.info("every lane has a solver process ready")
            self._status_changed()
        return self.warming

    def status(self) -> SolverStatusEvent:
        """What ``solver_status`` says: still starting, still building tables."""
        return {"warming": self.warming, "building": self.building}

    def tables_built(self) -> None:
        """The prebuild is done: every page hears it (one still waiting asks again)."""
        self.building = False
        log.info("every table is built")
        self._status_changed()

    def _status_changed(self) -> None:
        """Every page of this process hears its new status, never published on the
        cluster's queue: it is this process's lanes and tables, and a page connecting is
        what finds the change (:meth:`still_warming`); a hung Redis held that connection
        for a publish's timeout (2.0 s, 2 faults runs in 4)."""
        self._emit(SOLVER_STATUS, self.status(), ignore_queue=True)

    def _until_warm(self) -> None:
        while not self.closing and self.still_warming():
            time.sleep(WARMING_POLL_SECONDS)

    def shutdown(self, timeout: float = 5.0) -> int:
        """Refuse new jobs, tell clients with a job that it was stopped, stop the lanes;
        returns how many clients were told."""
        self.closing = True
        dropped = [job for lane in self.lanes.values() for job in lane.close()]
        told = 0
        for job in dropped:
            if not job.player:  # a page's task: its view answers 503
                continue
            told += 1
            self._emit(
                ERROR,
                job_error(CLOSING_MESSAGE, job.kind, job.request),
                to=job.player,
            )
        for lane in self.lanes.values():
            lane.shutdown(timeout)
        return told

    # -- lanes and escalation ----------------------------------------------------------
    def _first_lane(self, kind: str, request: JobRequest) -> tuple[Lane, Limits]:
        """Where a new request starts: a try in the quick lane, unless it is known long."""
        limits = self.limits[kind]
        if kind == LAB:  # a race of whole searches: never a quick try
            return self.lanes[LONG], limits
        tried = self._tries.get(kind)
        if kind == ANALYSE:
            return self.lanes[QUICK], tried or limits
        if tried is None or self._is_known_long(request):
            return self.lanes[LONG], limits
        self._start_sweeper()
        self.lanes[LONG].start()  # ready by the time a try escalates
        return self.lanes[QUICK], tried

    def _queue_locked(self, slot: Slot, job: Job, lane: Lane, chain: Chain) -> None:
        """Hand ``job`` to ``lane`` as the slot's current job (the slot's lock is held)."""
        note = _Note(slot, slot.generation, chain, job.player)
        job.note = note
        job.on_event = lambda event, payload: self._on_event(job, event, payload)
        job.on_done = lambda: self._finished(job)
        job.on_lost = lambda message, retry: self._on_lost(job, lane, message, retry)
        try:
            lane.submit(job)
        except LaneBusy as busy:
            # once a minute per client, with a count: a flood must not flood the log
            refusals(
                job.group,
                "%s %s rejected by the %s lane: %s",
                job.log_id,
                job.kind,
                lane.name,
                busy.message,
            )
            self._emit(
                ERROR,
                job_error(busy.message, job.kind, job.request),
                to=job.player,
            )
            return
        except Exception as err:  # noqa: BLE001 - a back end's failure (Redis) is answered
            log.warning("%s %s: the %s lane failed: %s", job.log_id, job.kind, lane.name, err)
            self._emit(
                ERROR,
                job_error(BUSY_MESSAGE, job.kind, job.request),
                to=job.player,
            )
            return
        slot.job, slot.lane = job, lane

    def _on_event(self, job: Job, event: str, payload: Payload) -> None:
        note: _Note = job.note
        outcome = settle(job.kind, job.limits.quick, event, payload, note.chain, job.limits.seconds)
        for name, body in outcome.emit:
            if name == ANALYSIS and job.kind == ANALYSE and isinstance(job.request, JobRequest):
                # a fact now, whoever asked, and whether or not its asker still waits
                asked = job.request
                self.recent.put(self.recent.key(asked.game, asked.board, asked.options), body)
            self._deliver(note, name, body)
        if outcome.escalate:
            self._escalate(job)

    def _escalate(self, job: Job, tried: bool = True) -> None:
        """The job needs a real search (or, ``tried`` False, waited too long for a try):
        the long lane, full budget, the same chain."""
        note: _Note = job.note
        if job.kind == SOLVE and tried:
            self._remember_long(job.request)
        with note.slot.lock:
            if note.generation != note.slot.generation:
                return
            log.debug("%s %s needs a long search; moved to the long lane", job.log_id, job.kind)
            moved = Job(
                job.kind,
                job.request,
                self.limits[job.kind],
                player=job.player,
                address=job.address,
                log_id=job.log_id,
            )
            self._queue_locked(note.slot, moved, self.lanes[LONG], note.chain)

    def _on_lost(self, job: Job, lane: Lane, message: str, retry: bool) -> None:
        """A back end lost the worker running ``job``: once more if it may, else ``error``."""
        note: _Note = job.note
        with note.slot.lock:
            if note.generation != note.slot.generation:
                return
            if retry and job.attempt < MAX_ATTEMPTS:
                log.warning("%s worker lost a %s job; retrying it", job.log_id, job.kind)
                again = Job(
                    job.kind,
                    job.request,
                    job.limits,
                    player=job.player,
                    address=job.address,
                    log_id=job.log_id,
                    trial=job.trial,
                    attempt=job.attempt + 1,
                )
                self._queue_locked(note.slot, again, lane, note.chain)
                return
        self._deliver(note, ERROR, job_error(message, job.kind, job.request))

    def _start_sweeper(self) -> None:
        with self._lock:
            if self._sweeper is None and self.quick_seconds is not None:
                self._sweeper = threading.Thread(
                    target=self._sweep, name="quick-lane-sweep", daemon=True
                )
                self._sweeper.start()

    def _sweep(self) -> None:
        """Quick tries that waited longer than a try takes move to the long lane untried.

        A round that fails (the long lane's Redis gone, say) is logged once and
        retried with back-off (:class:`~webapp.jobs.retry.Backoff`): the thread never
        dies, or this process would stop handing long solves on for good."""
        trial = self.quick_seconds
        if trial is None:  # no quick tries: nothing to sweep
            return
        pacing = Backoff("the quick lane's sweep", log, SWEEP_SECONDS)
        time.sleep(SWEEP_SECONDS)
        pacing.loop(lambda: self._sweep_once(trial), lambda: self.closing)

    def _sweep_once(self, trial: float) -> None:
        quick = self.lanes[QUICK]
        now = time.monotonic()
        for job in quick.waiting():
            waited = now - job.queued_at
            if job.trial and waited > trial and quick.withdraw(job):
                self._escalate(job, tried=False)

    @staticmethod
    def _board_key(request: JobRequest) -> tuple:
        return request.game, request.board, tuple(sorted(request.options.items()))

    def _is_known_long(self, request: JobRequest) -> bool:
        with self._lock:
            return self._board_key(request) in self._known_long

    def _remember_long(self, request) -> None:
        with self._lock:
            self._known_long[self._board_key(request)] = None
            while len(self._known_long) > KNOWN_LONG:
                self._known_long.popitem(last=False)

    # -- slots ---------------------------------------------------------------------------
    def _slot(self, sid: str) -> Slot:
        with self._lock:
            return self._slots.setdefault(sid, Slot())

    @staticmethod
    def _cancel_locked(slot: Slot) -> None:
        if slot.job is not None and slot.lane is not None:
            slot.lane.cancel(slot.job)
        slot.job, slot.lane = None, None

    @staticmethod
    def _finished(job: Job) -> None:
        note: _Note = job.note
        with note.slot.lock:
            if note.generation == note.slot.generation and note.slot.job is job:
                note.slot.job, note.slot.lane = None, None

    def _deliver(self, note: _Note, event: str, payload: Payload) -> bool:
        """Emit only while the job's generation is still the client's newest."""
        with note.slot.lock:
            if note.generation != note.slot.generation:
                return False
            self._emit(event, payload, to=note.player)
            return True
