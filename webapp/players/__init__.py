"""Players: who plays (no passwords), their verified results, the daily and leaderboards.

:func:`init_players` wires it into the app: the database (migrated at start-up,
or on first use when ``MIGRATE_AT_START`` is off), the write limits, the clock and the daily's
generator, kept in ``app.extensions["players"]``, and the API blueprint.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

from flask import Flask

from ..storage import Database
from ..storage.database import data_dir
from ..storage.names import load_confusables
from ..storage.shared import shared_secret, stored_daily
from . import (  # noqa: F401 - each registers its routes on the blueprint
    profile_routes,
    run_routes,
    session_routes,
)
from .api import players
from .helps import HelpLedger
from .leaderboards import BoardViews
from .limits import WriteLimits


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class PlayersState:
    """What the players' endpoints share: the database (opened and migrated on first
    use), the write limits, the clock (``now()``, naive UTC) and the daily maker."""

    def __init__(self, app: Flask, clock: Callable[[], dt.datetime] = utc_now):
        self.app = app
        self.now = clock
        self.limits = WriteLimits()
        #: each leaderboard's shared part, kept a second (a crowd reading it costs one read)
        self.boards = BoardViews()
        #: help asked by the players' sockets, recorded on their ranked attempts
        self.helps = HelpLedger(lambda: self.db, self._spawn, clock)
        self._db: Database | None = None
        self._lock = threading.Lock()

    @property
    def db(self) -> Database:
        if self._db is None:
            with self._lock:
                if self._db is None:
                    config = self.app.config
                    db = Database(config["DATABASE_URL"], config.get("DATA_DIR"))
                    db.upgrade()
                    self._db = db
        return self._db

    def _spawn(self, task: Callable[..., object], *args: object) -> object:
        """A background task (a greenlet under gevent), as the app's Socket.IO runs them."""
        return self.app.extensions["socketio"].start_background_task(task, *args)

    def daily(self, game: str, day: dt.date) -> dict:
        """``game``'s daily level on ``day``: stored in the database once the app's
        level maker made it (:func:`~webapp.storage.shared.stored_daily`)."""
        return stored_daily(self.db, game, day, self.app.extensions["levels"].daily)


def _secret_key(app: Flask, state: PlayersState) -> str:
    """The cookie-signing secret, the same in every web process: ``ARCADE_SECRET_KEY``,
    else the one kept in the database (:func:`~webapp.storage.shared.shared_secret`).
    An app that opens its database only on first use (``MIGRATE_AT_START`` off: the
    tests) keeps one in its data folder instead."""
    if app.config.get("SECRET_KEY"):
        return app.config["SECRET_KEY"]
    if app.config.get("MIGRATE_AT_START"):
        return shared_secret(state.db)
    path = Path(app.config.get("DATA_DIR") or data_dir()) / "secret-key"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        # written aside, then linked into place: two processes starting at once never
        # read a half-written key, and the first one's key wins
        draft = path.with_name(f"secret-key.{os.getpid()}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def init_players(app: Flask, migrate: bool = True) -> PlayersState:
    """Register the players' API on ``app``; with ``migrate``, open and migrate the
    database now (start-up), else on first use."""
    state = PlayersState(app, app.config.get("CLOCK") or utc_now)
    app.secret_key = _secret_key(app, state)
    app.extensions["players"] = state
    app.register_blueprint(players)
    load_confusables()
    if migrate:
        _ = state.db
    return state
