"""Job delivery: once a player has moved on (a newer request, a cancel, a disconnect) the
old job's events reach nobody, not even an answer that was already on its way.

Two layers keep that promise and each is tested alone, so removing either is caught:

* :class:`~webapp.jobs.core.JobCore` emits only the client's newest request. Here it runs
  over fake lanes that just record jobs; the test plays the back end and hands the old
  job's events in as if they had been read off the pipe a moment before the player
  moved on (past the pool's cancelled-job check).
* :class:`~webapp.jobs.pool.WorkerPool` hands no event of a cancelled job to its owner. Here
  its worker processes are replaced by pipes the test writes into, and the pool's end
  holds what arrives until the test lets it through, so an answer can be put in the
  pipe, unread, before the cancel, and read after it.
"""

import socket
import threading
import time
from multiprocessing.connection import Connection
from types import SimpleNamespace

import pytest

from webapp.jobs import pool as pool_module
from webapp.jobs.core import JobCore
from webapp.jobs.fairness import FairQueue
from webapp.jobs.model import (
    ANALYSE,
    LAB,
    LONG,
    PAGE,
    QUICK,
    SOLVE,
    Job,
    JobRequest,
    Limits,
    WorkerSettings,
)
from webapp.jobs.pipe import Channel
from webapp.jobs.pool import WorkerPool

BOARD = "1 2 3 4 5 6 7 0 8"
LIMITS = {ANALYSE: Limits(5.0), SOLVE: Limits(20.0)}


def request(job_id):
    return JobRequest(game="npuzzle", board=BOARD, id=job_id)


def answer(job_id):
    return {"id": job_id, "game": "npuzzle", "length": 1}


def analysis(job_id, final=True, distance=5, solvable=True):
    return {
        "id": job_id,
        "game": "npuzzle",
        "final": final,
        "distance": distance,
        "solvable": solvable,
        "optimal": distance is not None,
        "moves_rated_complete": True,
        "message": "",
    }


class Emitted:
    """What the runner sent, as (client, event, request id)."""

    def __init__(self):
        self.sent = []
        self._changed = threading.Condition()

    def __call__(self, event, payload, to):
        with self._changed:
            self.sent.append((to, event, payload.get("id")))
            self._changed.notify_all()

    def wait_for(self, item, timeout=10.0):
        with self._changed:
            return self._changed.wait_for(lambda: item in self.sent, timeout)


class FakeLane:
    """Records submitted jobs; cancelling marks them, as the real lanes do."""

    name = "fake"

    def __init__(self):
        self.jobs = []

    def submit(self, job):
        self.jobs.append(job)

    def cancel(self, job):
        job.cancelled = True

    def withdraw(self, job):
        return False

    def waiting(self):
        return []

    def players(self):
        return {job.player for job in self.jobs if not job.cancelled}

    def start(self):
        pass


def make_core(quick_seconds=None):
    emitted = Emitted()
    made = JobCore(emitted, {QUICK: FakeLane(), LONG: FakeLane(), PAGE: FakeLane()}, LIMITS)
    made.quick_seconds = quick_seconds
    made.emitted = emitted
    return made


@pytest.fixture
def runner():
    return make_core()


MOVING_ON = {
    "a newer request": lambda runner: runner.submit("p", SOLVE, request("new")),
    "a cancel": lambda runner: runner.cancel("p"),
    "a disconnect": lambda runner: runner.drop("p"),
}


@pytest.mark.parametrize("move_on", MOVING_ON.values(), ids=MOVING_ON.keys())
def test_the_old_job_says_nothing_once_the_player_moves_on(runner, move_on):
    runner.submit("p", SOLVE, request("old"))
    runner.submit("q", SOLVE, request("other"))
    old, other = runner.lanes[LONG].jobs[:2]
    old.on_event("progress", {"id": "old", "nodes": 10})
    assert runner.emitted.sent == [("p", "progress", "old")]  # still the newest: sent
    move_on(runner)
    assert old.cancelled
    old.on_event("progress", {"id": "old", "nodes": 20})  # already read off the pipe
    old.on_event("solution", answer("old"))
    old.on_done()
    other.on_event("solution", answer("other"))  # other players unaffected
    assert runner.emitted.sent == [("p", "progress", "old"), ("q", "solution", "other")]


def test_only_the_newest_of_several_requests_answers(runner):
    for job_id in ("first", "second", "third"):
        runner.submit("p", ANALYSE, request(job_id))
    first, second, third = runner.lanes[QUICK].jobs
    assert [first.cancelled, second.cancelled, third.cancelled] == [True, True, False]
    for job in (third, first, second):  # answers in any order
        job.on_event("analysis", analysis(job.request.id))
    assert runner.emitted.sent == [("p", "analysis", "third")]


def test_a_finished_old_job_does_not_free_the_new_ones_slot(runner):
    """The old job's late ``done`` must not make the runner forget the new job, or a
    cancel would then find nothing to stop."""
    runner.submit("p", SOLVE, request("old"))
    runner.submit("p", SOLVE, request("new"))
    old, new = runner.lanes[LONG].jobs
    old.on_done()
    assert runner.cancel("p", "new") and new.cancelled
    new.on_event("solution", answer("new"))
    assert runner.emitted.sent == []


def test_an_old_analysis_needing_more_time_is_not_moved_to_the_long_lane():
    core = make_core(quick_seconds=0.5)
    core.submit("p", ANALYSE, request("old"))
    old = core.lanes[QUICK].jobs[0]
    assert old.limits.quick and old.limits.seconds == 0.5
    core.submit("p", ANALYSE, request("new"))
    old.on_event("analysis", analysis("old", distance=None, solvable=None))  # gave up
    assert core.lanes[LONG].jobs == []
    new = core.lanes[QUICK].jobs[1]
    new.on_event("analysis", analysis("new", final=False))  # the interim hint
    new.on_event("analysis", analysis("new", distance=None, solvable=None))
    (moved,) = core.lanes[LONG].jobs
    assert moved.request.id == "new" and moved.limits == LIMITS[ANALYSE]
    moved.on_event("analysis", analysis("new", final=False))  # sent once already
    moved.on_event("analysis", analysis("new"))
    assert core.emitted.sent == [("p", "analysis", "new")] * 2


def test_a_try_that_waited_longer_than_it_may_run_moves_to_the_long_lane_untried():
    core = make_core(quick_seconds=0.05)
    quick = core.lanes[QUICK]
    quick.withdraw = lambda job: job in quick.jobs and not quick.jobs.remove(job)
    quick.waiting = lambda: list(quick.jobs)
    core.submit("p", SOLVE, request("long"))
    (job,) = quick.jobs
    assert job.trial and job.limits.quick
    deadline = time.monotonic() + 5
    while not core.lanes[LONG].jobs and time.monotonic() < deadline:
        time.sleep(0.02)
    (moved,) = core.lanes[LONG].jobs
    assert quick.jobs == [] and moved.request.id == "long" and not moved.limits.quick
    core.closing = True  # stops the sweeper


def test_cancel_names_the_job_it_stops(runner):
    runner.submit("p", SOLVE, request("mine"))
    job = runner.lanes[LONG].jobs[0]
    assert not runner.cancel("p", "someone else's") and not job.cancelled
    assert not runner.cancel("nobody")
    assert runner.cancel("p", "mine") and job.cancelled
    assert not runner.cancel("p", "mine")  # nothing left to cancel


# -- the pool's own filter, with the test playing the worker processes ---------------------


class HeldChannel(Channel):
    """The pool's end of a played worker's pipe, with a gate: while ``open`` is clear, a
    message the worker wrote is read but not handed to the pool (it stays, as far as
    the pool knows, unread in the pipe)."""

    def __init__(self, sock):
        super().__init__(sock)
        self.open = threading.Event()
        self.open.set()

    def recv(self):
        message = super().recv()
        assert self.open.wait(10)
        return message


class PlayedWorker(pool_module.SolverProcess):
    """A worker without a process: the test reads its jobs from ``child`` and writes its
    messages there. It says ``ready`` at once and never dies."""

    made = []

    def __init__(self, index, settings, name):
        self.index = index
        self.cancel_flag = SimpleNamespace(value=0)
        ours, theirs = socket.socketpair()
        self.conn, self.child = HeldChannel(ours), Connection(theirs.detach())
        self.process = SimpleNamespace(
            is_alive=lambda: True,
            pid=0,
            exitcode=None,
            join=lambda timeout=None: None,
            kill=lambda: None,
        )
        self.ready = False
        self.jobs = []
        self.deadline = 0.0
        self.restart_at = None
        self.ending = None
        self.child.send(("ready", 0))
        PlayedWorker.made.append(self)

    @classmethod
    def taker(cls):
        """The worker the pool handed a job to: either free one may take it, as its
        ``ready`` may be read first."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for worker in cls.made:
                if worker.child.poll(0.05):
                    return worker
        raise AssertionError("the pool handed no worker a job")

    def take(self):
        """The next job the pool hands this worker: (seq, kind, request, limits)."""
        assert self.child.poll(10), "the pool handed this worker no job"
        (job,) = self.child.recv()
        return job


@pytest.fixture
def played_pool(monkeypatch):
    """A two-worker pool whose workers the test plays; its readers are real."""
    PlayedWorker.made = []
    monkeypatch.setattr(pool_module, "SolverProcess", PlayedWorker)
    made = WorkerPool("played", 2, 4, WorkerSettings())
    yield made
    made.close()
    for worker in PlayedWorker.made:
        worker.child.close()


def test_a_cancelled_jobs_answer_already_in_the_pipe_is_dropped(played_pool):
    heard, done = [], threading.Event()
    job = Job(
        SOLVE,
        request("old"),
        LIMITS[SOLVE],
        player="p",
        on_event=lambda event, payload: heard.append(event),
        on_done=done.set,
    )
    played_pool.submit(job)
    worker = PlayedWorker.taker()
    seq, *_ = worker.take()
    worker.conn.open.clear()  # what the worker writes now stays unread
    worker.child.send(("event", seq, "progress", {"id": "old"}))
    worker.child.send(("done", seq, [("solution", answer("old"))]))
    played_pool.cancel(job)
    worker.conn.open.set()
    assert done.wait(10)  # the pipe was read to the end
    assert heard == []


@pytest.mark.parametrize("move_on", MOVING_ON.values(), ids=MOVING_ON.keys())
def test_an_answer_in_the_pipe_when_the_player_moves_on_reaches_nobody(played_pool, move_on):
    """Both layers together, through the runner, with the pool's real readers."""
    emitted = Emitted()
    runner = JobCore(emitted, {QUICK: played_pool, LONG: played_pool, PAGE: played_pool}, LIMITS)
    runner.submit("p", SOLVE, request("old"))
    worker = PlayedWorker.taker()
    (other,) = [made for made in PlayedWorker.made if made is not worker]
    seq, *_ = worker.take()
    played_pool.submit(Job(SOLVE, request("blocker"), LIMITS[SOLVE], player="b"))
    other.take()  # busy for the rest of the test
    runner.submit("q", SOLVE, request("queued"))  # waits for a free worker
    worker.conn.open.clear()
    worker.child.send(("done", seq, [("solution", answer("old"))]))
    move_on(runner)
    worker.conn.open.set()
    # worker 0 is given the queued job only once the old answer and its end were read
    queued_seq, _, queued, _ = worker.take()
    assert queued.id == "queued"
    assert emitted.sent == []
    worker.child.send(("done", queued_seq, [("solution", answer("queued"))]))
    assert emitted.wait_for(("q", "solution", "queued"))
    assert emitted.sent == [("q", "solution", "queued")]


# -- the fair queue every lane keeps ---------------------------------------------------------


def queued(job_id, player, address, trial=False):
    return Job(SOLVE, request(job_id), LIMITS[SOLVE], player=player, address=address, trial=trial)


def test_a_free_worker_goes_to_the_address_then_the_player_with_the_fewest_running():
    running = [queued("r", "p1", "A")]
    line = FairQueue(10)
    for job in (queued("a-p1", "p1", "A"), queued("a-p2", "p2", "A"), queued("b", "p9", "B")):
        assert line.push(job)
    assert line.pop(running).request.id == "b"  # address B has nothing running
    assert line.pop(running).request.id == "a-p2"  # within A, p2 has nothing running
    assert line.pop(running).request.id == "a-p1" and line.pop(running) is None


def test_plain_jobs_go_before_tries_and_the_newest_try_first():
    line = FairQueue(10)
    for job in (
        queued("try-old", "p1", "A", trial=True),
        queued("try-new", "p2", "A", trial=True),
        queued("hint", "p3", "A"),
    ):
        line.push(job)
    assert line.pop([], plain_only=True).request.id == "hint"
    assert line.pop([], plain_only=True) is None  # only tries wait
    assert [line.pop([]).request.id for _ in range(2)] == ["try-new", "try-old"]


def test_an_address_may_queue_only_its_share_whatever_its_players():
    line = FairQueue(10, max_per_address=2)
    assert line.push(queued("1", "p1", "A")) and line.push(queued("2", "p2", "A"))
    assert not line.push(queued("3", "p3", "A"))  # a third player of the same address
    assert line.push(queued("4", "p4", "B")) and len(line) == 3


@pytest.mark.parametrize(
    ("places", "asked", "share"), [(8, None, 4), (512, 256, 256), (32, 20, 16)]
)
def test_no_address_waits_in_more_than_half_of_a_queue(places, asked, share):
    """Issue 46: the page lane had 8 places for everyone and one address took them all."""
    line = FairQueue(places, max_per_address=asked)
    pushed = [line.push(queued(str(i), f"p{i}", "A")) for i in range(places)]
    assert pushed == [True] * share + [False] * (places - share)
    assert all(line.push(queued(f"b{i}", f"q{i}", "B")) for i in range(places - share))


def lab(job_id, address):
    return Job(LAB, request(job_id), LIMITS[SOLVE], player=job_id, address=address)


def test_a_lab_run_starts_only_within_its_addresss_half_of_the_workers():
    """Lab runs hold a worker up to a minute, never pre-empted: with four workers one
    address runs two at most, all addresses together three, so a solve always finds one."""
    line = FairQueue(10)
    running = [lab("a1", "A"), lab("a2", "A")]
    for job in (lab("a3", "A"), queued("solve", "p9", "B"), lab("c1", "C")):
        line.push(job)
    popped = line.pop(running, workers=4)
    assert popped is not None and popped.request.id == "solve"
    running.append(popped)
    popped = line.pop(running, workers=4)
    assert popped is not None and popped.request.id == "c1"  # A's third waits
    running.append(popped)
    assert line.pop(running, workers=4) is None  # three comparisons: the fourth worker is kept
    assert line.pop(running[2:], workers=4).request.id == "a3"  # A's first two ended
    lone = FairQueue(10)
    lone.push(lab("x", "A"))
    assert lone.pop([lab("y", "B")], workers=1).request.id == "x"  # one worker: one each


@pytest.mark.parametrize("kind", [ANALYSE, SOLVE])
def test_a_quick_try_keeps_its_kinds_whole_budget_before_its_process_is_a_runaway(kind):
    """A try searches for the quick budget only, but its process may load tables first
    (before the search's clock starts): the runaway backstop counts from the kind's budget,
    so a cold process loading the 15-puzzle's databases is not killed after half a second."""
    core = make_core(quick_seconds=0.5)
    core.submit("p", kind, request("try"))
    (job,) = core.lanes[QUICK].jobs
    assert job.limits.quick and job.limits.seconds == 0.5
    assert job.limits.runaway_after == LIMITS[kind].seconds > 0.5


def test_the_sweeper_survives_its_lanes_failing_and_the_player_still_hears():
    """Redis timing out under the sweeper (the long lane's submit, the quick lane's
    listing) must not end the thread: it logs, backs off and goes on."""
    core = make_core(quick_seconds=0.05)
    quick, long_lane = core.lanes[QUICK], core.lanes[LONG]
    quick.withdraw = lambda job: job in quick.jobs and not quick.jobs.remove(job)
    failures = {"waiting": 2, "submit": 1}

    def waiting():
        if failures["waiting"]:
            failures["waiting"] -= 1
            raise TimeoutError("Timeout reading from socket")
        return list(quick.jobs)

    def submit(job):
        if failures["submit"]:
            failures["submit"] -= 1
            raise TimeoutError("Timeout reading from socket")
        long_lane.jobs.append(job)

    quick.waiting, long_lane.submit = waiting, submit
    core.submit("p", SOLVE, request("first"))
    assert core.emitted.wait_for(("p", "error", "first"))  # its move failed: told
    core.submit("q", SOLVE, request("second"))
    deadline = time.monotonic() + 10
    while not long_lane.jobs and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [job.request.id for job in long_lane.jobs] == ["second"]
    assert core._sweeper is not None and core._sweeper.is_alive()
    core.closing = True  # stops the sweeper


def test_the_end_of_warming_is_told_to_this_process_pages_without_the_cluster_queue():
    """The page that connects when the last lane is ready makes the server say so to
    every page: to this process's pages only (its lanes, not another process's), and
    never through the cluster's queue, which held that page's connection for a
    publish's timeout while Redis hung."""
    said = []
    lane = FakeLane()
    ready = {"ready": 0, "size": 1}
    lane.stats = lambda: ready
    core = JobCore(lambda *args, **kwargs: said.append((args, kwargs)), {QUICK: lane}, LIMITS)
    core.warming = True
    assert core.still_warming() and said == []
    ready["ready"] = 1
    assert not core.still_warming()
    assert said == [
        (("solver_status", {"warming": False, "building": False}), {"ignore_queue": True})
    ]
    core.building = True
    core.tables_built()
    assert said[1] == said[0]
