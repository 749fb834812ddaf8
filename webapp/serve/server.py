"""The production server: gunicorn's gevent worker, the way Flask-SocketIO documents it for many clients.

One gunicorn worker process (a Socket.IO client's session lives in one process;
more web processes need the message queue, see ``deploy/supervisord.conf``) running
gevent: every connection is a greenlet, so an idle websocket costs a few tens of
KB and no thread (simple-websocket provides the websocket transport, with
gevent's sockets and events). ``python -m webapp`` patches the standard library
for gevent before it imports anything else (:mod:`webapp.__main__`); the app
then runs Socket.IO in gevent mode (:func:`webapp.concurrency.async_mode`). How many players the
process holds is the app's decision (:mod:`webapp.live.admission`), not the
server's: ``worker_connections`` leaves room above it for pages and health
checks. The solver's worker processes (:mod:`webapp.jobs.pool`) are started by the
app inside the gunicorn worker.

Shutdown: gunicorn's arbiter passes SIGTERM on to its worker (and Ctrl-C reaches
both); :class:`GeventServerWorker` then stops the app gracefully, as :func:`shutdown`
describes, while gunicorn waits for the connections to close, then both exit.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import math
import threading
from typing import Any

import gevent
from gunicorn.app.base import BaseApplication
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from solver.core.text import N_

from ..edge import raw_error
from ..jobs.replies import error_payload
from ..protocol import ERROR, RESTART

log = logging.getLogger("webapp")


#: what every player of a web process that is stopping hears first
RESTARTING_MESSAGE = N_("the server is restarting; reconnecting...")


def tell_everyone(socketio, message: str = RESTARTING_MESSAGE) -> int:
    """Send ``error`` {message, event: "restart"} to every client this process holds
    (each by its own session: nothing goes through the message queue); returns how many."""
    sids = [sid for sid, _ in socketio.server.manager.get_participants("/", None)]
    for sid in sids:
        socketio.emit(ERROR, error_payload(message, RESTART), to=sid)
    return len(sids)


def shutdown(app) -> int:
    """Tell every player the server is restarting, refuse new jobs, tell every client
    with a queued or running job ``error`` ("server is shutting down"; the page asks
    again once reconnected), stop the solver workers, then close the remaining
    connections; returns how many clients with a job were told."""
    socketio = app.extensions["socketio"]
    players = tell_everyone(socketio)
    if "prebuild" in app.extensions:  # a table still building is not worth waiting for
        app.extensions["prebuild"].stop()
    told = app.extensions["jobs"].shutdown(float(app.config["SHUTDOWN_SECONDS"]))
    socketio.sleep(0.3)  # let the last error events go out
    # every client, so their websockets end; bounded, as Engine.IO waits for each
    # socket's queue to drain and a connection gunicorn already closed never drains
    closer = threading.Thread(target=socketio.server.eio.disconnect, daemon=True)
    closer.start()
    closer.join(2.0)
    log.info("shut down; %d players told, %d running or queued jobs cancelled", players, told)
    return told


#: connections the server accepts beyond the players the app holds: pages, health
#: checks, refused players being told
SPARE_CONNECTIONS = 500


class _QuietTimeouts(logging.Filter):
    """gunicorn logs a slow client's timeout with a traceback: one short line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], TimeoutError):
            record.msg, record.args = "closed a client too slow to send its request", ()
            record.exc_info = record.exc_text = None
        return True


class _Caught:
    """A client socket stand-in that keeps what gunicorn's own error page would send, so
    :meth:`GeventServerWorker.handle_error` learns its status (gunicorn decides it, and
    logs the refusal) and sends the arcade's page for it instead."""

    def __init__(self) -> None:
        self.sent = b""

    def gettimeout(self) -> float:
        return 0.0  # non-blocking already: gunicorn's writer sends at once

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def status(self) -> int | None:
        """The status gunicorn's page carries (None: it sent nothing)."""
        words = self.sent.split(b"\r\n", 1)[0].split()
        return int(words[1]) if len(words) > 1 and words[1].isdigit() else None


class GeventServerWorker(GeventWorker):
    """gunicorn's gevent worker, stopping the arcade gracefully on SIGTERM, SIGINT
    or SIGQUIT: gunicorn then waits for the connections :func:`shutdown` closes.
    A connection's reads time out after ``request_seconds`` (slowloris connections must
    not hold the worker's connections) until it becomes a websocket, which then waits
    without a limit (its pings tell a dead peer apart)."""

    request_seconds = 10.0

    def init_process(self):
        self.log.error_log.addFilter(_QuietTimeouts())
        super().init_process()

    def handle(self, listener, client, addr):
        client.settimeout(self.request_seconds)  # instead of GeventWorker's plain blocking
        AsyncWorker.handle(self, listener, client, addr)

    def handle_request(self, listener_name, req, sock, addr):
        upgrade = any(
            name == "UPGRADE" and value.lower() == "websocket" for name, value in req.headers
        )
        if upgrade:
            sock.settimeout(None)
        return super().handle_request(listener_name, req, sock, addr)

    def handle_exit(self, sig, frame):
        if self.alive:
            self.alive = False  # the run loop stops accepting and drains
            app = getattr(self, "wsgi", None)  # None: signalled while the app was loading
            if app is not None:
                # not in the signal handler (under gevent a callback of the event loop,
                # where nothing may wait): the shutdown waits for the solver workers
                gevent.spawn(shutdown, app)

    def handle_error(self, req, client, addr, exc):
        """A request gunicorn refuses before the app sees it (a request line over its
        limit: 414; headers over 8 KB: 431; a malformed line or header: 400) gets the
        arcade's styled page for gunicorn's status, with the security headers every
        other response carries, not gunicorn's bare text."""
        app = getattr(self, "wsgi", None)
        if app is None:  # still loading: gunicorn's own page is all there is
            super().handle_error(req, client, addr, exc)
            return
        caught = _Caught()
        # its status, its log line; the stand-in has what gunicorn's writer uses of a socket
        super().handle_error(req, caught, addr, exc)  # type: ignore[arg-type]
        status = caught.status()
        if status is None:
            return
        with contextlib.suppress(OSError):  # the client may be gone already
            client.sendall(raw_error(app, status))

    handle_quit = handle_exit  # Ctrl-C too: graceful, not gunicorn's quick exit


class ArcadeServer(BaseApplication):
    """``python -m webapp`` on gunicorn; the app is created in the worker process."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 5000,
        connections: int = 5000 + SPARE_CONNECTIONS,
        log_level: str = "info",
        request_seconds: float = 10.0,
    ):
        # this server's own worker class: the forked worker inherits it, no global changes
        worker = type("ServerWorker", (GeventServerWorker,), {"request_seconds": request_seconds})
        self.options: dict[str, Any] = {
            "bind": f"{host}:{port}",
            "workers": 1,  # Socket.IO sessions live in one process
            "worker_class": worker,
            "worker_connections": connections,
            "keepalive": max(1, math.ceil(request_seconds)),  # idle keep-alive, then closed
            "graceful_timeout": 15,
            "loglevel": log_level.lower(),
            "proc_name": "puzzle-arcade",
            "control_socket_disable": True,  # gunicorn >= 25: no shared ~/.gunicorn socket
            # gunicorn's largest request line (default 4094): longer ones get the
            # styled 414 from GeventServerWorker.handle_error, shorter ones over
            # webapp.edge.MAX_URL_BYTES the same page from the app
            "limit_request_line": 8190,
        }
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            if key in self.cfg.settings:  # settings an older gunicorn lacks are skipped
                self.cfg.set(key, value)

    def load(self):
        from .. import create_app
        from ..http.pages import render_lobbies

        app = create_app(SERVED_HOST=self.options["bind"].rsplit(":", 1)[0])
        render_lobbies(app)
        # what start-up made (the games, their modules, the compiled searches' wrappers,
        # templates) lives as long as the process: kept out of the collector's full
        # passes, which otherwise walk all of it on the event loop (over 0.1 s, seen)
        gc.collect()
        gc.freeze()
        return app
