"""Socket.IO test helpers: an inbox over Flask-SocketIO's test client, a websocket client
for live servers, the boards the protocol tests send, and a solution checker.

Answers arrive from background workers, so :class:`Inbox` polls ``get_received``
until the awaited event shows up (or a timeout fails the test).
"""

import queue
import threading
import time

import socketio

from solver.engine import make_domain

#: the events that answer a request
ANSWERS = ("analysis", "solution", "unsolvable", "error")

#: a 6x6 Klotski level far too big for a table: its breadth-first search runs for
#: seconds (hundreds of thousands of positions), reporting progress, until stopped
LONG = {"game": "klotski", "board": "BAACxy/BAACzw/DEEF12/DGHF34/I....J/KLMNOP"}
ONE_MOVE_8 = "1 2 3 4 5 6 7 0 8"
GOAL_8 = "1 2 3 4 5 6 7 8 0"
ODD_PARITY_8 = "1 2 3 4 5 6 8 7 0"


class Inbox:
    """Collects a test client's events; ``wait`` pops the first one that matches."""

    def __init__(self, client):
        self.client = client
        self.events = []

    def _pull(self):
        for packet in self.client.get_received():
            self.events.append((packet["name"], packet["args"][0] if packet["args"] else None))

    def wait(self, names, timeout=10.0, where=lambda payload: True):
        names = (names,) if isinstance(names, str) else tuple(names)
        deadline = time.monotonic() + timeout
        while True:
            self._pull()
            for i, (name, payload) in enumerate(self.events):
                if name in names and where(payload):
                    del self.events[i]
                    return name, payload
            if time.monotonic() > deadline:
                raise AssertionError(f"no {names} within {timeout} s; got {self.events}")
            time.sleep(0.01)

    def quiet_for(self, seconds, names=ANSWERS):
        """The events among ``names`` that arrive within ``seconds`` (should be none)."""
        time.sleep(seconds)
        self._pull()
        return [(n, p) for n, p in self.events if n in names]


def replay_solution(game, board, solution, options=None):
    """Check a ``solution`` payload with the domain's rules; return the domain and start."""
    domain = make_domain(game, **(options or {}))
    state = domain.parse(board)
    assert solution["states"][0] == domain.format(state)
    assert solution["length"] == len(solution["moves"]) == len(solution["states"]) - 1
    for move_dict, after in zip(solution["moves"], solution["states"][1:], strict=True):
        assert move_dict["text"]
        matches = [
            nxt
            for move, nxt in domain.moves(state)
            if domain.format(nxt) == after and domain.move_info(move) == move_dict
        ]
        assert matches, f"{move_dict} from {domain.format(state)} is not a legal move to {after}"
        state = matches[0]
    assert domain.is_goal(state)
    return domain, domain.parse(board)


class LiveClient:
    """A python-socketio client over websocket that queues every event it receives."""

    def __init__(self, url, headers=None):
        self.events = queue.Queue()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("*", lambda event, data=None: self.events.put((event, data)))
        self.sio.connect(url, headers=headers or {}, transports=["websocket"], wait_timeout=5)
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
