"""Socket.IO event handlers: thin, they check the payload and hand work to the job core.

Handlers never search themselves, so the server stays responsive. Every event
first passes the client's rate limit, then :mod:`webapp.live.validation`; anything
bad is answered with ``error`` {message, event, id?} and nothing else. Each
event gets a request id (``<sid prefix>/<n>``) that the log lines carry.
"""

from __future__ import annotations

import itertools
import logging

from flask import request
from flask_socketio import SocketIO

from ..guard.ratelimit import RateLimiter
from ..jobs.core import JobCore
from ..jobs.model import ANALYSE, SOLVE
from .replies import error_payload
from .validation import PayloadError, one_payload, parse_cancel, parse_job_request, request_id

log = logging.getLogger(__name__)

RATE_MESSAGE = "too many requests; slow down"
_counter = itertools.count(1)


def _log_id() -> str:
    return f"{request.sid[:8]}/{next(_counter)}"


def register_events(socketio: SocketIO, runner: JobCore, limiter: RateLimiter) -> None:
    """Attach the protocol's handlers (analyse, solve, cancel, disconnect) to ``socketio``."""

    def reply_error(message: str, event: str, payload=None) -> None:
        socketio.emit("error", error_payload(message, event, request_id(payload)), to=request.sid)

    def admitted(event: str, payload) -> bool:
        if limiter.allow(request.sid):
            return True
        reply_error(RATE_MESSAGE, event, payload)
        return False

    def submit(kind: str, args: tuple) -> None:
        payload = args[0] if args else None
        if not admitted(kind, payload):
            return
        log_id = _log_id()
        try:
            job = parse_job_request(one_payload(kind, args))
        except PayloadError as err:
            log.info("%s %s refused: %s", log_id, kind, err)
            reply_error(str(err), kind, payload)
            return
        log.debug("%s %s %s %r", log_id, kind, job.game, job.id)
        # the address as resolved through the trusted proxies (webapp.guard.proxy)
        runner.submit(request.sid, kind, job, log_id, address=request.remote_addr or "")

    @socketio.on("connect")
    def on_connect(*_auth):
        log.info("%s connected", request.sid[:8])

    @socketio.on(ANALYSE)
    def on_analyse(*args):
        submit(ANALYSE, args)

    @socketio.on(SOLVE)
    def on_solve(*args):
        submit(SOLVE, args)

    @socketio.on("cancel")
    def on_cancel(*args):
        payload = args[0] if args else None
        if not admitted("cancel", payload):
            return
        try:
            job_id = parse_cancel(one_payload("cancel", args))
        except PayloadError as err:
            reply_error(str(err), "cancel", payload)
            return
        runner.cancel(request.sid, job_id)

    @socketio.on("disconnect")
    def on_disconnect(*_reason):
        if socketio.server.manager.is_connected(request.sid, "/"):
            # an ordinary event that a client named "disconnect" (the guard refuses
            # those first): it must never reset the client's rate limit
            reply_error("disconnect is a reserved event name", "disconnect")
            return
        log.info("%s disconnected", request.sid[:8])
        limiter.forget(request.sid)
        runner.drop(request.sid)

    @socketio.on_error_default
    def on_unexpected(err):
        """A handler bug answers with ``error`` instead of silently dropping the request."""
        log.exception("Socket.IO handler failed")
        event = (
            request.event.get("message", "unknown")
            if getattr(request, "event", None)
            else "unknown"
        )
        socketio.emit("error", error_payload("internal error", str(event)), to=request.sid)
