"""The app's settings: defaults, then ``ARCADE_<KEY>`` environment variables, then arguments.

Flask's :meth:`~flask.Config.from_prefixed_env` reads the environment (each value
parsed as JSON when it can be, so ``ARCADE_SOLVE_SECONDS=20`` is a number);
:func:`normalise` then gives every setting its default's type, so
``ARCADE_PREBUILD_TABLES=no`` is False and ``ARCADE_ALLOWED_ORIGINS=https://a,https://b``
(or ``ARCADE_ALLOWED_HOSTS=arcade.example,other.example``) a list.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

DEFAULTS = {
    "ANALYSE_SECONDS": 5.0,  # time budget for one analysis (a hint, the distance bar)
    "SOLVE_SECONDS": 60.0,  # time budget for one full solve
    "ANALYSE_FAST_SECONDS": 0.5,  # the quick lane's budget: an analysis or solve that is
    # not done by then (not a lookup, not a tiny search) moves
    # to the solve pool, so quick jobs never queue behind it
    "ANALYSE_MAX_NODES": 20_000_000,  # node budget for one analysis: the time budget binds
    # first on every search but the compiled 15-puzzle
    # one, whose hardest proof (Korf #60) takes 11 M
    "SOLVE_MAX_NODES": 100_000_000,  # node budget for one solve
    "JOB_MEMORY_MB": 3072,  # address-space cap of each worker process
    "ANALYSE_WORKERS": 2,  # worker processes for analysis (lookups)
    "SOLVE_WORKERS": 2,  # worker processes for solves (niced below analysis)
    "MAX_QUEUE": 256,  # queued quick-lane jobs before "server busy, try again"
    "LONG_QUEUE": 32,  # queued long searches before "server busy, try again"
    "LONG_QUEUE_PER_CLIENT": 4,  # ... and from one client address
    "PAGE_WORKERS": 1,  # worker processes for generated levels and the editor's
    "PAGE_QUEUE": 8,  # check, and how many may wait (then 503 "busy")
    "PAGE_SECONDS": 15.0,  # time budget of one generated level or check
    "PROGRESS_INTERVAL": 0.25,  # at most ~4 progress events per second
    "RATE_LIMIT": 30.0,  # events per second per client, on average (0: off)
    "RATE_BURST": 60,  # ... and in a burst
    "MAX_MESSAGE_BYTES": 16_384,  # the transport refuses bigger Socket.IO messages
    "MAX_WAITING_BYTES": 131_072,  # received but not yet handled, per websocket: over it
    # the connection is closed
    "MAX_CONTENT_LENGTH": 65_536,  # the largest HTTP request body (Flask answers 413)
    "ALLOWED_ORIGINS": None,  # None: same origin only; or a list of origins
    "ALLOWED_HOSTS": None,  # Host names served (besides IP addresses, localhost
    # and SERVED_HOST); others get 400 (DNS rebinding)
    "SERVED_HOST": None,  # the address the server listens on (set by the server)
    "PREBUILD_TABLES": True,  # warm tables and start workers at startup (not in tests)
    "MESSAGE_QUEUE": None,  # "redis://host:port/0" to run as part of a cluster
    "SHUTDOWN_SECONDS": 5.0,  # how long a graceful shutdown waits for workers
    # players (webapp/players, webapp/storage)
    "DATABASE_URL": None,  # an SQLAlchemy URL; None: a SQLite file in DATA_DIR
    "DATA_DIR": None,  # None: the user's data directory (platformdirs)
    "WRITES_PER_ADDRESS": 1200,  # players' writes per minute from one address (0: off)
    "WRITES_PER_PLAYER": 30,  # ... and from one player
}

TRUE_WORDS = ("1", "true", "yes", "on")


def _origins(value: Any):
    """A list of origins from a list or comma-separated text; None when empty."""
    if isinstance(value, str):
        value = value.split(",")
    origins = [str(origin).strip() for origin in value or () if str(origin).strip()]
    return origins or None


def _typed(key: str, value: Any, default: Any) -> Any:
    """``value`` as the type of its default (environment text becomes a number, a flag)."""
    if isinstance(default, bool):
        return value.strip().lower() in TRUE_WORDS if isinstance(value, str) else bool(value)
    if isinstance(default, (int, float)) and value is not None:  # None: no limit
        try:
            return type(default)(float(value))
        except (TypeError, ValueError):
            raise ValueError(f"ARCADE_{key} must be a number, not {str(value)[:40]!r}") from None
    return value


def normalise(config: MutableMapping) -> None:
    """Give every known setting its default's type, in place."""
    for key, default in DEFAULTS.items():
        value = config.get(key)
        if key in ("ALLOWED_ORIGINS", "ALLOWED_HOSTS"):
            config[key] = _origins(value)
        elif key in ("MESSAGE_QUEUE", "SERVED_HOST", "DATABASE_URL", "DATA_DIR"):
            config[key] = value or None
        else:
            config[key] = _typed(key, value, default)
