"""Guards between the transport and the Socket.IO handlers, for clients that break the protocol.

python-engineio and python-socketio trust their peer more than a public server
can: an invalid Engine.IO frame escapes their websocket loop as an exception
(the HTTP server then writes a raw 500 into the open websocket), a binary
attachment header announcing millions of attachments makes the server collect
frames until the client leaves, a truncated packet logs a full traceback, and
an ordinary event named ``disconnect`` reaches the real disconnect handler.
This module sits in front of them, without patching the libraries:

* :class:`GuardedWebSocket` replaces Engine.IO's websocket wrapper: it caps one
  message (``max_message_size``) and the bytes a connection may have waiting,
  and ends the connection cleanly on a frame that is not Engine.IO text;
* :func:`install` replaces the Socket.IO server's message dispatcher: binary
  packets (this protocol has none) close the connection, a malformed packet or
  a reserved event name is answered ``error``, and each one spends the client's
  rate-limit tokens, so a client sending only garbage is disconnected;
* :class:`BadFrameLog` writes one short line per kind of bad frame every few
  seconds, with a count of those it left out, never a traceback.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from socketio import packet as sio_packet

from ..protocol import ANY_EVENT, ERROR, RESERVED_EVENTS, TRANSPORT_PACKET, UNKNOWN

log = logging.getLogger(__name__)

#: Engine.IO packet types a client may send: open, close, ping, pong, message, upgrade, noop
ENGINEIO_TYPES = frozenset("0123456")
BINARY_TYPES = (sio_packet.BINARY_EVENT, sio_packet.BINARY_ACK)


class BadFrameLog:
    """At most one log line per kind of bad frame every ``every`` seconds."""

    def __init__(self, every: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.every = every
        self._clock = clock
        self._last: dict[str, float] = {}
        self._skipped: dict[str, int] = {}
        self._lock = threading.Lock()

    def report(self, kind: str, who: str, sample) -> bool:
        """Log ``kind`` unless it was logged recently; True when a line was written."""
        now = self._clock()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.every:
                self._skipped[kind] = self._skipped.get(kind, 0) + 1
                return False
            self._last[kind] = now
            skipped = self._skipped.pop(kind, 0)
        more = f" (+{skipped} more in the last {self.every:g} s)" if skipped else ""
        log.warning("bad frame from %s: %s: %.60r%s", who, kind, sample, more)
        return True


bad_frames = BadFrameLog()


def websocket_class(max_message: int, max_buffered: int, base: type = SimpleWebSocketWSGI):
    """Engine.IO's websocket wrapper (``base``: the threading one, or gevent's, which
    hands simple-websocket gevent's threads, events and selector) with per-connection caps."""

    class GuardedWebSocket(base):
        """One websocket; ``wait`` returns None (a clean close) instead of a bad frame."""

        def __call__(self, environ, start_response):
            self.ws = simple_websocket.Server(
                environ, max_message_size=max_message, **self.server_args
            )
            self.peer = environ.get("REMOTE_ADDR", "?")
            ret = self.app(self)
            if self.ws.mode == "gunicorn":
                raise StopIteration()
            if self.ws.mode == "werkzeug":
                raise ConnectionError()
            return ret

        def wait(self):
            data = super().wait()
            if data is None:
                return None
            waiting = sum(len(message) for message in list(self.ws.input_buffer))
            problem = _frame_problem(data)
            if problem is None and waiting > max_buffered:
                problem = f"over {max_buffered} bytes waiting"
            if problem is None:
                return data
            bad_frames.report(problem, self.peer, data)
            self.close()
            return None

    return GuardedWebSocket


def _frame_problem(data) -> str | None:
    """Why ``data`` is not an Engine.IO text frame this server accepts, or None."""
    if not isinstance(data, str):
        return "binary frame (this protocol sends none)"
    if not data or data[0] not in ENGINEIO_TYPES:
        return "not an Engine.IO packet"
    return None


def _packet_problem(server, data) -> tuple:
    """(problem, close?, the decoded packet) for a Socket.IO message: problem None when
    this server takes it."""
    if not isinstance(data, str):
        return "binary data (this protocol sends none)", True, None
    try:
        pkt = server.packet_class(encoded_packet=data)
    except Exception:  # noqa: BLE001 - any decode failure is the client's
        return "malformed packet", False, None
    if pkt.packet_type in BINARY_TYPES:
        return "binary attachments (this protocol sends none)", True, pkt
    if pkt.packet_type == sio_packet.EVENT:
        if not isinstance(pkt.data, list) or not pkt.data or not isinstance(pkt.data[0], str):
            return "malformed event", False, pkt
        if pkt.data[0] in RESERVED_EVENTS or pkt.data[0] == ANY_EVENT:
            return f"reserved event name {pkt.data[0]!r}", False, pkt
    return None, False, pkt


def install(
    socketio: Any,  # Flask-SocketIO's SocketIO: its .server is missing from the stubs
    spend: Callable[[str], bool],
    error_payload: Callable[..., Mapping[str, object]],
    max_waiting: int,
) -> None:
    """Put the checks in front of ``socketio``'s (Flask-SocketIO) message dispatcher.

    ``spend(sid)`` takes one of the client's rate-limit tokens (False when it has
    none left: the connection is then closed); a websocket with more than
    ``max_waiting`` bytes received but not yet handled is closed.
    """
    server = socketio.server
    eio = server.eio
    guarded_socket = websocket_class(eio.max_http_buffer_size, max_waiting, eio._async["websocket"])
    eio._async = {**eio._async, "websocket": guarded_socket}
    dispatch = server._handle_eio_message

    def guarded(eio_sid, data):
        problem, close, pkt = _packet_problem(server, data)
        if problem is None:
            try:
                if pkt.packet_type == sio_packet.EVENT:  # decoded once: handled as it is
                    server._handle_event(eio_sid, pkt.namespace, pkt.id, pkt.data)
                else:
                    dispatch(eio_sid, data)
            except Exception as err:  # noqa: BLE001 - a library refusal, logged short
                problem, close = f"refused by Socket.IO: {str(err)[:60]}", False
        if problem is None:
            return
        sid = server.manager.sid_from_eio_sid(eio_sid, "/")
        bad_frames.report(problem, (sid or eio_sid)[:8], data)
        if close or sid is None or not spend(sid):
            eio.disconnect(eio_sid)
            return
        server.emit(ERROR, error_payload(f"bad packet: {problem}", UNKNOWN), to=sid)

    eio.on(TRANSPORT_PACKET, guarded)
