"""A gate for requests that each cost the event loop milliseconds: a few at a time.

A leaderboard read works on the web process's one event loop for several
milliseconds (the cookie's player, the board's kept scores, the streak, the JSON).
Sixteen players reading at once each had that work queued on the loop, so
``/healthz`` and every other request waited for a round of sixteen: 200 ms and
more at 50,000 players. Behind the gate at most ``slots`` such requests run; the
others wait without costing the loop anything, so any other request waits for at
most ``slots`` of them. Throughput is the same (the loop is one core either way).
A request that waited ``seconds`` without a turn gets 503 "busy", so a flood of
reads cannot queue without end.
"""

from __future__ import annotations

import threading

from flask import Flask

#: what a read that never got its turn is told
BUSY = "the leaderboards are busy; try again in a moment"
#: seconds a gated request waits for its turn before that answer
READ_WAIT = 10.0


class Gate:
    """WSGI middleware: requests whose path starts with one of ``prefixes`` run at most
    ``slots`` at a time (0: no gate). Under gevent the semaphore is gevent's (the
    server patches ``threading`` before the app is made), so waiting is cooperative."""

    def __init__(self, app: Flask, wsgi, prefixes: tuple[str, ...], slots: int, seconds: float):
        self.app, self.wsgi, self.prefixes, self.seconds = app, wsgi, prefixes, seconds
        self.turns = threading.BoundedSemaphore(slots) if slots > 0 else None

    def __call__(self, environ, start_response):
        if self.turns is None or not environ.get("PATH_INFO", "").startswith(self.prefixes):
            return self.wsgi(environ, start_response)
        if not self.turns.acquire(timeout=self.seconds):
            return self._busy(environ, start_response)
        try:
            # the whole body inside the turn: a Flask view's JSON is made by now anyway
            body = self.wsgi(environ, start_response)
            try:
                return list(body)
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
        finally:
            self.turns.release()

    def _busy(self, environ, start_response):
        from ..edge import error_response  # the app's own error page (JSON for the API)

        response = error_response(self.app, environ, 503, BUSY, {"Retry-After": "2"})
        return response(environ, start_response)
