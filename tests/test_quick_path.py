"""The quick path: recent analyses answered without a solver process.

A position analysed once is answered again from the web process's memory
(:mod:`webapp.jobs.recent`), and that answer is the solver's own: each one here is
held equal to what :func:`solver.engine.analyse_board` gives for the same request,
and the lanes are checked to have done no second job. Only facts are kept (final,
proven, every move rated), within a byte budget, least recently asked out first; the
record of help still hears every request.
"""

import json
import random

import pytest
from helpers.sockets import ONE_MOVE_8, Inbox

from solver.engine import analyse_board, make_domain
from webapp.jobs.model import QUICK
from webapp.jobs.recent import ENTRY_OVERHEAD, RecentAnalyses, exact

GOAL = "1 2 3 4 5 6 7 8 0"
KLOTSKI_CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"


def walks(count: int, seed: int = 5) -> list[str]:
    """Distinct 8-puzzle positions, random walks from the goal."""
    rng, domain, found = random.Random(seed), make_domain("npuzzle"), []
    while len(found) < count:
        state = domain.parse(GOAL)
        for _ in range(rng.randint(3, 30)):
            state = rng.choice([nxt for _, nxt in domain.moves(state)])
        board = domain.format(state)
        if board not in found:
            found.append(board)
    return found


def solver_answer(game: str, board: str, request_id, **options) -> dict:
    """What a solver process sends for this request, computed here."""
    return {"id": request_id, "game": game, **analyse_board(game, board, **options)}


def quick_completed(app) -> int:
    return app.extensions["jobs"].lanes[QUICK].stats()["completed"]


# -- what is kept ----------------------------------------------------------------------


def payload(**changes) -> dict:
    base = {
        "id": "r1",
        "game": "npuzzle",
        "board": ONE_MOVE_8,
        "solvable": True,
        "distance": 1,
        "optimal": True,
        "final": True,
        "moves_rated": [{"move": {"tile": 8, "dir": "left"}, "distance": 0}],
        "moves_rated_complete": True,
    }
    return {**base, **changes}


@pytest.mark.parametrize(
    ("changes", "kept"),
    [
        ({}, True),
        ({"solvable": False, "distance": None, "optimal": True}, True),
        ({"final": False}, False),  # an interim hint
        ({"optimal": False}, False),  # an unproven distance (a large N-puzzle's bound)
        ({"moves_rated_complete": False}, False),  # rating ran out of time
        ({"distance": None, "solvable": None, "optimal": False}, False),  # gave up
    ],
)
def test_only_facts_are_kept(changes, kept):
    recent = RecentAnalyses(1 << 20)
    key = recent.key("npuzzle", ONE_MOVE_8, {})
    assert exact(payload(**changes)) is kept
    assert recent.put(key, payload(**changes)) is kept
    assert (recent.get(key, "r2") is not None) is kept


def test_a_kept_answer_comes_back_whole_with_the_new_id_in_its_place():
    recent = RecentAnalyses(1 << 20)
    key = recent.key("npuzzle", ONE_MOVE_8, {"size": 3})
    recent.put(key, payload())
    again = recent.get(recent.key("npuzzle", ONE_MOVE_8, {"size": 3}), "r2")
    assert again == payload(id="r2")
    assert list(again) == list(payload())  # the solver's key order, id first
    assert recent.get(recent.key("npuzzle", ONE_MOVE_8, {"size": 4}), "r3") is None
    assert recent.stats()["hits"] == 1 and recent.stats()["misses"] == 1


def test_the_byte_budget_holds_and_the_least_recently_asked_leaves_first():
    one = len(json.dumps(payload(), separators=(",", ":"))) + ENTRY_OVERHEAD
    recent = RecentAnalyses(3 * one + one // 2)  # room for three
    keys = [recent.key("npuzzle", board, {}) for board in walks(5)]
    for key in keys[:3]:
        assert recent.put(key, payload())
    assert recent.get(keys[0], "again")  # the first is now the most recently asked
    recent.put(keys[3], payload())
    assert recent.get(keys[1], "gone") is None  # the least recently asked went
    assert all(recent.get(key, "kept") for key in (keys[0], keys[2], keys[3]))
    for key in keys:
        recent.put(key, payload())
    stats = recent.stats()
    assert stats["entries"] == 3 and stats["bytes"] <= stats["max_bytes"]
    assert RecentAnalyses(0).put(keys[0], payload()) is False  # 0: nothing kept


# -- through the app, with real solver processes ---------------------------------------


@pytest.fixture
def asked(app):
    """A test client of the module's app, and a function that asks one analysis and
    returns its final answer (a busy machine's quick lane may send an interim one first,
    the moves it had no time to rate left to the long lane)."""
    inbox = Inbox(app.extensions["socketio"].test_client(app))

    def ask(board, request_id, game="npuzzle", **options):
        inbox.client.emit("analyse", {"game": game, "board": board, "id": request_id, **options})
        return inbox.wait(
            ("analysis", "error"),
            timeout=60,
            where=lambda p: p.get("id") == request_id and p.get("final", True),
        )[1]

    yield ask
    inbox.client.disconnect()


def test_a_position_asked_again_is_answered_from_memory_and_is_the_solvers_answer(app, asked):
    boards = walks(12)
    first = [asked(board, f"first-{n}") for n, board in enumerate(boards)]
    done = quick_completed(app)
    hits = app.extensions["jobs"].recent.stats()["hits"]
    again = [asked(board, f"again-{n}") for n, board in enumerate(boards)]
    assert quick_completed(app) == done  # no solver process was asked again
    assert app.extensions["jobs"].recent.stats()["hits"] == hits + len(boards)
    for n, (board, answer, repeated) in enumerate(zip(boards, first, again, strict=True)):
        assert answer == solver_answer("npuzzle", board, f"first-{n}")
        assert repeated == solver_answer("npuzzle", board, f"again-{n}")


def test_a_klotski_level_with_its_options_is_kept_apart_from_other_options(app, asked):
    klotski = asked(KLOTSKI_CLASSIC, "k1", game="klotski")
    step = asked(KLOTSKI_CLASSIC, "step", game="klotski", metric="step")
    done = quick_completed(app)
    assert asked(KLOTSKI_CLASSIC, "k2", game="klotski") == {**klotski, "id": "k2"}
    assert asked(KLOTSKI_CLASSIC, "s2", game="klotski", metric="step") == {**step, "id": "s2"}
    assert quick_completed(app) == done
    assert klotski == solver_answer("klotski", KLOTSKI_CLASSIC, "k1")
    assert {**step, "id": "step"} == solver_answer(
        "klotski", KLOTSKI_CLASSIC, "step", metric="step"
    )
    assert step["distance"] != klotski["distance"]  # 116 steps, 81 piece moves


def test_every_request_answered_from_memory_still_goes_through_the_record_of_help(app):
    routed = []
    helps = app.extensions["players"].helps
    real = helps.asked

    def spy(token, address, game, options, board):
        routed.append((game, options))
        real(token, address, game, options, board)

    helps.asked = spy
    inbox = Inbox(app.extensions["socketio"].test_client(app))
    try:
        for request_id in ("one", "two", "three"):
            inbox.client.emit("analyse", {"game": "npuzzle", "board": GOAL, "id": request_id})
            inbox.wait("analysis", timeout=60, where=lambda p, r=request_id: p["id"] == r)
    finally:
        helps.asked = real
        inbox.client.disconnect()
    assert routed == [("npuzzle", {})] * 3


def test_an_answer_from_memory_supersedes_the_job_before_it(app, asked):
    from helpers.sockets import LONG

    asked(ONE_MOVE_8, "kept")  # now in memory
    inbox = Inbox(app.extensions["socketio"].test_client(app))
    try:
        inbox.client.emit("solve", {**LONG, "id": "long"})
        inbox.wait("progress", timeout=60)
        inbox.client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "now"})
        assert inbox.wait("analysis", timeout=10)[1]["id"] == "now"
        assert [n for n, p in inbox.quiet_for(1.5) if p.get("id") == "long"] == []
    finally:
        inbox.client.disconnect()


# -- what a message costs: read once per connection, decoded once -------------------------


def test_an_analysis_is_decoded_once_and_needs_no_flask_request_of_its_own(app, monkeypatch):
    """What a request needs of its connection (address, player, log prefix) was read
    at ``connect``: an event builds no Flask request context, and the guard's decoded
    packet is the one handled (python-socketio would decode the text a second time)."""
    from webapp.protocol import TRANSPORT_PACKET

    socketio = app.extensions["socketio"]
    server = socketio.server
    inbox = Inbox(socketio.test_client(app))
    decoded, contexts = [], []

    class Counted(server.packet_class):
        def decode(self, encoded_packet):
            decoded.append(encoded_packet)
            return super().decode(encoded_packet)

    real_context = app.request_context
    monkeypatch.setattr(server, "packet_class", Counted)
    monkeypatch.setattr(app, "request_context", lambda e: contexts.append(e) or real_context(e))
    text = json.dumps(["analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "once"}])
    try:
        # as the transport hands a frame over: through the guard (webapp/guard/frames.py)
        server.eio.handlers[TRANSPORT_PACKET](inbox.client.eio_sid, "2" + text)
        _, answer = inbox.wait("analysis", timeout=60, where=lambda p: p.get("id") == "once")
    finally:
        monkeypatch.undo()
        inbox.client.disconnect()
    assert answer["distance"] == 1
    assert decoded == ["2" + text]  # once
    assert contexts == []
