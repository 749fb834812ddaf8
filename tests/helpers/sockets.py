"""Socket.IO test helpers: an inbox over Flask-SocketIO's test client, and a solution checker.

Answers arrive from background workers, so :class:`Inbox` polls ``get_received``
until the awaited event shows up (or a timeout fails the test).
"""

import time

from solver.engine import make_domain

#: the events that answer a request
ANSWERS = ("analysis", "solution", "unsolvable", "error")


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
