"""Players: who plays (no passwords), their verified results, the daily and leaderboards.

The domain only: nothing here imports Flask (``tests/test_architecture.py`` holds
it). The players' HTTP routes live in :mod:`webapp.http.players`, which makes the
one :class:`PlayersState` an app shares (``app.extensions["players"]``).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

from ..storage import Database
from ..storage.shared import stored_daily
from .challenges import DailyMaker
from .helps import HelpLedger
from .leaderboards import BoardViews
from .limits import WriteLimits


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class PlayersState:
    """What the players' endpoints share: the database (opened and migrated on first
    use), the write limits, the clock (``now()``, naive UTC) and the daily maker.

    ``spawn`` starts a background task (a greenlet under gevent, as the app's
    Socket.IO runs them); ``make_daily`` is the level maker's daily, asked once per
    game and day (:func:`~webapp.storage.shared.stored_daily` keeps what it made)."""

    def __init__(
        self,
        database_url: str,
        data_dir: str | None,
        spawn: Callable[..., object],
        make_daily: DailyMaker,
        clock: Callable[[], dt.datetime] = utc_now,
    ):
        self.now = clock
        self.limits = WriteLimits()
        #: each leaderboard's shared part, kept a second (a crowd reading it costs one read)
        self.boards = BoardViews()
        #: help asked by the players' sockets, recorded on their ranked attempts
        self.helps = HelpLedger(lambda: self.db, spawn, clock)
        self._url, self._data_dir = database_url, data_dir
        self._make_daily = make_daily
        self._db: Database | None = None
        self._lock = threading.Lock()

    @property
    def db(self) -> Database:
        if self._db is None:
            with self._lock:
                if self._db is None:
                    db = Database(self._url, self._data_dir)
                    db.upgrade()
                    self._db = db
        return self._db

    @property
    def opened(self) -> Database | None:
        """The database once something used it (None before: a health check must not
        open it)."""
        return self._db

    def daily(self, game: str, day: dt.date) -> dict:
        """``game``'s daily level on ``day``: stored in the database once the app's
        level maker made it (:func:`~webapp.storage.shared.stored_daily`)."""
        return stored_daily(self.db, game, day, self._make_daily)
