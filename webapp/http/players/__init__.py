"""The players' JSON API under ``/api``, one file per resource over the domain
(:mod:`webapp.players`, which holds no Flask):

- :mod:`.me`: who I am and my name (``/api/player``, restore, progress);
- :mod:`.results`: results and boards (``/api/results``, the daily, leaderboards,
  the levels' figures, what players chose);
- :mod:`.ladder`: the ladder's next puzzle; :mod:`.runs`: streak and storm;
- :mod:`.profile`: the player's page (rating history, strengths, a new code);
- :mod:`.sessions`: the player's sessions.

Their shared hooks (:mod:`.context`: the cookie read once, the write guard, the cookie
set after, refusals as ``{"error"}``) sit on the :data:`players` blueprint, which
nests them all; the app factory registers it. :func:`init_players` makes the app's
:class:`~webapp.players.PlayersState` and its cookie-signing key.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Blueprint, Flask

from ...players import PlayersState, utc_now
from ...storage.database import data_dir
from ...storage.names import load_confusables
from ...storage.shared import shared_secret
from . import context, ladder, me, profile, results, runs, sessions

players = Blueprint("players", __name__, url_prefix="/api")
context.install(players)
for resource in (me, results, ladder, runs, profile, sessions):
    players.register_blueprint(resource.blueprint)


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
    """The app's players (``app.extensions["players"]``) and its cookie-signing key;
    with ``migrate``, the database opened and migrated now (start-up), else on first
    use. The routes are the :data:`players` blueprint's, which the factory registers."""

    def spawn(task, *args):  # a greenlet under gevent, as the app's Socket.IO runs them
        return app.extensions["socketio"].start_background_task(task, *args)

    def make_daily(game, day):  # the app's level maker, looked up when asked
        return app.extensions["levels"].daily(game, day)

    state = PlayersState(
        app.config["DATABASE_URL"],
        app.config.get("DATA_DIR"),
        spawn,
        make_daily,
        app.config.get("CLOCK") or utc_now,
    )
    app.secret_key = _secret_key(app, state)
    app.extensions["players"] = state
    load_confusables()
    if migrate:
        _ = state.db
    return state
