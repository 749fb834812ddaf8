"""Socket.IO protocol through Flask-SocketIO's test client: every event and the job rules.

Answers arrive from background workers, so :class:`Inbox` polls ``get_received``
until the awaited event shows up (or a timeout fails the test). Solutions are
replayed with the solver domain's own rules, and their lengths checked against
an independent breadth-first search.
"""

import json
import logging
import time
from itertools import pairwise

import pytest
from helpers.apps import make_app
from helpers.sockets import ANSWERS, GOAL_8, LONG, ODD_PARITY_8, ONE_MOVE_8, Inbox, replay_solution
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import catalogue
from solver.core.search import breadth_first

# no rate limit here: these tests fire events as fast as they can on purpose
pytestmark = pytest.mark.app(ANALYSE_SECONDS=5, SOLVE_SECONDS=20, RATE_LIMIT=0)


def test_analyse_gives_distance_and_best_move(inbox):
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "a1"})
    _, reply = inbox.wait("analysis")
    assert reply["id"] == "a1" and reply["game"] == "npuzzle"
    assert reply["distance"] == 1 and reply["solvable"] is True and reply["optimal"] is True
    assert reply["solved"] is False
    assert reply["best_move"]["tile"] == 8 and reply["best_move"]["text"]
    assert reply["next_board"] == GOAL_8


def test_analyse_of_a_solved_board(inbox):
    inbox.client.emit("analyse", {"game": "npuzzle", "board": GOAL_8})
    _, reply = inbox.wait("analysis")
    assert reply["solved"] is True and reply["distance"] == 0 and reply["best_move"] is None


@pytest.mark.parametrize("game", list(catalogue.games()))
def test_solve_replays_to_the_goal_in_the_fewest_moves(inbox, game):
    """Each play page's default board is solved optimally (BFS agrees on the length)."""
    board = catalogue.get(game).default_board
    options = {k: v for k, v in catalogue.get(game).default_options().items() if v is not None}
    inbox.client.emit("solve", {"game": game, "board": board, "id": 7, **options})
    _, solution = inbox.wait("solution", timeout=20)
    assert solution["id"] == 7 and solution["game"] == game and solution["optimal"] is True
    assert set(solution["stats"]) >= {"nodes", "seconds"}
    domain, start = replay_solution(game, board, solution, options)
    shortest = breadth_first(domain, start)
    assert shortest.solved and solution["length"] == shortest.length


def test_parity_odd_8_puzzle_is_unsolvable(inbox):
    inbox.client.emit("solve", {"game": "npuzzle", "board": ODD_PARITY_8, "id": "u"})
    _, reply = inbox.wait(ANSWERS)
    assert reply["id"] == "u"
    assert reply == {**reply, "game": "npuzzle", "board": ODD_PARITY_8}
    assert reply["message"]
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ODD_PARITY_8})
    name, analysis = inbox.wait(ANSWERS)
    assert name == "analysis" and analysis["solvable"] is False and analysis["distance"] is None


def test_unsolvable_event_name(inbox):
    inbox.client.emit("solve", {"game": "npuzzle", "board": ODD_PARITY_8})
    name, _ = inbox.wait(ANSWERS)
    assert name == "unsolvable"


def test_progress_streams_then_cancel_silences_the_job(app, inbox):
    inbox.client.emit("solve", {**LONG, "id": "long"})
    _, first = inbox.wait("progress", timeout=5)
    assert first["id"] == "long" and first["nodes"] > 0
    assert {"depth", "elapsed"} <= set(first)
    inbox.client.emit("cancel", {})
    assert inbox.quiet_for(1.0) == []
    runner = app.extensions["jobs"]
    deadline = time.monotonic() + 3
    while runner.busy_clients() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert runner.busy_clients() == 0, "the cancelled search kept running"
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
    assert inbox.wait("analysis")[1]["distance"] == 1


def test_progress_is_throttled(inbox):
    """Progress lines are at least a fifth of a second apart by the search's own clock."""
    inbox.client.emit("solve", {**LONG, "id": "throttled"})
    stamps = [inbox.wait("progress", timeout=10)[1]["elapsed"] for _ in range(4)]
    inbox.client.emit("cancel")
    assert all(b - a >= 0.2 for a, b in pairwise(stamps)), stamps


def test_cancel_with_another_id_leaves_the_job_alone(inbox):
    inbox.client.emit("solve", {**LONG, "id": "keep"})
    inbox.wait("progress", timeout=5)
    inbox.client.emit("cancel", {"id": "other"})
    inbox.events.clear()
    inbox.wait("progress", timeout=5, where=lambda p: p["id"] == "keep")
    inbox.client.emit("cancel", {"id": "keep"})
    assert inbox.quiet_for(0.8) == []


def test_newer_request_supersedes_the_older(inbox):
    inbox.client.emit("solve", {**LONG, "id": "old"})
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "new"})
    _, reply = inbox.wait("analysis")
    assert reply["id"] == "new"
    late = inbox.quiet_for(1.0, names=ANSWERS + ("progress",))
    assert [p for _, p in late if p.get("id") == "old"] == []


def test_rapid_requests_answer_only_the_last(inbox):
    for i in range(5):
        inbox.client.emit("solve", {**LONG, "id": i})
    inbox.client.emit("solve", {"game": "npuzzle", "board": "4 1 2 0 8 7 6 3 5", "id": "last"})
    _, solution = inbox.wait("solution", timeout=10)
    assert solution["id"] == "last" and solution["length"] == 17
    assert inbox.quiet_for(0.5) == []


def test_disconnect_cancels_the_job(app):
    runner = app.extensions["jobs"]
    client = app.extensions["socketio"].test_client(app)
    client.emit("solve", LONG)
    Inbox(client).wait("progress", timeout=5)
    client.disconnect()
    deadline = time.monotonic() + 3
    while runner.busy_clients() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert runner.busy_clients() == 0


def test_a_long_solve_does_not_block_another_client(app, inbox):
    other = Inbox(app.extensions["socketio"].test_client(app))
    inbox.client.emit("solve", {**LONG, "id": "slow"})
    inbox.wait("progress", timeout=5)
    other.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "quick"})
    _, reply = other.wait("analysis", timeout=15)
    assert reply["id"] == "quick"
    inbox._pull()
    assert [n for n, _ in inbox.events if n != "progress"] == []  # answered mid-solve
    inbox.client.emit("cancel")
    other.client.disconnect()


def test_over_budget_is_an_error_naming_the_effort():
    budget_app = make_app(SOLVE_SECONDS=0.3, ANALYSE_SECONDS=0.3)
    inbox = Inbox(budget_app.extensions["socketio"].test_client(budget_app))
    for event in ("solve", "analyse"):
        inbox.client.emit(event, {**LONG, "id": event})
        _, error = inbox.wait("error", timeout=30)  # a fresh app: workers start first
        assert error["event"] == event and error["id"] == event
        # in words, with the figures: the budget in whole seconds, what was searched
        assert error["gave_up"] and error["budget_seconds"] == 0.3 and error["nodes"] > 0
        assert error["message"].startswith("Too big to solve within the 0.3 s budget: ")
    inbox.client.disconnect()


BAD_PAYLOADS = [
    None,
    "npuzzle",
    42,
    3.5,
    True,
    [],
    ["npuzzle", ONE_MOVE_8],
    {},
    {"game": "npuzzle"},
    {"board": ONE_MOVE_8},
    {"game": 5, "board": ONE_MOVE_8},
    {"game": None, "board": ONE_MOVE_8},
    {"game": "chess", "board": "e4"},
    {"game": "npuzzle", "board": 12345678},
    {"game": "npuzzle", "board": ["1", "2"]},
    {"game": "npuzzle", "board": "1 " * 1001},
    {"game": "npuzzle", "board": "1 2 3"},
    {"game": "npuzzle", "board": "1 2 3 4 5 6 7 8 8"},
    {"game": "npuzzle", "board": ""},
    {"game": "npuzzle", "board": ONE_MOVE_8, "id": {"x": 1}},
    {"game": "npuzzle", "board": ONE_MOVE_8, "id": "x" * 500},
    {"game": "watersort", "board": "AB,BA,,", "capacity": "four"},
    {"game": "watersort", "board": "AB,BA,,", "capacity": 2.5},
    {"game": "watersort", "board": "AB,BA,,", "capacity": -3},
    {"game": "watersort", "board": "AB,BA,,", "capacity": True},
    {"game": "watersort", "board": "ABC,,"},
    {"game": "klotski", "board": "BAAC/BAAC/DEEF/DGHF/I..J", "metric": 3},
    {"game": "klotski", "board": "BAAC/BAAC/DEEF/DGHF/I..J", "metric": "diagonal"},
    {"game": "klotski", "board": "BAAC/BAAC/DEEF/DGHF/I..J", "goal": ["A", 3, 1]},
    {"game": "klotski", "board": "BAAC/BAAC/DEEF/DGHF/I..J", "goal": "Q@9,9"},
    {"game": "klotski", "board": "BAAC/BAA/DEEF/DGHF/I..J"},
]


@pytest.mark.parametrize("event", ["analyse", "solve"])
def test_bad_payloads_get_one_error_each_and_the_server_carries_on(inbox, event):
    for payload in BAD_PAYLOADS:
        if payload is None:
            inbox.client.emit(event)
        else:
            inbox.client.emit(event, payload)
        name, reply = inbox.wait(ANSWERS, timeout=5)
        assert name == "error", f"{payload!r} gave {name} {reply}"
        assert reply["event"] == event and isinstance(reply["message"], str) and reply["message"]
        assert "\n" not in reply["message"] and "Traceback" not in reply["message"]
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
    assert inbox.wait("analysis")[1]["distance"] == 1


def test_error_messages_name_the_problem(inbox):
    cases = [
        ({"game": "chess", "board": "x"}, "unknown game"),
        ({"game": "npuzzle"}, "missing board"),
        ({"board": "x"}, "missing game"),
        ({"game": "npuzzle", "board": "1 " * 1001}, "limit is 2000"),
        ({"game": "npuzzle", "board": ONE_MOVE_8, "id": 7, "capacity": "x"}, "capacity"),
    ]
    for payload, words in cases:
        inbox.client.emit("analyse", payload)
        _, reply = inbox.wait("error")
        assert words in reply["message"]
    assert reply["id"] == 7


@pytest.mark.parametrize("payload", ["x", 3, [1], {"id": [2]}])
def test_bad_cancel_payloads(inbox, payload):
    inbox.client.emit("cancel", payload)
    _, reply = inbox.wait("error")
    assert reply["event"] == "cancel"


def test_two_arguments_are_an_error_not_a_crash(inbox):
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8}, "extra")
    name, reply = inbox.wait(ANSWERS)
    assert name == "error" and reply["event"] == "analyse"
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
    assert inbox.wait("analysis")[1]["distance"] == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELD = st.sampled_from(["game", "board", "id", "metric", "goal", "capacity", "extra"])
GAME_VALUE = st.sampled_from(["npuzzle", "klotski", "watersort", "chess", ""]) | JSON
PAYLOADS = JSON | st.dictionaries(FIELD, GAME_VALUE, max_size=6)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=PAYLOADS, event=st.sampled_from(["analyse", "solve"]))
def test_fuzzed_payloads_always_get_one_answer(inbox, payload, event):
    json.dumps(payload)  # it is JSON, as a browser would send
    inbox.client.emit(event, payload)
    name, reply = inbox.wait(ANSWERS, timeout=10)
    if name == "error":
        assert reply["event"] == event and reply["message"]
    inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "check"})
    assert inbox.wait("analysis", where=lambda p: p["id"] == "check")[1]["distance"] == 1


def test_a_socket_connecting_and_leaving_writes_no_log_line(app, caplog):
    """Every page opens a socket: a line each would bury the log's news (issue 34)."""
    caplog.set_level(logging.INFO)
    client = app.extensions["socketio"].test_client(app)
    assert client.is_connected()
    client.disconnect()
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert not [line for line in lines if "connected" in line], lines
