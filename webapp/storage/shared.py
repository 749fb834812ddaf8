"""What every web process must agree on, kept in the database rather than in files.

Web processes on separate hosts share nothing but the database and Redis: a
secret made in each one's data folder would sign cookies the others refuse, and
a daily each one makes again after a restart costs a player's request the
generator's seconds (a restart's result posts got 503 "busy generating" for
about 2 s). So:

* :func:`shared_secret`: the cookie-signing secret, made once by whichever
  process comes first, read by every other (``ARCADE_SECRET_KEY`` overrides it);
* :func:`stored_daily`: a day's daily as its generator made it, stored once
  made; later requests, in any process and after any restart, read it.

Two processes racing to make either both try to insert; the loser's insert fails
on the primary key and it reads the winner's.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import threading
from collections.abc import Callable

from sqlalchemy.exc import IntegrityError

from .database import Database
from .models import Daily, ServerSetting

SECRET_NAME = "cookie-secret"

dailies_made: dict[tuple[str, str, dt.date], dict] = {}  # (database url, game, day) -> made
_lock = threading.Lock()


def shared_secret(db: Database) -> str:
    """The cookie-signing secret in ``db``, made now if there is none yet."""
    for _ in range(3):
        with db.session() as session:
            row = session.get(ServerSetting, SECRET_NAME)
            if row is not None:
                return row.value
        try:
            with db.writing() as session:
                session.add(ServerSetting(name=SECRET_NAME, value=secrets.token_hex(32)))
        except IntegrityError:  # another process made it first: read theirs
            continue
    raise RuntimeError("could not make or read the cookie secret")


def stored_daily(
    db: Database, game: str, day: dt.date, make: Callable[[str, dt.date], dict]
) -> dict:
    """``game``'s daily on ``day``: from this process's memory, else the database,
    else made by ``make`` and stored for every process."""
    key = (db.url, game, day)
    with _lock:
        if key in dailies_made:
            return dailies_made[key]
    with db.session() as session:
        row = session.get(Daily, (game, day))
        made = json.loads(row.made) if row is not None else None
    if made is None:
        made = make(game, day)
        try:
            with db.writing() as session:
                session.add(Daily(game=game, day=day, made=json.dumps(made, sort_keys=True)))
        except IntegrityError:  # made by another process meanwhile: theirs is the same
            pass
    with _lock:
        if len(dailies_made) > 256:  # days long past
            dailies_made.clear()
        dailies_made[key] = made
    return made
