"""The Socket.IO protocol over a real websocket against the live server (conftest)."""

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
import socketio
from helpers.sockets import (
    ANSWERS,
    GOAL_8,
    LONG,
    ODD_PARITY_8,
    ONE_MOVE_8,
    LiveClient,
    replay_solution,
)

from harness.loopback import free_port
from solver import catalogue


@pytest.fixture
def live(live_server):
    clients = []

    def connect():
        client = LiveClient(live_server)
        clients.append(client)
        return client

    yield connect
    for client in clients:
        client.close()


def test_analyse_over_websocket(live):
    client = live()
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "w1"})
    _, reply = client.wait("analysis")
    assert reply["id"] == "w1" and reply["distance"] == 1 and reply["best_move"]["tile"] == 8
    assert reply["next_board"] == GOAL_8


@pytest.mark.parametrize("game", list(catalogue.games()))
def test_solve_default_boards_over_websocket(live, game):
    client = live()
    declared = catalogue.get(game)
    options = {k: v for k, v in declared.default_options().items() if v is not None}
    board = declared.default_board
    client.emit("solve", {"game": game, "board": board, "id": game, **options})
    _, solution = client.wait("solution", timeout=20)
    assert solution["id"] == game and solution["optimal"] is True
    replay_solution(game, board, solution, options)


def test_unsolvable_and_errors_over_websocket(live):
    client = live()
    client.emit("solve", {"game": "npuzzle", "board": ODD_PARITY_8, "id": 1})
    assert client.wait(ANSWERS)[0] == "unsolvable"
    for bad in (
        "nonsense",
        [1, 2],
        {"game": "npuzzle"},
        {"game": "go", "board": "x"},
        {"game": "npuzzle", "board": "9 9 9"},
    ):
        client.emit("analyse", bad)
        name, reply = client.wait(ANSWERS)
        assert name == "error" and reply["event"] == "analyse" and reply["message"]
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
    assert client.wait("analysis")[1]["distance"] == 1


def test_progress_cancel_and_supersede_over_websocket(live):
    client = live()
    client.emit("solve", {**LONG, "id": "first"})
    _, progress = client.wait("progress", timeout=20)
    assert progress["id"] == "first"
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "second"})
    _, reply = client.wait("analysis")
    assert reply["id"] == "second"
    client.emit("solve", {**LONG, "id": "third"})
    client.wait("progress", timeout=20, where=lambda p: p["id"] == "third")
    client.emit("cancel", {"id": "third"})
    late = client.drain(1.0)
    assert [(n, p) for n, p in late if n in ANSWERS] == []
    assert [p for n, p in late if p and p.get("id") == "first"] == []


def test_one_clients_long_solve_does_not_block_another(live):
    busy, other = live(), live()
    busy.emit("solve", {**LONG, "id": "slow"})
    busy.wait("progress", timeout=5)
    for _ in range(3):
        other.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
        other.wait("analysis", timeout=15)
    assert [n for n, _ in busy.drain(0) if n in ANSWERS] == []  # answered mid-solve
    busy.emit("cancel")
    assert [n for n, _ in busy.drain(0.5) if n in ANSWERS] == []


def test_oversize_messages_are_refused_by_the_transport(live_server, live):
    """A message over MAX_MESSAGE_BYTES (16 KB) closes that connection; others carry on."""
    flooder = live()
    flooder.emit("analyse", {"game": "npuzzle", "board": "1 " * 20_000})
    deadline = time.monotonic() + 5
    while flooder.sio.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not flooder.sio.connected
    assert [n for n, _ in flooder.drain(0.2) if n in ANSWERS] == []
    other = live()
    other.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
    assert other.wait("analysis")[1]["distance"] == 1


def test_only_the_same_origin_may_connect_by_default(live_server):
    stranger = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        stranger.connect(
            live_server,
            headers={"Origin": "http://evil.example"},
            transports=["websocket"],
            wait_timeout=5,
        )
    friend = socketio.Client(reconnection=False)  # it sends its own, same origin
    friend.connect(live_server, transports=["websocket"], wait_timeout=5)
    assert friend.connected
    threading.Thread(target=friend.disconnect, daemon=True).start()


def _descendants(pid):
    """Every process below ``pid``: gunicorn's worker and the solver workers it started."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(
                        int(entry)
                    )
            except (OSError, ValueError):
                pass
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found.extend(below)
        todo.extend(below)
    return found


def _alive(pids):
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(pid)
        except OSError:
            pass
    return alive


def test_sigterm_cancels_running_jobs_with_an_error_and_stops_the_workers(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "ARCADE_PREBUILD_TABLES": "0",
        "ARCADE_LOG_LEVEL": "WARNING",
    }
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - the server writes it until it stops
    server = subprocess.Popen(
        [sys.executable, "-m", "webapp"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        client = LiveClient(url)
        client.emit("solve", {**LONG, "id": "running"})
        client.wait("progress", timeout=20)
        idle = LiveClient(url)  # a player with no job: told, then let go
        workers = _descendants(server.pid)
        assert len(workers) >= 2  # gunicorn's worker and the solver's
        stopped = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            _, error = client.wait("error", timeout=10, where=lambda p: p["event"] != "restart")
            _, notice = idle.wait("error", timeout=5)
        except AssertionError:
            raise AssertionError((tmp_path / "server.log").read_text()[-3000:]) from None
        assert error["id"] == "running" and "shutting down" in error["message"]
        assert notice == {
            "message": "the server is restarting; reconnecting...",
            "event": "restart",
        }
        while idle.sio.connected and time.monotonic() - stopped < 5:
            time.sleep(0.05)
        assert not idle.sio.connected  # its socket closed within 5 s
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            raise AssertionError((tmp_path / "server.log").read_text()[-3000:]) from None
        assert server.returncode == 0 and time.monotonic() - stopped < 15
        # workers end with the server; multiprocessing's resource tracker a moment later
        deadline = time.monotonic() + 3
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _alive(workers) == []
        client.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
