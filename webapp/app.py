"""The Flask app factory: pages, Socket.IO events and the job runner, wired together.

Templates and static files live at the top of the repository (``templates/``,
``static/``); a wheel carries them inside the package (``webapp/templates``,
``webapp/static``, mapped in ``pyproject.toml``). :func:`asset_folder` finds
either from this file, so the app works from any working directory.

Searches run in two pools of worker processes (:mod:`webapp.pool`): one for
analysis (table lookups, kept fast) and one for full solves. With
``MESSAGE_QUEUE`` set to a Redis URL the app joins a cluster instead: several web
processes share clients through Flask-SocketIO's message queue and jobs go to
RQ workers on the same Redis (:mod:`webapp.cluster`).
"""
from __future__ import annotations

import itertools
import logging
import os
from pathlib import Path

from flask import Flask, g, jsonify, request
from flask_socketio import SocketIO

from .events import register_events
from .games import load_levels
from .jobs import ANALYSE, SOLVE, JobRunner
from .pool import WorkerPool
from .prebuild import start_prebuild
from .ratelimit import RateLimiter
from .routes import register_routes
from .worker import Limits, WorkerSettings

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
log = logging.getLogger(__name__)

DEFAULTS = {
    "ANALYSE_SECONDS": 5.0,         # time budget for one analysis (a hint, the distance bar)
    "SOLVE_SECONDS": 60.0,          # time budget for one full solve
    "ANALYSE_FAST_SECONDS": 0.5,    # an analysis that is not done by then (not a lookup)
                                    # moves to the solve pool, so lookups never queue behind it
    "ANALYSE_MAX_NODES": 5_000_000,     # node budget for one analysis
    "SOLVE_MAX_NODES": 100_000_000,     # node budget for one solve
    "JOB_MEMORY_MB": 3072,          # address-space cap of each worker process
    "ANALYSE_WORKERS": 2,           # worker processes for analysis (lookups)
    "SOLVE_WORKERS": 2,             # worker processes for solves (niced below analysis)
    "MAX_QUEUE": 256,               # queued jobs per pool before "server busy, try again"
    "PROGRESS_INTERVAL": 0.25,      # at most ~4 progress events per second
    "RATE_LIMIT": 30.0,             # events per second per client, on average (0: off)
    "RATE_BURST": 60,               # ... and in a burst
    "MAX_MESSAGE_BYTES": 16_384,    # the transport refuses bigger Socket.IO messages
    "ALLOWED_ORIGINS": None,        # None: same origin only; or a list of origins
    "PREBUILD_TABLES": True,        # warm tables and start workers at startup (not in tests)
    "MESSAGE_QUEUE": None,          # "redis://host:port/0" to run as part of a cluster
    "SHUTDOWN_SECONDS": 5.0,        # how long a graceful shutdown waits for workers
}

_request_ids = itertools.count(1)


def asset_folder(name: str) -> Path:
    """``templates`` or ``static``: inside the installed package, else in the checkout."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def _env_overrides() -> dict:
    """``ARCADE_<KEY>`` environment variables override the defaults (deployment config)."""
    found = {}
    for key, default in DEFAULTS.items():
        text = os.environ.get(f"ARCADE_{key}")
        if text is None:
            continue
        if key == "ALLOWED_ORIGINS":
            found[key] = [o.strip() for o in text.split(",") if o.strip()] or None
        elif isinstance(default, bool):
            found[key] = text.lower() in ("1", "true", "yes", "on")
        elif isinstance(default, (int, float)):
            found[key] = type(default)(float(text))
        else:
            found[key] = text or None
    return found


def _limits(config) -> dict:
    interval = float(config["PROGRESS_INTERVAL"])
    fast = float(config["ANALYSE_FAST_SECONDS"]) or None
    return {ANALYSE: Limits(float(config["ANALYSE_SECONDS"]), config["ANALYSE_MAX_NODES"], interval,
                            escalate_after=fast),
            SOLVE: Limits(float(config["SOLVE_SECONDS"]), config["SOLVE_MAX_NODES"], interval)}


def _make_runner(app: Flask, socketio: SocketIO, boards: list) -> JobRunner:
    config = app.config
    if config["MESSAGE_QUEUE"]:
        from .cluster import ClusterRunner
        return ClusterRunner(socketio.emit, config["MESSAGE_QUEUE"], _limits(config),
                             max_queue=int(config["MAX_QUEUE"]))
    warm = bool(config["PREBUILD_TABLES"])
    pools = {}
    for kind, size_key, nice in ((ANALYSE, "ANALYSE_WORKERS", 0), (SOLVE, "SOLVE_WORKERS", 5)):
        settings = WorkerSettings(memory_mb=config["JOB_MEMORY_MB"], warm_tables=warm,
                                  klotski_boards=tuple(boards), nice=nice)
        pools[kind] = WorkerPool(kind, config[size_key], config["MAX_QUEUE"], settings)
    return JobRunner(socketio.emit, pools, _limits(config))


def create_app(testing: bool = False, **config) -> Flask:
    """Build the app; ``config`` overrides :data:`DEFAULTS`, ``ARCADE_*`` variables
    and Flask settings.

    The app's own :class:`SocketIO` is ``app.extensions["socketio"]`` (and
    ``webapp.socketio`` points at the most recently created one); its job runner
    is ``app.extensions["job_runner"]``.
    """
    app = Flask(__name__, static_folder=str(asset_folder("static")), static_url_path="/static",
                template_folder=str(asset_folder("templates")))
    app.config.update(DEFAULTS)
    app.config.update(_env_overrides())
    app.config["TESTING"] = testing
    app.debug = False                           # never debug mode, whatever the environment
    if testing:
        app.config["PREBUILD_TABLES"] = False
    app.config.update(config)

    origins = app.config["ALLOWED_ORIGINS"]
    # async_handlers=False: one client's events are handled in the order sent, so
    # "the newest request wins" means the newest the player sent
    socketio = SocketIO(app, async_mode="threading", async_handlers=False,
                        cors_allowed_origins=origins if origins else None,
                        max_http_buffer_size=int(app.config["MAX_MESSAGE_BYTES"]),
                        message_queue=app.config["MESSAGE_QUEUE"])
    levels = load_levels()
    boards = [level["board"] for level in levels]
    runner = _make_runner(app, socketio, boards)
    app.extensions["job_runner"] = runner
    limiter = RateLimiter(app.config["RATE_LIMIT"], app.config["RATE_BURST"])
    app.extensions["rate_limiter"] = limiter

    register_routes(app, levels)
    register_events(socketio, runner, limiter)
    _register_health(app, runner)
    if app.config["PREBUILD_TABLES"] and not app.config["MESSAGE_QUEUE"]:
        start_prebuild(boards, then=runner.start)

    import webapp
    webapp.socketio = socketio
    return app


def _register_health(app: Flask, runner) -> None:
    """Request ids on every HTTP response and log line, and ``/readyz`` with pool figures.

    ``/healthz`` (routes) says the process answers; ``/readyz`` says whether it can
    take jobs: 200 with the pools' figures, 503 while shutting down.
    """
    @app.before_request
    def tag_request():
        g.request_id = request.headers.get("X-Request-Id", "")[:64] or f"h{next(_request_ids)}"

    @app.after_request
    def echo_request_id(response):
        response.headers["X-Request-Id"] = getattr(g, "request_id", "")
        return response

    @app.get("/readyz", endpoint="readyz")
    def readyz():
        health = runner.health()
        ready = not runner.closing
        return jsonify(status="ok" if ready else "shutting down", **health), 200 if ready else 503
