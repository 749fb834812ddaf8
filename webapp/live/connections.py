"""Whose each socket is: the player token its handshake's cookie named, per socket.

The Socket.IO ``connect`` handler records it (:mod:`webapp.live.events`) and
``disconnect`` forgets it; the record of help (:class:`webapp.players.helps.HelpLedger`)
is told whose socket asks, and races key a racer by it, so a racer who reconnects
resumes. A socket without a player (no cookie, or one that names nobody) has none.
"""

from __future__ import annotations

import threading


class Connections:
    """This web process's sockets and their players' tokens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, str] = {}  # sid -> the player token of its handshake

    def connect(self, sid: str, token: str | None) -> None:
        if token:
            with self._lock:
                self._tokens[sid] = token

    def token(self, sid: str) -> str | None:
        """The player token of ``sid``'s handshake (None: a socket without a player)."""
        with self._lock:
            return self._tokens.get(sid)

    def disconnect(self, sid: str) -> None:
        with self._lock:
            self._tokens.pop(sid, None)
