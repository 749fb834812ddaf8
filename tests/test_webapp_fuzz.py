"""Hostile input over a real websocket: random JSON at every event, the server stays up.

Hypothesis sends random JSON (and random argument counts) to ``analyse``,
``solve``, ``cancel`` and to event names the protocol does not have. Each
``analyse``/``solve`` must get exactly one answer, an ``error`` naming the event
or a well-formed reply (a solution is replayed with the rules); ``cancel`` and
unknown events answer nothing or ``error``. After every example a known
position must still be analysed and ``/healthz`` must still answer.
"""

import itertools
import json
import threading
import urllib.request

import pytest
from helpers.apps import make_app
from helpers.sockets import ANSWERS, ONE_MOVE_8, LiveClient, replay_solution
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.engine import make_domain

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
BOARD_TEXT = st.text(alphabet="0123456789 ABCDab.,/", max_size=40)
GAME = st.sampled_from(["npuzzle", "klotski", "watersort", "chess", ""])
REQUEST = st.fixed_dictionaries(
    {"game": GAME, "board": BOARD_TEXT | JSON},
    optional={"id": JSON, "capacity": st.integers(-2, 14) | JSON, "metric": JSON, "goal": JSON},
)
PAYLOAD = REQUEST | JSON
EVENT = st.sampled_from(["analyse", "solve", "cancel"]) | st.text(min_size=1, max_size=10)
ARGS = st.lists(PAYLOAD, min_size=0, max_size=3)
_ids = itertools.count()


@pytest.fixture(scope="module")
def fuzz_server():
    """A server of its own: short budgets, no rate limit (the fuzzer is fast on purpose)."""
    from werkzeug.serving import make_server

    app = make_app(ANALYSE_SECONDS=2, SOLVE_SECONDS=2, RATE_LIMIT=0)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    app.extensions["jobs"].shutdown(2.0)


@pytest.fixture(scope="module")
def fuzz_client(fuzz_server):
    client = LiveClient(fuzz_server)
    yield client
    client.close()


def check_reply(name, reply, event, args):
    if name == "error":
        assert reply["event"] == event and isinstance(reply["message"], str) and reply["message"]
        assert "\n" not in reply["message"]
        return
    payload = args[0]
    assert len(args) == 1 and isinstance(payload, dict)
    assert reply["game"] == payload["game"]
    options = {k: payload[k] for k in ("capacity", "metric", "goal") if k in payload}
    if name == "analysis":
        check_analysis(payload["game"], reply, options)
    elif name == "solution":
        replay_solution(payload["game"], reply["board"], reply, options)


def check_analysis(game, reply, options):
    """A verdict (a search that gave up answers ``error``), with the distance it implies:
    none when unsolvable, 0 exactly on a solved board, else a legal move to ``next_board``."""
    domain = make_domain(game, **options)
    state = domain.parse(reply["board"])
    assert reply["solved"] == domain.is_goal(state)
    if reply["solvable"] is False:
        assert reply["distance"] is None and reply["next_board"] is None
        return
    assert reply["solvable"] is True and reply["distance"] >= 0
    assert (reply["distance"] == 0) == reply["solved"]
    if reply["distance"]:
        after = domain.parse(reply["next_board"])
        assert any(domain.key(nxt) == domain.key(after) for _, nxt in domain.moves(state))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(event=EVENT, args=ARGS)
def test_random_json_at_every_event_gets_an_answer_and_the_server_stays_up(
    fuzz_server, fuzz_client, event, args
):
    json.dumps(args)  # it is JSON, as a browser sends
    fuzz_client.drain(0)
    if args:
        fuzz_client.sio.emit(event, tuple(args))  # a tuple sends several arguments
    else:
        fuzz_client.sio.emit(event)
    if event in ("analyse", "solve"):
        name, reply = fuzz_client.wait(ANSWERS, timeout=15)
        check_reply(name, reply, event, args)
    check = f"check-{next(_ids)}"
    fuzz_client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": check})
    _, reply = fuzz_client.wait("analysis", where=lambda p: p.get("id") == check)
    assert reply["distance"] == 1
    with urllib.request.urlopen(f"{fuzz_server}/healthz", timeout=5) as response:
        assert response.status == 200
