"""The production server: gunicorn, the way Flask-SocketIO documents it for threading mode.

One gunicorn worker process (a Socket.IO client's session lives in one process;
more web processes need the message queue, see the ``Procfile``) with many
threads: under gunicorn's ``gthread`` worker every websocket holds a thread for
as long as it is open (simple-websocket provides the websocket transport), so
``threads`` is also the most clients one process serves. The solver's worker
processes (:mod:`webapp.jobs.pool`) are started by the app inside that gunicorn worker.

Shutdown: gunicorn's arbiter passes SIGTERM on to its worker (and Ctrl-C reaches
both); :class:`GracefulThreadWorker` then stops the app gracefully, as :func:`shutdown`
describes, while gunicorn waits for the connections to close, then both exit.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading

from gunicorn.app.base import BaseApplication
from gunicorn.http.errors import LimitRequestLine
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

from ..edge import raw_error

log = logging.getLogger("webapp")


def shutdown(app) -> int:
    """Refuse new jobs, tell every client with a queued or running job ``error``
    ("server is shutting down"), stop the solver workers, then close the
    remaining connections; returns how many clients were told."""
    socketio = app.extensions["socketio"]
    told = app.extensions["jobs"].shutdown(float(app.config["SHUTDOWN_SECONDS"]))
    socketio.sleep(0.3)  # let the last error events go out
    # every client, so their websockets end; bounded, as Engine.IO waits for each
    # socket's queue to drain and a connection gunicorn already closed never drains
    closer = threading.Thread(target=socketio.server.eio.disconnect, daemon=True)
    closer.start()
    closer.join(2.0)
    log.info("shut down; %d running or queued jobs were cancelled", told)
    return told


class _TimedSocket(socket.socket):
    """A connection whose blocking reads give up after ``seconds`` (``REQUEST_SECONDS``:
    slowloris connections must not hold the worker's threads).

    gunicorn's gthread worker reads a request with the socket blocking and no
    timeout; turning "blocking" into "blocking with a timeout" here bounds how
    long a slow client holds a thread. A websocket, once accepted, waits without
    a limit again (its pings tell a dead peer apart).
    """

    __slots__ = ()
    seconds = 10.0

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(self.seconds)
        else:
            super().setblocking(False)


class _QuietTimeouts(logging.Filter):
    """gunicorn logs a slow client's timeout with a traceback: one short line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], TimeoutError):
            record.msg, record.args = "closed a client too slow to send its request", ()
            record.exc_info = record.exc_text = None
        return True


class GracefulThreadWorker(ThreadWorker):
    """gunicorn's gthread worker, stopping the arcade gracefully on SIGTERM, SIGINT
    or SIGQUIT: gunicorn then waits for the connections :func:`shutdown` closes;
    a slow client's request times out (:class:`_TimedSocket`, its ``timed_socket``)."""

    timed_socket: type[_TimedSocket] = _TimedSocket

    def init_process(self):
        self.log.error_log.addFilter(_QuietTimeouts())
        super().init_process()

    def handle(self, conn):
        if type(conn.sock) is socket.socket:
            conn.sock.__class__ = self.timed_socket
        return super().handle(conn)

    def handle_request(self, req, conn):
        upgrade = any(
            name == "UPGRADE" and value.lower() == "websocket" for name, value in req.headers
        )
        if upgrade:
            socket.socket.setblocking(conn.sock, True)  # no timeout from now on
        return super().handle_request(req, conn)

    def handle_exit(self, sig, frame):
        if self.alive:
            self.alive = False  # the event loop stops accepting and drains
            app = getattr(self, "wsgi", None)  # None: signalled while the app was loading
            if app is not None:
                # not in the signal handler: the shutdown waits for the solver workers
                threading.Thread(target=shutdown, args=(app,), name="arcade-shutdown").start()

    def handle_error(self, req, client, addr, exc):
        """An over-long request line gets the arcade's styled 414 page, not gunicorn's text."""
        app = getattr(self, "wsgi", None)
        if isinstance(exc, LimitRequestLine) and app is not None:
            with contextlib.suppress(OSError):  # the client may be gone already
                write_nonblock(client, raw_error(app, 414))
            return
        super().handle_error(req, client, addr, exc)

    handle_quit = handle_exit  # Ctrl-C too: graceful, not gunicorn's quick exit


class ArcadeServer(BaseApplication):
    """``python -m webapp`` on gunicorn; the app is created in the worker process."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 5000,
        threads: int = 1000,
        log_level: str = "info",
        request_seconds: float = 10.0,
    ):
        # this server's own classes: the forked worker inherits them, no global changes
        timed = type("TimedSocket", (_TimedSocket,), {"__slots__": (), "seconds": request_seconds})
        worker = type("ArcadeThreadWorker", (GracefulThreadWorker,), {"timed_socket": timed})
        self.options = {
            "bind": f"{host}:{port}",
            "workers": 1,  # Socket.IO sessions live in one process
            "worker_class": worker,
            "threads": threads,
            # every open websocket holds a thread; idle keep-alive HTTP connections
            # (up to the difference) wait in gunicorn's poller without one
            "worker_connections": threads + 100,
            "graceful_timeout": 15,
            "loglevel": log_level.lower(),
            "proc_name": "puzzle-arcade",
            "control_socket_disable": True,  # gunicorn >= 25: no shared ~/.gunicorn socket
            # gunicorn's largest request line (default 4094): longer ones get the
            # styled 414 from GracefulThreadWorker.handle_error, shorter ones over
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

        return create_app(SERVED_HOST=self.options["bind"].rsplit(":", 1)[0])
