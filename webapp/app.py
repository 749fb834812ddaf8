"""The Flask app factory: pages, Socket.IO events and the job runner, wired together.

Templates and static files live at the top of the repository (``templates/``,
``static/``); a wheel carries them inside the package (``webapp/templates``,
``webapp/static``, mapped in ``pyproject.toml``). :func:`asset_folder` finds
either from this file, so the app works from any working directory.

Searches run in pools of worker processes (:mod:`webapp.jobs.pool`): the quick lane
(analyses and the first, short try of every solve), the long lane (searches
that need more, fair between clients) and a small pool for the searches pages
need (generated levels, the editor's check). With
``MESSAGE_QUEUE`` set to a Redis URL the app joins a cluster instead: several web
processes share clients through Flask-SocketIO's message queue and jobs go to
RQ workers on the same Redis (:mod:`webapp.jobs.cluster`).
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_socketio import SocketIO

from .config import DEFAULTS, normalise
from .edge import install as install_edge
from .guard.frames import install as install_guard
from .guard.hosts import HostGuard
from .guard.ratelimit import RateLimiter
from .http.api import api
from .http.health import health
from .http.pages import pages
from .jobs.cluster import ClusterRunner
from .jobs.core import ANALYSE, PAGE, SOLVE, Runner
from .jobs.local import JobRunner
from .jobs.pool import WorkerPool
from .jobs.process import Limits, WorkerSettings
from .live.events import register_events
from .live.replies import error_payload
from .serve.prebuild import start_prebuild

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def asset_folder(name: str) -> Path:
    """``templates`` or ``static``: inside the installed package, else in the checkout."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def _limits(config) -> dict:
    interval = float(config["PROGRESS_INTERVAL"])
    fast = float(config["ANALYSE_FAST_SECONDS"]) or None
    return {
        ANALYSE: Limits(
            float(config["ANALYSE_SECONDS"]),
            config["ANALYSE_MAX_NODES"],
            interval,
            escalate_after=fast,
        ),
        SOLVE: Limits(
            float(config["SOLVE_SECONDS"]), config["SOLVE_MAX_NODES"], interval, escalate_after=fast
        ),
    }


def _make_runner(app: Flask, socketio: SocketIO) -> Runner:
    """The cluster's runner with ``MESSAGE_QUEUE`` set, else one over this process's pools."""
    config = app.config
    if config["MESSAGE_QUEUE"]:
        return ClusterRunner(
            socketio.emit, config["MESSAGE_QUEUE"], _limits(config), max_queue=config["MAX_QUEUE"]
        )

    def settings(nice: int, warm: bool = config["PREBUILD_TABLES"]) -> WorkerSettings:
        return WorkerSettings(memory_mb=config["JOB_MEMORY_MB"], warm_tables=warm, nice=nice)

    pools = {
        # the quick lane: solves' short tries never take its last worker from the lookups
        ANALYSE: WorkerPool(
            ANALYSE, config["ANALYSE_WORKERS"], config["MAX_QUEUE"], settings(0), reserved=1
        ),
        # the long lane: fair between clients' addresses, capped per address
        SOLVE: WorkerPool(
            SOLVE,
            config["SOLVE_WORKERS"],
            config["LONG_QUEUE"],
            settings(5),
            max_per_group=config["LONG_QUEUE_PER_CLIENT"],
        ),
        PAGE: WorkerPool(PAGE, config["PAGE_WORKERS"], config["PAGE_QUEUE"], settings(5, False)),
    }
    return JobRunner(socketio.emit, pools, _limits(config))


def create_app(testing: bool = False, **config) -> Flask:
    """Build the app; ``config`` overrides :data:`~webapp.config.DEFAULTS`, ``ARCADE_*``
    variables and Flask settings.

    The app's own :class:`SocketIO` is ``app.extensions["socketio"]``; its job
    runner (a :class:`~webapp.jobs.core.Runner`) is ``app.extensions["job_runner"]``.
    """
    app = Flask(
        __name__,
        static_folder=str(asset_folder("static")),
        static_url_path="/static",
        template_folder=str(asset_folder("templates")),
    )
    app.config.update(DEFAULTS)
    app.config.from_prefixed_env("ARCADE")
    app.config["TESTING"] = testing
    if testing:
        app.config["PREBUILD_TABLES"] = False
    app.config.update(config)
    normalise(app.config)
    app.debug = False  # never debug mode, whatever the environment

    # async_handlers=False: one client's events are handled in the order sent, so
    # "the newest request wins" means the newest the player sent
    socketio = SocketIO(
        app,
        async_mode="threading",
        async_handlers=False,
        cors_allowed_origins=app.config["ALLOWED_ORIGINS"],
        max_http_buffer_size=app.config["MAX_MESSAGE_BYTES"],
        message_queue=app.config["MESSAGE_QUEUE"],
    )
    runner = _make_runner(app, socketio)
    app.extensions["job_runner"] = runner
    limiter = RateLimiter(app.config["RATE_LIMIT"], app.config["RATE_BURST"])
    app.extensions["rate_limiter"] = limiter

    install_edge(app)
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(health)
    register_events(socketio, runner, limiter)
    install_guard(socketio, limiter.allow, error_payload, app.config["MAX_WAITING_BYTES"])
    app.wsgi_app = HostGuard(app.wsgi_app, app.config["ALLOWED_HOSTS"], app.config["SERVED_HOST"])
    if app.config["PREBUILD_TABLES"] and not app.config["MESSAGE_QUEUE"]:
        start_prebuild(then=runner.start)
    return app
