"""Socket.IO event handlers: thin, they check the payload and hand work to the job core.

Handlers never search themselves, so the server stays responsive. The handshake's
player cookie tells whose socket it is, so an ``analyse`` or ``solve`` about one of
the player's open ranked attempts is recorded as help (:mod:`webapp.players.attempts`). Every event
first passes the client's rate limit, then :mod:`webapp.live.validation`; anything
bad is answered with ``error`` {message, event, id?} and nothing else. Each
event gets a request id (``<sid prefix>/<n>``) that the log lines carry.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, request
from flask_socketio import (  # type: ignore[attr-defined]  # re-exported; not in the stubs
    ConnectionRefusedError,
    SocketIO,
)

from solver.core.text import N_

from ..guard.quiet import RefusalLog
from ..guard.ratelimit import RateLimiter
from ..jobs.core import JobCore
from ..jobs.model import ANALYSE, LAB, SOLVE, JobRequest
from ..jobs.replies import error_payload
from ..players.helps import HelpLedger
from ..players.identity import COOKIE
from ..players.sessions import cookie_owner
from ..protocol import (
    ANY_EVENT,
    CANCEL,
    CONNECT,
    DISCONNECT,
    ERROR,
    LAB_CANCEL,
    LAB_RUN,
    SOLVER_STATUS,
    UNKNOWN,
)
from ..puzzle_request import RequestRefused
from .admission import Admission
from .connections import Connections
from .validation import (
    one_payload,
    parse_cancel,
    parse_job_request,
    parse_lab_request,
    request_id,
)

log = logging.getLogger(__name__)
#: bad payloads and refused connections: a line a minute per client, with a count
payload_refusals = RefusalLog(log, level=logging.INFO)
connection_refusals = RefusalLog(log, level=logging.INFO)

RATE_MESSAGE = N_("too many requests; slow down")
NO_SUCH_EVENT = N_("there is no event named %(event)s")
#: an unknown event's name is echoed this long at most
MAX_EVENT_NAME = 40
_counter = itertools.count(1)


def _sid() -> str:
    """The client's Socket.IO session id, which Flask-SocketIO puts on the request."""
    return request.sid  # type: ignore[attr-defined]  # Flask-SocketIO sets it; the stubs lack it


#: a refused client's Engine.IO connection is closed this long after it was told why
REFUSED_CLOSE_SECONDS = 1.0


@dataclass
class Sockets:
    """What other handlers of the same sockets (the races') share with these: the rate
    limit's gate (``admitted(event, payload)``, which answers a refused one), the ``error``
    reply (``reply_error(message, event, payload)``), and who is told when a socket
    leaves (``leaving``: each called with its sid on every disconnect)."""

    admitted: Callable[[str, object], bool]
    reply_error: Callable[..., None]
    leaving: list[Callable[[str], None]] = field(default_factory=list)


@dataclass(frozen=True)
class Peer:
    """What a socket's every request needs, read once when it connects: its address (as
    the trusted proxies resolve it), its player's token, the record of help its requests
    go through, and the prefix of its log lines."""

    address: str
    token: str | None
    helps: HelpLedger
    tag: str


def register_events(
    socketio: SocketIO,
    jobs: JobCore,
    limiter: RateLimiter,
    admission: Admission,
    connections: Connections,
) -> Sockets:
    """Attach the protocol's handlers (connect, analyse, solve, cancel, the lab's run and
    cancel, disconnect) to ``socketio``; ``admission`` decides who may connect,
    ``connections`` keeps whose each socket is.

    The requests (analyse, solve, cancel and the lab's two) are python-socketio's own
    handlers, called with the socket's id, not Flask-SocketIO's: those build a Flask
    request context for every event (the URL matched again, the session cookie opened
    again), which cost as much as the rest of the framework's work per message; what a
    request needs of its connection is read once, at ``connect`` (:class:`Peer`)."""
    server = socketio.server  # type: ignore[attr-defined]  # set by init_app; not in the stubs
    peers: dict[str, Peer] = {}

    def reply_error(message: str | RequestRefused, event: str, payload: object = None) -> None:
        socketio.emit(ERROR, error_payload(message, event, request_id(payload)), to=_sid())

    def admitted(event: str, payload: object) -> bool:
        if limiter.allow(_sid()):
            return True
        reply_error(RATE_MESSAGE, event, payload)
        return False

    def tell(sid: str, message: str | RequestRefused, event: str, payload: object = None) -> None:
        socketio.emit(ERROR, error_payload(message, event, request_id(payload)), to=sid)

    def submit(
        sid: str,
        kind: str,
        args: tuple[object, ...],
        parse: Callable[[Any], JobRequest] = parse_job_request,
    ) -> None:
        payload = args[0] if args else None
        if not limiter.allow(sid):
            tell(sid, RATE_MESSAGE, kind, payload)
            return
        peer = peers.get(sid)
        if peer is None:  # left while this event waited: nobody to answer
            return
        log_id = f"{peer.tag}/{next(_counter)}"
        try:
            job = parse(one_payload(kind, args))
        except RequestRefused as err:
            payload_refusals(peer.address or sid, "%s %s refused: %s", log_id, kind, err)
            tell(sid, err, kind, payload)
            return
        log.debug("%s %s %s %r", log_id, kind, job.game, job.id)
        # help asked about a ranked attempt is on record (in memory now, in the database
        # soon after, before any result is judged): it never holds the answer back
        peer.helps.asked(peer.token, peer.address, job.game, job.options, job.board)
        jobs.submit(sid, kind, job, log_id, address=peer.address)

    def cancel(sid: str, event: str, args: tuple[object, ...]) -> None:
        payload = args[0] if args else None
        if not limiter.allow(sid):
            tell(sid, RATE_MESSAGE, event, payload)
            return
        try:
            job_id = parse_cancel(one_payload(event, args))
        except RequestRefused as err:
            tell(sid, err, event, payload)
            return
        jobs.cancel(sid, job_id)

    def request_handler(event: str, handle: Callable[[str, tuple[object, ...]], None]):
        """python-socketio's handler of ``event``: a bug answers ``error`` instead of
        dropping the request (as Flask-SocketIO's default error handler does)."""

        def handler(sid: str, *args: object) -> None:
            try:
                handle(sid, args)
            except Exception:
                log.exception("Socket.IO handler of %s failed", event)
                socketio.emit(ERROR, error_payload("internal error", event), to=sid)

        server.on(event, handler, namespace="/")

    def close_later(eio_sid: str) -> None:
        """A refused client's transport, closed once it has had time to read why (a
        well-behaved client closes it first)."""
        socketio.sleep(REFUSED_CLOSE_SECONDS)  # type: ignore[arg-type]  # any number of seconds
        server.eio.disconnect(eio_sid)

    @socketio.on(CONNECT)
    def on_connect(*_auth: object) -> None:
        sid = _sid()
        address = request.remote_addr or ""  # the address as the proxies resolve it
        refused = admission.admit(sid, address)
        if refused is None:
            log.debug("%s connected", sid[:8])  # every page opens one: not news
            # the handshake's player cookie (signed, HttpOnly): whose help this socket asks
            secret = str(current_app.secret_key)
            players = current_app.extensions["players"]
            owner = cookie_owner(players, secret, request.cookies.get(COOKIE))
            connections.connect(sid, owner)
            peers[sid] = Peer(address, connections.token(sid), players.helps, sid[:8])
            if jobs.still_warming() or jobs.building:  # the page says why answers wait
                # ignore_queue: the socket is still connecting, so the cluster's manager
                # would take it for one held elsewhere and publish it on Redis
                socketio.server.emit(  # type: ignore[attr-defined]  # not in the stubs
                    SOLVER_STATUS, jobs.status(), to=sid, ignore_queue=True
                )
            return
        connection_refusals(address or sid, "%s refused: %s", sid[:8], refused)
        eio_sid = server.manager.eio_sid_from_sid(sid, "/")
        if eio_sid is not None:
            socketio.start_background_task(close_later, eio_sid)
        raise ConnectionRefusedError(refused)

    sockets = Sockets(admitted, reply_error)

    request_handler(ANALYSE, lambda sid, args: submit(sid, ANALYSE, args))
    request_handler(SOLVE, lambda sid, args: submit(sid, SOLVE, args))
    request_handler(LAB_RUN, lambda sid, args: submit(sid, LAB, args, parse_lab_request))
    request_handler(CANCEL, lambda sid, args: cancel(sid, CANCEL, args))
    request_handler(LAB_CANCEL, lambda sid, args: cancel(sid, LAB_CANCEL, args))

    @socketio.on(DISCONNECT)
    def on_disconnect(*_reason: object) -> None:
        if server.manager.is_connected(_sid(), "/"):
            # an ordinary event that a client named "disconnect" (the guard refuses
            # those first): it must never reset the client's rate limit
            reply_error("disconnect is a reserved event name", DISCONNECT)
            return
        log.debug("%s disconnected", _sid()[:8])
        admission.release(_sid())
        for leave in sockets.leaving:
            leave(_sid())
        connections.disconnect(_sid())
        peers.pop(_sid(), None)
        limiter.forget(_sid())
        jobs.drop(_sid())

    @socketio.on(ANY_EVENT)
    def on_unknown(event: object, *args: object) -> None:
        """An event no handler takes (a typo, a probe): ``error``, within the rate limit."""
        payload = args[0] if args else None
        name = str(event)[:MAX_EVENT_NAME]
        if admitted(name, payload):
            reply_error(RequestRefused(NO_SUCH_EVENT, event=repr(name)), name, payload)

    @socketio.on_error_default
    def on_unexpected(err: BaseException) -> None:
        """A handler bug answers with ``error`` instead of silently dropping the request."""
        log.exception("Socket.IO handler failed")
        handled = getattr(request, "event", None)  # Flask-SocketIO's {message, args}
        event = handled.get("message", UNKNOWN) if handled else UNKNOWN
        socketio.emit(ERROR, error_payload("internal error", str(event)), to=_sid())

    return sockets
