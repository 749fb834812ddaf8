"""Admission: how many players one web process holds, in all and from one address.

Every connected Socket.IO client holds a little memory and an open file, and a
server that accepts more than it can hold hangs for everyone. So a process
holds at most ``MAX_CLIENTS`` players and at most ``MAX_CLIENTS_PER_ADDRESS``
from one client address (as resolved through the trusted proxies), and the
connect handler refuses the next one at once, with a reason the page shows
while it retries. Pages, ``/healthz`` and ``/readyz`` are never counted.
"""

from __future__ import annotations

import logging
import resource
import threading

from solver.core.text import N_

from ..protocol import TRANSPORT_CLOSE, TRANSPORT_OPEN

log = logging.getLogger(__name__)

#: the reasons a client is refused (its ``connect_error`` message); the page shows
#: the first part and counts down to its next try
FULL_MESSAGE = N_("The server is full")
ADDRESS_MESSAGE = N_("Too many players from your address")
#: open files kept for everything but players: the solver's pipes, logs, tables, pages
SPARE_FILES = 500


def open_file_limit() -> int:
    """Raise this process's soft limit on open files to the hard one; returns it.

    Each player holds one socket. Many systems start processes at a soft limit of
    1,024 while allowing far more; a server asked to hold thousands needs them.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # not allowed here: keep the soft limit
            pass
    return soft


def affordable(wanted: int, open_files: int | None = None) -> int:
    """``wanted`` players, or fewer when the open-file limit cannot hold them."""
    files = open_file_limit() if open_files is None else open_files
    if files == resource.RLIM_INFINITY:
        return wanted
    held = max(1, files - SPARE_FILES)
    if held < wanted:
        log.warning(
            "the open-file limit (%d) holds %d players, not MAX_CLIENTS=%d", files, held, wanted
        )
    return min(wanted, held)


#: Engine.IO connections one address may hold, per player it may hold: room for pages
#: being reloaded and for a crowd arriving at once, each of whom is then told why it
#: was refused (a refused transport closes a second later)
TRANSPORTS_PER_PLAYER = 4


class Admission:
    """Counts the players held, in all and by address; thread- and greenlet-safe."""

    def __init__(self, max_clients: int, max_per_address: int):
        self.max_clients = max(1, int(max_clients))
        self.max_per_address = max(1, int(max_per_address))
        self._lock = threading.Lock()
        self._address: dict[str, str] = {}  # sid -> its address
        self._per_address: dict[str, int] = {}
        self._transport: dict[str, str] = {}  # Engine.IO sid -> its address
        self._transports: dict[str, int] = {}
        self.refused = 0

    def admit(self, sid: str, address: str) -> str | None:
        """Hold ``sid`` from ``address``; or the reason it is refused (nothing held)."""
        with self._lock:
            if sid in self._address:
                return None
            if len(self._address) >= self.max_clients:
                reason = FULL_MESSAGE
            elif self._per_address.get(address, 0) >= self.max_per_address:
                reason = ADDRESS_MESSAGE
            else:
                self._address[sid] = address
                self._per_address[address] = self._per_address.get(address, 0) + 1
                return None
            self.refused += 1
            return reason

    def release(self, sid: str) -> None:
        """``sid`` left: its place goes to the next player."""
        with self._lock:
            address = self._address.pop(sid, None)
            if address is None:
                return
            left = self._per_address[address] - 1
            if left:
                self._per_address[address] = left
            else:
                del self._per_address[address]

    def open_transport(self, eio_sid: str, address: str) -> bool:
        """An Engine.IO connection from ``address`` before it asks to play; False when
        the address already holds :data:`TRANSPORTS_PER_PLAYER` per player it may hold,
        so a client cannot fill the server with transports that never join."""
        with self._lock:
            if self._transports.get(address, 0) >= TRANSPORTS_PER_PLAYER * self.max_per_address:
                self.refused += 1
                return False
            self._transport[eio_sid] = address
            self._transports[address] = self._transports.get(address, 0) + 1
            return True

    def close_transport(self, eio_sid: str) -> None:
        with self._lock:
            address = self._transport.pop(eio_sid, None)
            if address is None:
                return
            left = self._transports[address] - 1
            if left:
                self._transports[address] = left
            else:
                del self._transports[address]

    def held(self) -> int:
        with self._lock:
            return len(self._address)

    def health(self) -> dict:
        """The figures ``/readyz`` reports."""
        with self._lock:
            return {
                "players": len(self._address),
                "max_clients": self.max_clients,
                "max_clients_per_address": self.max_per_address,
                "addresses": len(self._per_address),
                "transports": len(self._transport),
                "refused": self.refused,
            }


def guard_transports(server, admission: Admission) -> None:
    """Count ``server``'s (python-socketio) Engine.IO connections per address in
    ``admission``: over the cap, Engine.IO refuses the connection (HTTP 401)."""
    eio = server.eio
    on_connect, on_disconnect = eio.handlers[TRANSPORT_OPEN], eio.handlers[TRANSPORT_CLOSE]

    def connect(eio_sid, environ, *args):
        if not admission.open_transport(eio_sid, environ.get("REMOTE_ADDR") or ""):
            return False
        return on_connect(eio_sid, environ, *args)

    def disconnect(eio_sid, *args):
        admission.close_transport(eio_sid)
        return on_disconnect(eio_sid, *args)

    eio.on(TRANSPORT_OPEN, connect)
    eio.on(TRANSPORT_CLOSE, disconnect)
