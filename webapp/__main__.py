"""``python -m webapp [--host H] [--port P]``: serve the arcade (no terminal needed).

SIGTERM or Ctrl-C shut down gracefully: new jobs are refused, clients with a job
queued or running are told ``error`` ("server is shutting down"), the solver
workers stop, then the process exits.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal

from . import create_app

log = logging.getLogger("webapp")


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m webapp", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 5000)),
                        help="port (default $PORT or 5000)")
    args = parser.parse_args(argv)
    level = os.environ.get("ARCADE_LOG_LEVEL", "INFO").upper()
    logging.basicConfig(level=level, format="%(asctime)s %(process)d %(name)s %(message)s")
    logging.getLogger("werkzeug").setLevel(level)   # request lines only at INFO
    app = create_app()
    socketio = app.extensions["socketio"]
    runner = app.extensions["job_runner"]
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"Puzzle arcade on http://{args.host}:{args.port}/", flush=True)
    try:
        socketio.run(app, host=args.host, port=args.port, debug=False, use_reloader=False,
                     allow_unsafe_werkzeug=True, log_output=False)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        told = runner.shutdown(float(app.config["SHUTDOWN_SECONDS"]))
        socketio.sleep(0.3)                         # let the last error events go out
        log.info("shut down; %d running or queued jobs were cancelled", told)


if __name__ == "__main__":
    main()
