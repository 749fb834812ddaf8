"""The app as the tests make it: the test settings live here, not in the app.

Flask's tutorial keeps its test configuration in the tests; so do we. A test app
has Flask's ``TESTING`` flag, starts no table prebuild, migrates its database on
first use, ranks a result however fast it came (the human floor is a test's own
setting), and keeps its players in its own throwaway SQLite file unless the test
names a ``DATABASE_URL``.
"""

from __future__ import annotations

import tempfile
import threading
from contextlib import contextmanager

from werkzeug.serving import make_server

from webapp import create_app

TEST_SETTINGS = {
    "TESTING": True,
    "PREBUILD_TABLES": False,
    "MIGRATE_AT_START": False,
    # the tests' clocks stand still (players) or play at a machine's speed (browsers):
    # the human floor is off unless a test of it turns it on (tests/test_ranked.py)
    "MIN_SECONDS_PER_MOVE": 0,
}


def make_app(**config):
    """:func:`webapp.create_app` with :data:`TEST_SETTINGS` under ``config``."""
    settings = {**TEST_SETTINGS, **config}
    if not settings.get("DATABASE_URL"):
        folder = tempfile.mkdtemp(prefix="arcade-test-db-")
        settings["DATABASE_URL"] = f"sqlite:///{folder}/arcade.sqlite3"
    return create_app(**settings)


@contextmanager
def serving(app):
    """``app`` on a free loopback port (websockets work) for the block; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
