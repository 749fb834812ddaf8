"""Socket.IO event handlers: thin, they check the payload and hand work to the runner.

Handlers never search themselves, so the server stays responsive; every bad
payload is answered with ``error`` {message, event, id?} and nothing else.
"""
from __future__ import annotations

import logging

from flask import request
from flask_socketio import SocketIO

from .answers import error_payload
from .jobs import ANALYSE, SOLVE, JobRunner
from .validation import PayloadError, parse_cancel, parse_job_request, request_id

log = logging.getLogger(__name__)


def register_events(socketio: SocketIO, runner: JobRunner) -> None:
    """Attach the protocol's handlers (analyse, solve, cancel, disconnect) to ``socketio``."""

    def reply_error(message: str, event: str, payload=None) -> None:
        socketio.emit("error", error_payload(message, event, request_id(payload)),
                      to=request.sid)

    def submit(kind: str, payload) -> None:
        try:
            job = parse_job_request(payload)
        except PayloadError as err:
            reply_error(str(err), kind, payload)
            return
        runner.submit(request.sid, kind, job)

    @socketio.on(ANALYSE)
    def on_analyse(payload=None):
        submit(ANALYSE, payload)

    @socketio.on(SOLVE)
    def on_solve(payload=None):
        submit(SOLVE, payload)

    @socketio.on("cancel")
    def on_cancel(payload=None):
        try:
            job_id = parse_cancel(payload)
        except PayloadError as err:
            reply_error(str(err), "cancel", payload)
            return
        runner.cancel(request.sid, job_id)

    @socketio.on("disconnect")
    def on_disconnect(*_reason):
        runner.drop(request.sid)

    @socketio.on_error_default
    def on_unexpected(err):
        """A handler bug answers with ``error`` instead of silently dropping the request."""
        log.exception("Socket.IO handler failed")
        event = request.event.get("message", "unknown") if getattr(request, "event", None) else "unknown"
        socketio.emit("error", error_payload("internal error", str(event)), to=request.sid)
