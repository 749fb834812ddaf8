"""The Flask app factory: pages, Socket.IO events and the job core, wired together.

Templates and static files live at the top of the repository (``templates/``,
``static/``); a wheel carries them inside the package (``webapp/templates``,
``webapp/static``, mapped in ``pyproject.toml``). :func:`asset_folder` finds
either from this file, so the app works from any working directory.

Searches run off the request thread, under the job core (:mod:`webapp.jobs.core`)
and its four lanes: the quick lane (this machine's analysis processes: lookups
and every first, short try), the long lane (searches that need more, fair between
addresses and their players), the page lane (generated levels, the editor's
check) and the replay lane (submitted lines, checked move by move). On one server every lane is a pool of this machine's processes
(:mod:`webapp.jobs.pool`). With ``MESSAGE_QUEUE`` set to a Redis URL the app joins a
cluster: web processes share clients through Flask-SocketIO's message queue and
the long lane's searches go to RQ workers on the same Redis
(:mod:`webapp.jobs.cluster`); quick answers stay in the web process.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_socketio import SocketIO
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from .concurrency import async_mode
from .config import DEFAULTS, normalise
from .edge import SecurityHeaders
from .edge import install as install_edge
from .guard import gates
from .guard.frames import install as install_guard
from .guard.hosts import HostGuard
from .guard.proxy import trust_proxies
from .guard.ratelimit import RateLimiter
from .http.boards import boards
from .http.health import health
from .http.lab import lab
from .http.offline import offline
from .http.pages import pages
from .http.players import init_players, players
from .i18n import install as install_languages
from .jobs.core import JobCore, Lane
from .jobs.model import ANALYSE, LAB, LONG, PAGE, QUICK, REPLAY_LANE, SOLVE, Limits, WorkerSettings
from .jobs.pool import WorkerPool
from .jobs.recent import RecentAnalyses
from .jobs.replies import error_payload
from .levels.facts import load_levels
from .levels.maker import LevelMaker
from .live.admission import Admission, affordable, guard_transports
from .live.connections import Connections
from .live.events import register_events
from .races.socket import RacerSocket
from .serve.prebuild import Prebuild
from .storage.outage import install as install_outage
from .transport import wire
from .transport.message_queue import LocalFirstManager

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


class CompiledTemplates(BytecodeCache):
    """The templates' compiled code, kept for the whole process: every app a process
    makes (the test suite and the harness make hundreds, a quarter of a second each)
    compiles a template once, not once per app. Jinja checks each entry against the
    template's source, so an edited template is compiled again."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


def asset_folder(name: str) -> Path:
    """``templates`` or ``static``: inside the installed package, else in the checkout."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def _limits(config) -> dict[str, Limits]:
    interval = float(config["PROGRESS_INTERVAL"])
    return {
        ANALYSE: Limits(config["ANALYSE_SECONDS"], config["ANALYSE_MAX_NODES"], interval),
        SOLVE: Limits(config["SOLVE_SECONDS"], config["SOLVE_MAX_NODES"], interval),
        # each of a comparison's algorithms searches under a solve's budgets
        LAB: Limits(config["SOLVE_SECONDS"], config["SOLVE_MAX_NODES"], interval),
    }


def _long_lane(config, settings) -> Lane:
    """RQ's workers in a cluster (``MESSAGE_QUEUE``), else this machine's solve processes."""
    if config["MESSAGE_QUEUE"]:
        from .jobs.cluster import ClusterLane  # needs the cluster extra

        return ClusterLane(
            LONG,
            config["MESSAGE_QUEUE"],
            config["LONG_QUEUE"],
            max_per_address=config["LONG_QUEUE_PER_CLIENT"],
        )
    return WorkerPool(
        LONG,
        config["LONG_WORKERS"],
        config["LONG_QUEUE"],
        settings(5),
        max_per_address=config["LONG_QUEUE_PER_CLIENT"],
    )


def _make_core(app: Flask, socketio: SocketIO, prebuild: Prebuild | None) -> JobCore:
    """The job core over its lanes: the quick and page lanes are this machine's
    processes in both modes, the long lane depends on the mode. With a ``prebuild``,
    the solver processes warm the first minute's tables, then the rest once built."""
    config = app.config
    built = prebuild.built if prebuild is not None else None

    def settings(
        nice: int, warm: bool = built is not None, judging: bool = False
    ) -> WorkerSettings:
        return WorkerSettings(
            memory_mb=config["JOB_MEMORY_MB"],
            warm_tables=warm,
            warm_judging=judging,
            nice=nice,
            tables_built=built if warm else None,
        )

    lanes: dict[str, Lane] = {
        # tries never take the quick lane's last process from the lookups
        QUICK: WorkerPool(
            QUICK, config["QUICK_WORKERS"], config["QUICK_QUEUE"], settings(0), reserved=1
        ),
        LONG: _long_lane(config, settings),
        PAGE: WorkerPool(PAGE, config["PAGE_WORKERS"], config["PAGE_QUEUE"], settings(5, False)),
        # submitted lines: never on the web process's loop, fair between addresses
        REPLAY_LANE: WorkerPool(
            REPLAY_LANE,
            config["REPLAY_WORKERS"],
            config["REPLAY_QUEUE"],
            # the first judged move must not wait a second for a kernel to load
            settings(5, False, judging=config["PREBUILD_TABLES"]),
            max_per_address=config["REPLAY_QUEUE_PER_CLIENT"],
        ),
    }
    recent = RecentAnalyses(int(config["RECENT_ANALYSES_MB"] * 1024 * 1024))
    return JobCore(
        socketio.emit, lanes, _limits(config), config["ANALYSE_FAST_SECONDS"], recent=recent
    )


def create_app(**config) -> Flask:
    """Build the app; ``config`` overrides :data:`~webapp.config.DEFAULTS`, ``ARCADE_*``
    variables and Flask settings.

    The app's own :class:`SocketIO` is ``app.extensions["socketio"]``; its job
    core (a :class:`~webapp.jobs.core.JobCore`) is ``app.extensions["jobs"]``.
    """
    app = Flask(
        __name__,
        static_folder=str(asset_folder("static")),
        static_url_path="/static",
        template_folder=str(asset_folder("templates")),
    )
    app.config.update(DEFAULTS)
    app.config.from_prefixed_env("ARCADE")
    app.config.update(config)
    normalise(app.config)
    app.debug = False  # never debug mode, whatever the environment

    # async_handlers=False: one client's events are handled in the order sent, so
    # "the newest request wins" means the newest the player sent; in a cluster, the
    # message queue carries only what other web processes need (LocalFirstManager)
    queue = app.config["MESSAGE_QUEUE"]
    socketio = SocketIO(
        app,
        async_mode=async_mode(),  # type: ignore[arg-type]  # "gevent" or "threading"
        async_handlers=False,
        cors_allowed_origins=app.config["ALLOWED_ORIGINS"],
        max_http_buffer_size=app.config["MAX_MESSAGE_BYTES"],
        client_manager=LocalFirstManager(queue) if queue else None,
        # orjson: the packets' JSON several times faster (the stubs lack the option)
        serializer=wire.Packet,  # type: ignore[call-arg]
    )
    load_levels()  # every game imported and indexed before the first request, not on it
    prebuild = Prebuild() if app.config["PREBUILD_TABLES"] else None
    jobs = _make_core(app, socketio, prebuild)
    app.extensions["jobs"] = jobs
    app.extensions["levels"] = LevelMaker(jobs, float(app.config["PAGE_SECONDS"]))
    limiter = RateLimiter(app.config["RATE_LIMIT"], app.config["RATE_BURST"])
    app.extensions["rate_limiter"] = limiter

    install_edge(app)
    install_languages(app)
    install_outage(app)
    # compiled now: Jinja compiles a template on its first render, which took a request
    # hundreds of milliseconds on the event loop
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)
    init_players(app, migrate=app.config["MIGRATE_AT_START"])
    app.register_blueprint(pages)
    app.register_blueprint(boards)
    app.register_blueprint(players)
    app.register_blueprint(lab)
    app.register_blueprint(health)
    app.register_blueprint(offline)
    admission = Admission(
        affordable(app.config["MAX_CLIENTS"]), app.config["MAX_CLIENTS_PER_ADDRESS"]
    )
    app.extensions["admission"] = admission
    guard_transports(socketio.server, admission)  # type: ignore[attr-defined]  # not in the stubs
    connections = Connections()
    app.extensions["connections"] = connections
    sockets = register_events(socketio, jobs, limiter, admission, connections)
    # the races' handlers share the sockets' gate and error reply, and hear who leaves
    races = RacerSocket(socketio, connections, sockets.admitted, sockets.reply_error)
    races.register()
    sockets.leaving.append(races.leave)
    install_guard(socketio, limiter.allow, error_payload, app.config["MAX_WAITING_BYTES"])
    # wrapping app.wsgi_app is Flask's documented way to add WSGI middleware (mypy sees a
    # method replaced); innermost, the leaderboards' gate keeps the loop free for others
    app.wsgi_app = gates.Gate(  # type: ignore[method-assign]
        app, app.wsgi_app, ("/api/leaderboard/",), app.config["READS_AT_ONCE"], gates.READ_WAIT
    )
    app.wsgi_app = HostGuard(  # type: ignore[method-assign]
        app.wsgi_app, app.config["ALLOWED_HOSTS"], app.config["SERVED_HOST"]
    )
    # every response gets the pages' security headers, also those Flask never sees
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    # outermost, so the host guard, the pages and Socket.IO all see the resolved address
    app.wsgi_app = trust_proxies(  # type: ignore[method-assign]
        app.wsgi_app, app.config["TRUSTED_PROXIES"], app.config["PROXY_ADDRESSES"]
    )
    if prebuild is not None:  # the first minute's tables, the solver processes, the rest
        jobs.warming = jobs.building = True
        prebuild.start(then=jobs.start, done=jobs.tables_built)
        app.extensions["prebuild"] = prebuild
    return app
