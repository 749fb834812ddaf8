"""``python -m webapp [--host H] [--port P] [--dev]``: serve the arcade.

``python -m webapp db upgrade|revision|backup FILE|restore FILE``: the database
(:mod:`webapp.storage.operations`).

Served by gunicorn's gevent worker (:mod:`webapp.serve.server`): one worker process
holding up to ``ARCADE_MAX_CLIENTS`` players without a thread each. The
standard library is patched for gevent here, first, before anything else is
imported (``webapp/__init__`` imports nothing either), and only when this
module runs as the program: the solver's worker processes import it again
under another name and stay unpatched. ``--dev`` runs the reloading Werkzeug
development server instead (threads, no patching), for people changing the code.

SIGTERM or Ctrl-C shut down gracefully: new jobs are refused, clients with a job
queued or running are told ``error`` ("server is shutting down"), the solver
workers stop, then the process exits.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and "--dev" not in sys.argv[1:] and sys.argv[1:2] != ["db"]:
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402 - after the patching, which must come first
import logging  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402

from .config import from_environment  # noqa: E402

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

    claim_data_folder(from_environment()["DATA_DIR"])
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


def claim_data_folder(folder: str | None) -> None:
    """Warn when another server already uses this data folder (its players, its results)."""
    from .serve.folder import claim
    from .storage.database import data_dir

    warning = claim(data_dir(folder))
    if warning:
        log.warning(warning)


def _never_served(environ, start_response):  # pragma: no cover - the watcher's placeholder
    raise RuntimeError("the reloader's watcher does not serve")


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["db"]:  # the operators' database commands
        from .storage.operations import main as db_main

        sys.exit(db_main(argv[1:]))
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
        "--dev", action="store_true", help="the reloading development server instead of gunicorn"
    )
    args = parser.parse_args(argv)
    level = config["LOG_LEVEL"].upper()
    logging.basicConfig(level=level, format="%(asctime)s %(process)d %(name)s %(message)s")
    logging.getLogger("werkzeug").setLevel(level)  # request lines only at INFO
    print(f"Puzzle arcade on http://{args.host}:{args.port}/", flush=True)
    if args.dev:
        serve_dev(args.host, args.port)  # its server process claims the folder, not the watcher
        return
    claim_data_folder(config["DATA_DIR"])
    from .live.admission import affordable
    from .serve.server import SPARE_CONNECTIONS, ArcadeServer

    ArcadeServer(
        args.host,
        args.port,
        connections=affordable(config["MAX_CLIENTS"]) + SPARE_CONNECTIONS,
        log_level=level,
        request_seconds=config["REQUEST_SECONDS"],
    ).run()


if __name__ == "__main__":
    main()
