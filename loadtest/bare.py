"""``python -m loadtest.bare --port P``: the serving bench's yardstick, a bare Flask-SocketIO app.

It answers every ``analyse`` with one fixed ``analysis`` payload (an 8-puzzle
position's real answer, taken once at start, with the request's id echoed) and does
no other work: no checks, no solver, no records. It runs under the arcade's own
gunicorn gevent worker (:class:`webapp.serve.server.GeventServerWorker`, one
process), with Flask-SocketIO's defaults but for the handler mode the arcade uses
(``async_handlers=False``), so what the arcade spends above it per answer is the
arcade's own (:mod:`loadtest.serving`).
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from gevent import monkey

    monkey.patch_all()

import argparse  # noqa: E402 - after the patching, which must come first
from typing import Any  # noqa: E402

from gunicorn.app.base import BaseApplication  # noqa: E402

#: the position whose answer every ``analyse`` gets (a 20-move 8-puzzle position)
BOARD = "8 1 3 4 0 2 7 6 5"


def fixed_answer(board: str = BOARD) -> dict[str, Any]:
    """The solver's analysis of ``board`` as the arcade sends it (taken once)."""
    from solver.engine import analyse_board

    return {"id": None, "game": "npuzzle", **analyse_board("npuzzle", board)}


def make_app():
    from flask import Flask, request
    from flask_socketio import SocketIO

    app = Flask(__name__)
    socketio = SocketIO(app, async_mode="gevent", async_handlers=False)
    answer = fixed_answer()

    @app.get("/healthz")
    def healthz():
        return {"status": "ok"}

    @socketio.on("analyse")
    def on_analyse(payload=None):
        job = payload.get("id") if isinstance(payload, dict) else None
        socketio.emit("analysis", {**answer, "id": job}, to=request.sid)  # type: ignore[attr-defined]

    return app


class BareServer(BaseApplication):
    """gunicorn with the arcade's gevent worker class, one worker, serving :func:`make_app`."""

    def __init__(self, port: int):
        from gunicorn.workers.ggevent import GeventWorker

        from webapp.serve.server import GeventServerWorker

        # the arcade's worker, less its shutdown of the arcade's solver processes
        worker = type(
            "BareWorker", (GeventServerWorker,), {"handle_exit": GeventWorker.handle_exit}
        )
        self.options = {
            "bind": f"127.0.0.1:{port}",
            "workers": 1,
            "worker_class": worker,
            "worker_connections": 1000,
            "loglevel": "warning",
            "control_socket_disable": True,
        }
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            if key in self.cfg.settings:
                self.cfg.set(key, value)

    def load(self):
        return make_app()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m loadtest.bare", description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    BareServer(args.port).run()


if __name__ == "__main__":
    main()
    sys.exit(0)
