"""Admission: the players one process holds, in all and per address (fast, no server)."""

import pytest

from webapp.live.admission import ADDRESS_MESSAGE, FULL_MESSAGE, Admission, affordable


def test_the_limits_refuse_with_a_reason_and_a_freed_place_is_reused():
    admission = Admission(max_clients=3, max_per_address=2)
    assert admission.admit("a", "10.0.0.1") is None
    assert admission.admit("b", "10.0.0.1") is None
    assert admission.admit("c", "10.0.0.1") == ADDRESS_MESSAGE
    assert admission.admit("d", "10.0.0.2") is None
    assert admission.admit("e", "10.0.0.3") == FULL_MESSAGE
    assert admission.admit("a", "10.0.0.1") is None  # already held: not counted twice
    assert admission.health() == {
        "players": 3,
        "max_clients": 3,
        "max_clients_per_address": 2,
        "addresses": 2,
        "transports": 0,
        "refused": 2,
    }
    admission.release("a")
    admission.release("a")  # twice is harmless
    admission.release("never-held")
    assert admission.admit("c", "10.0.0.1") is None
    admission.release("d")
    assert admission.health()["addresses"] == 1 and admission.held() == 2


def test_the_open_file_limit_caps_the_players():
    assert affordable(5000, open_files=20_000) == 5000
    assert affordable(5000, open_files=1024) == 1024 - 500


pytestmark = pytest.mark.app(MAX_CLIENTS=2, MAX_CLIENTS_PER_ADDRESS=100)


def test_a_full_app_refuses_the_next_socket_and_readyz_says_so(app):
    socketio = app.extensions["socketio"]
    first, second = socketio.test_client(app), socketio.test_client(app)
    assert first.is_connected() and second.is_connected()
    third = socketio.test_client(app)
    assert not third.is_connected()
    ready = app.test_client().get("/readyz").get_json()
    assert (ready["players"], ready["max_clients"], ready["refused"]) == (2, 2, 1)
    first.disconnect()
    fourth = socketio.test_client(app)
    assert fourth.is_connected()
    assert app.test_client().get("/readyz").get_json()["players"] == 2


def test_transports_that_never_join_are_capped_per_address():
    admission = Admission(max_clients=10, max_per_address=2)
    opened = [admission.open_transport(f"e{i}", "10.0.0.1") for i in range(10)]
    assert opened == [True] * 8 + [False] * 2
    assert admission.open_transport("x", "10.0.0.2")
    admission.close_transport("e0")
    admission.close_transport("e0")
    assert admission.open_transport("e9", "10.0.0.1")
    assert admission.health()["transports"] == 9
