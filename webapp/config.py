"""Every setting of the arcade in one place: its type, default and ``ARCADE_*`` variable.

Each key ``K`` below is read from the environment variable ``ARCADE_K``; the web
app (:func:`webapp.create_app`), the server (``python -m webapp``) and the RQ
worker (:mod:`webapp.jobs.cluster_worker`) all read them through
:func:`from_environment` (or, in the app, Flask's
:meth:`~flask.Config.from_prefixed_env`, each value parsed as JSON when it can be)
and :func:`normalise`, which gives every setting its declared type: so
``ARCADE_SOLVE_SECONDS=20`` is a number, ``ARCADE_PREBUILD_TABLES=no`` is False
and ``ARCADE_ALLOWED_ORIGINS=https://a,https://b`` a list. Nobody rewrites a
setting after start-up.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

PREFIX = "ARCADE_"


@dataclass(frozen=True)
class Setting:
    """One setting: its type (``list``: comma-separated text; ``str``: None when empty),
    its default, and what it is for."""

    type: type
    default: Any
    help: str


SETTINGS: dict[str, Setting] = {
    # -- searches ------------------------------------------------------------------
    "ANALYSE_SECONDS": Setting(float, 5.0, "time budget for one analysis (a hint, the distance)"),
    "SOLVE_SECONDS": Setting(float, 60.0, "time budget for one full solve"),
    "ANALYSE_FAST_SECONDS": Setting(
        float,
        0.5,
        "the quick lane's budget for a try: an analysis or solve not done by then moves "
        "to the long lane, so quick jobs never queue behind it (0: no tries)",
    ),
    "ANALYSE_MAX_NODES": Setting(
        int,
        20_000_000,
        "node budget for one analysis: the time budget binds first on every search but "
        "the compiled 15-puzzle one, whose hardest proof (Korf #60) takes 11 M",
    ),
    "SOLVE_MAX_NODES": Setting(int, 100_000_000, "node budget for one solve"),
    "PROGRESS_INTERVAL": Setting(float, 0.25, "at most ~4 progress events per second"),
    "JOB_MEMORY_MB": Setting(int, 3072, "address-space cap of each solver process / RQ worker"),
    # -- lanes -----------------------------------------------------------------------
    "QUICK_WORKERS": Setting(int, 2, "solver processes of the quick lane (lookups, tries)"),
    "LONG_WORKERS": Setting(int, 2, "solver processes of the long lane (niced), one server"),
    "QUICK_QUEUE": Setting(int, 256, "jobs waiting in the quick lane before 'server busy'"),
    "RECENT_ANALYSES_MB": Setting(
        float,
        16.0,
        "memory for the exact analyses each web process keeps and answers again without a "
        "solver process (a daily's positions; 0: none kept)",
    ),
    "LONG_QUEUE": Setting(int, 32, "jobs waiting in the long lane before 'server busy'"),
    "LONG_QUEUE_PER_CLIENT": Setting(
        int, 4, "... and from one client address (its players share them fairly)"
    ),
    "PAGE_WORKERS": Setting(int, 1, "solver processes for generated levels and checks"),
    "PAGE_QUEUE": Setting(int, 8, "page tasks that may wait (then 503 'busy')"),
    "PAGE_SECONDS": Setting(float, 15.0, "time budget of one generated level"),
    "CHECK_SECONDS": Setting(float, 3.0, "time budget of the editor's solvability check"),
    "GRAPH_SECONDS": Setting(float, 10.0, "time budget of a state space's graph (/api/graph)"),
    "VISITS_SECONDS": Setting(
        float,
        30.0,
        "time budget of one search's visiting order over a state space (/api/visits), "
        "run in the long lane",
    ),
    "REPLAY_WORKERS": Setting(int, 1, "solver processes replaying submitted lines"),
    "REPLAY_QUEUE": Setting(int, 512, "replays that may wait (then 503 'busy')"),
    "REPLAY_QUEUE_PER_CLIENT": Setting(
        int,
        256,
        "... and from one client address (a class or an office submitting at once; "
        "its players share its turns fairly)",
    ),
    "REPLAY_SECONDS": Setting(
        float, 10.0, "time budget of one submitted line's replay (then 503, nothing stored)"
    ),
    "READS_AT_ONCE": Setting(
        int, 2, "leaderboard reads worked on at once; the others wait their turn (0: all)"
    ),
    "PREBUILD_TABLES": Setting(bool, True, "warm tables and start processes at start-up"),
    # -- the edge --------------------------------------------------------------------
    "RATE_LIMIT": Setting(float, 30.0, "events per second per client, on average (0: off)"),
    "RATE_BURST": Setting(int, 60, "... and in a burst"),
    "MAX_MESSAGE_BYTES": Setting(int, 16_384, "the transport refuses bigger Socket.IO messages"),
    "MAX_WAITING_BYTES": Setting(
        int, 131_072, "received but not yet handled, per websocket: over it the socket closes"
    ),
    "MAX_CONTENT_LENGTH": Setting(int, 65_536, "the largest HTTP request body (413 over it)"),
    "ALLOWED_ORIGINS": Setting(list, None, "None: same origin only; or a list of origins"),
    "ALLOWED_HOSTS": Setting(
        list,
        None,
        "Host names served (besides IP addresses, localhost and SERVED_HOST); others get "
        "400 (DNS rebinding)",
    ),
    "TRUSTED_PROXIES": Setting(
        int,
        0,
        "reverse proxies in front of the app whose X-Forwarded-For/-Proto to trust "
        "(0: none; the client address is the connection's)",
    ),
    "PROXY_ADDRESSES": Setting(
        list,
        ["127.0.0.1"],
        "the proxies' own addresses or networks (CIDR): forwarded headers are read only on "
        "connections from these, and only a forwarded value that is an IP address",
    ),
    # -- serving ---------------------------------------------------------------------
    "MAX_CLIENTS": Setting(
        int,
        5000,
        "players one process holds (about 70 KB each, no thread); the next is refused at "
        "once (lowered to what the open-file limit allows)",
    ),
    "MAX_CLIENTS_PER_ADDRESS": Setting(
        int, 100, "... and from one client address (as resolved through TRUSTED_PROXIES)"
    ),
    "REQUEST_SECONDS": Setting(
        float, 10.0, "seconds a client may take to send a request's headers"
    ),
    "LOG_LEVEL": Setting(str, "INFO", "DEBUG, INFO, WARNING, ..."),
    "SERVED_HOST": Setting(str, None, "the address the server listens on (set by the server)"),
    "SHUTDOWN_SECONDS": Setting(float, 5.0, "how long a graceful shutdown waits for workers"),
    "MESSAGE_QUEUE": Setting(str, None, '"redis://host:port/0" to run as part of a cluster'),
    # -- players (webapp/players, webapp/storage) ----------------------------------
    "DATABASE_URL": Setting(str, None, "an SQLAlchemy URL; None: a SQLite file in DATA_DIR"),
    "MIGRATE_AT_START": Setting(
        bool, True, "apply the database's migrations at start-up (False: on first use)"
    ),
    "DATA_DIR": Setting(
        str,
        None,
        "the SQLite file's folder, and a test app's cookie key (None: platformdirs); each "
        "web process of a cluster has its own",
    ),
    "SECRET_KEY": Setting(
        str,
        None,
        "the cookie-signing secret, the same for every web process (None: made once and "
        "kept in the database)",
    ),
    "WRITES_PER_ADDRESS": Setting(int, 1200, "players' writes a minute from one address (0: off)"),
    "WRITES_PER_PLAYER": Setting(int, 30, "... and from one player (0: off)"),
    "RUN_MOVES_PER_PLAYER": Setting(
        int, 300, "streak and storm moves a minute from one player, instead (0: off)"
    ),
    "NEW_PLAYERS_PER_ADDRESS": Setting(
        int,
        20,
        "new players one address may make an hour, counted in the database across web "
        "processes (then 429; 0: off)",
    ),
    "MIN_SECONDS_PER_MOVE": Setting(
        float,
        0.1,
        "a ranked result faster than this many seconds a move, by the server's clock, is "
        "stored but not ranked (a human floor; 0: off)",
    ),
    "ABANDONS_PER_HOUR": Setting(
        int, 20, "ladder puzzles a player may abandon (ask the next while one is open) an hour"
    ),
    "RACE_COUNTDOWN_SECONDS": Setting(float, 10.0, "a race's countdown before it starts"),
    "RACE_SECONDS": Setting(float, 90.0, "how long a race lasts"),
    "RACE_PUZZLES": Setting(int, 6, "puzzles made for each race (every racer gets the same)"),
    "RACES_PER_ADDRESS": Setting(
        int, 3, "races one address may have opened and waiting or running at once (then 429)"
    ),
}

DEFAULTS = {key: setting.default for key, setting in SETTINGS.items()}

#: old names still read, with a warning: old name -> the setting's name now
ALIASES = {
    "ANALYSE_WORKERS": "QUICK_WORKERS",
    "SOLVE_WORKERS": "LONG_WORKERS",
    "MAX_QUEUE": "QUICK_QUEUE",
}

TRUE_WORDS = ("1", "true", "yes", "on")


def typed(key: str, value: Any) -> Any:
    """``value`` (environment text, JSON, a Python value) as setting ``key``'s type."""
    setting = SETTINGS[key]
    if setting.type is list:
        if isinstance(value, str):
            value = value.split(",")
        items = [str(item).strip() for item in value or () if str(item).strip()]
        return items or None
    if setting.type is str:
        return str(value) if value not in (None, "") else setting.default
    if setting.type is bool:
        return value.strip().lower() in TRUE_WORDS if isinstance(value, str) else bool(value)
    if value is None:  # a number set to None: no limit
        return None
    try:
        return setting.type(float(value))
    except (TypeError, ValueError):
        raise ValueError(f"{PREFIX}{key} must be a number, not {str(value)[:40]!r}") from None


def _renamed(config: MutableMapping) -> None:
    """Move a value set under an old name (:data:`ALIASES`) to the new one, with a
    warning; a value set under the new name wins."""
    for old, new in ALIASES.items():
        if old not in config:
            continue
        value = config.pop(old)
        warnings.warn(
            f"{PREFIX}{old} is now {PREFIX}{new}; the old name will stop working",
            FutureWarning,
            stacklevel=3,
        )
        if config.get(new, DEFAULTS[new]) == DEFAULTS[new]:
            config[new] = value


def normalise(config: MutableMapping) -> None:
    """Give every setting its declared type, in place (missing ones their default);
    a setting given under its old name (:data:`ALIASES`) moves to its new one."""
    _renamed(config)
    for key, setting in SETTINGS.items():
        config[key] = typed(key, config.get(key, setting.default))


def from_environment(environ: Mapping[str, str] | None = None) -> dict:
    """Every setting, from ``ARCADE_*`` variables over the defaults (for the processes
    that have no Flask app: the server's command line, the RQ worker)."""
    environ = os.environ if environ is None else environ
    config = dict(DEFAULTS)
    config.update(
        {
            key: environ[PREFIX + key]
            for key in [*SETTINGS, *ALIASES]
            if environ.get(PREFIX + key, "") != ""
        }
    )
    normalise(config)
    return config
