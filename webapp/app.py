"""The Flask app factory: pages, Socket.IO events and the job runner, wired together.

Templates and static files live at the top of the repository (``templates/``,
``static/``); their paths are resolved from this file, so the app works from any
working directory.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_socketio import SocketIO

from .events import register_events
from .games import load_levels
from .jobs import JobRunner
from .prebuild import start_prebuild
from .routes import register_routes

ROOT = Path(__file__).resolve().parent.parent

DEFAULTS = {
    "ANALYSE_SECONDS": 5.0,         # budget for one analysis (a hint, the distance bar)
    "SOLVE_SECONDS": 60.0,          # budget for one full solve
    "PROGRESS_INTERVAL": 0.25,      # at most ~4 progress events per second
    "PREBUILD_TABLES": True,        # warm Klotski tables at startup (never when testing)
}


def create_app(testing: bool = False, **config) -> Flask:
    """Build the app; ``config`` overrides :data:`DEFAULTS` and Flask settings.

    The app's own :class:`SocketIO` is ``app.extensions["socketio"]`` (and
    ``webapp.socketio`` points at the most recently created one).
    """
    app = Flask(__name__, static_folder=str(ROOT / "static"), static_url_path="/static",
                template_folder=str(ROOT / "templates"))
    app.config.update(DEFAULTS)
    app.config["TESTING"] = testing
    if testing:
        app.config["PREBUILD_TABLES"] = False
    app.config.update(config)

    socketio = SocketIO(app, async_mode="threading")
    runner = JobRunner(socketio.emit, socketio.start_background_task,
                       analyse_seconds=float(app.config["ANALYSE_SECONDS"]),
                       solve_seconds=float(app.config["SOLVE_SECONDS"]),
                       progress_interval=float(app.config["PROGRESS_INTERVAL"]))
    app.extensions["job_runner"] = runner

    levels = load_levels()
    register_routes(app, levels)
    register_events(socketio, runner)
    if app.config["PREBUILD_TABLES"]:
        start_prebuild([level["board"] for level in levels])

    import webapp
    webapp.socketio = socketio
    return app
