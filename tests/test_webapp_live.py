"""The Socket.IO protocol over a real websocket against the live server (conftest)."""
import queue
import threading
import time

import pytest
import socketio

from test_webapp_socket import ANSWERS, GOAL_8, LONG, ODD_PARITY_8, ONE_MOVE_8, replay_solution
from webapp.games import GAMES


class LiveClient:
    """A python-socketio client over websocket that queues every event it receives."""

    def __init__(self, url):
        self.events = queue.Queue()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("*", lambda event, data=None: self.events.put((event, data)))
        self.sio.connect(url, transports=["websocket"], wait_timeout=5)
        assert self.sio.transport() == "websocket"

    def emit(self, event, *args):
        self.sio.emit(event, *args)

    def wait(self, names, timeout=10.0, where=lambda payload: True):
        names = (names,) if isinstance(names, str) else tuple(names)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {names} within {timeout} s")
            try:
                name, payload = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if name in names and where(payload):
                return name, payload

    def drain(self, seconds):
        """Every event that arrives within ``seconds``."""
        time.sleep(seconds)
        got = []
        while not self.events.empty():
            got.append(self.events.get())
        return got

    def close(self):
        """Disconnect without waiting out websocket-client's 3 s close handshake."""
        threading.Thread(target=self.sio.disconnect, daemon=True).start()


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


@pytest.mark.parametrize("game", list(GAMES))
def test_solve_default_boards_over_websocket(live, game):
    client = live()
    info = GAMES[game]
    options = {k: v for k, v in info["options"].items() if v is not None}
    client.emit("solve", {"game": game, "board": info["board"], "id": game, **options})
    _, solution = client.wait("solution", timeout=20)
    assert solution["id"] == game and solution["optimal"] is True
    replay_solution(game, info["board"], solution, options)


def test_unsolvable_and_errors_over_websocket(live):
    client = live()
    client.emit("solve", {"game": "npuzzle", "board": ODD_PARITY_8, "id": 1})
    assert client.wait(ANSWERS)[0] == "unsolvable"
    for bad in ("nonsense", [1, 2], {"game": "npuzzle"}, {"game": "go", "board": "x"},
                {"game": "npuzzle", "board": "9 9 9"}):
        client.emit("analyse", bad)
        name, reply = client.wait(ANSWERS)
        assert name == "error" and reply["event"] == "analyse" and reply["message"]
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
    assert client.wait("analysis")[1]["distance"] == 1


def test_progress_cancel_and_supersede_over_websocket(live):
    client = live()
    client.emit("solve", {**LONG, "id": "first"})
    _, progress = client.wait("progress", timeout=5)
    assert progress["id"] == "first"
    client.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8, "id": "second"})
    _, reply = client.wait("analysis")
    assert reply["id"] == "second"
    client.emit("solve", {**LONG, "id": "third"})
    client.wait("progress", timeout=5, where=lambda p: p["id"] == "third")
    client.emit("cancel", {"id": "third"})
    late = client.drain(1.0)
    assert [(n, p) for n, p in late if n in ANSWERS] == []
    assert [p for n, p in late if p and p.get("id") == "first"] == []


def test_one_clients_long_solve_does_not_block_another(live):
    busy, other = live(), live()
    busy.emit("solve", {**LONG, "id": "slow"})
    busy.wait("progress", timeout=5)
    started = time.monotonic()
    for _ in range(3):
        other.emit("analyse", {"game": "npuzzle", "board": ONE_MOVE_8})
        other.wait("analysis", timeout=5)
    assert time.monotonic() - started < 6.0     # far below the live server's 60 s budget
    busy.emit("cancel")
    assert [n for n, _ in busy.drain(0.5) if n in ANSWERS] == []
