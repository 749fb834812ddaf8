"""``python -m webapp [--host H] [--port P] [--threads N] [--dev]``: serve the arcade.

Served by gunicorn (:mod:`webapp.serve.server`): one worker process, ``--threads``
threads (one per open websocket). ``--dev`` runs the reloading Werkzeug
development server instead, for people changing the code.

SIGTERM or Ctrl-C shut down gracefully: new jobs are refused, clients with a job
queued or running are told ``error`` ("server is shutting down"), the solver
workers stop, then the process exits.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal

from .config import from_environment

log = logging.getLogger("webapp")


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def serve_dev(host: str, port: int) -> None:
    """The Werkzeug development server, restarting when a source file changes."""
    from werkzeug.serving import is_running_from_reloader, run_simple

    if not is_running_from_reloader():  # the watcher: it restarts, never serves
        run_simple(host, port, _never_served, use_reloader=True)
        return
    from . import create_app
    from .serve.server import shutdown

    app = create_app()
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        app.extensions["socketio"].run(
            app,
            host=host,
            port=port,
            debug=False,
            use_reloader=True,
            allow_unsafe_werkzeug=True,
            log_output=True,
        )
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        shutdown(app)


def _never_served(environ, start_response):  # pragma: no cover - the watcher's placeholder
    raise RuntimeError("the reloader's watcher does not serve")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m webapp", description=__doc__.splitlines()[0])
    try:
        config = from_environment()
    except ValueError as err:
        parser.error(str(err))
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("PORT", 5000)),
        help="port (default $PORT or 5000)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=config["THREADS"],
        help="threads, so at most this many clients at once (default $ARCADE_THREADS or 1000)",
    )
    parser.add_argument(
        "--dev", action="store_true", help="the reloading development server instead of gunicorn"
    )
    args = parser.parse_args(argv)
    level = config["LOG_LEVEL"].upper()
    logging.basicConfig(level=level, format="%(asctime)s %(process)d %(name)s %(message)s")
    logging.getLogger("werkzeug").setLevel(level)  # request lines only at INFO
    print(f"Puzzle arcade on http://{args.host}:{args.port}/", flush=True)
    if args.dev:
        serve_dev(args.host, args.port)
        return
    from .serve.server import ArcadeServer

    ArcadeServer(
        args.host,
        args.port,
        threads=args.threads,
        log_level=level,
        request_seconds=config["REQUEST_SECONDS"],
    ).run()


if __name__ == "__main__":
    main()
