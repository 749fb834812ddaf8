"""The engine and sessions for one database URL, and its migrations.

SQLite (the default) is made safe under the server's threads: WAL mode, so
readers never wait for the writer; every writing transaction starts with
``BEGIN IMMEDIATE``, so two writers never both read, then both try to upgrade
their lock (SQLite's deadlock, which no timeout cures), and a writer waits for
the other by short sleeps (a greenlet's, under gevent) instead of failing. PostgreSQL needs none of
this; start-up migrations there hold an advisory lock, so several web processes
starting at once migrate one after another.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from platformdirs import user_data_dir
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ..concurrency import async_mode

# -- timeouts (issue 31): a database that refuses, restarts or freezes ----------------
#: seconds to open a PostgreSQL connection before giving up (then a 503)
CONNECT_SECONDS = 3
#: the server stops a statement running longer than this (PostgreSQL's statement_timeout)
STATEMENT_SECONDS = 5
#: a request waits this long for a pooled connection when all are busy
POOL_SECONDS = 5
#: a frozen server answers nothing, not even its own timeout: under gevent a session
#: is abandoned after this long (DatabaseTimeout), its connection thrown away
QUERY_SECONDS = 6


def let_others_run() -> None:
    """Between two statements of one read: under gevent (``time`` is monkey-patched)
    the loop serves other requests, so a read of several short statements never holds
    the loop for more than one of them; with threads it only offers the GIL."""
    time.sleep(0)


class DatabaseTimeout(Exception):
    """A session overran :data:`QUERY_SECONDS` (the server hung): a 503 for the player."""


def _postgres_timeouts() -> dict:
    return {
        "connect_timeout": CONNECT_SECONDS,
        "options": f"-c statement_timeout={STATEMENT_SECONDS * 1000}",
    }


@contextmanager
def _bounded(seconds: float) -> Iterator[None]:
    """Under gevent (the server), raise :class:`DatabaseTimeout` in this greenlet after
    ``seconds``; elsewhere (threads, tests, the CLI) nothing."""
    if async_mode() != "gevent":
        yield
        return
    import gevent

    message = f"no answer from the database in {seconds} s"
    started = time.monotonic()
    try:
        with gevent.Timeout(seconds, DatabaseTimeout(message)):
            yield
    except DatabaseTimeout:
        raise
    except Exception as err:
        # cut off mid-command, SQLAlchemy's clean-up fails on the half-used connection
        # with some other error: it is still the timeout
        if time.monotonic() - started >= seconds:
            raise DatabaseTimeout(message) from err
        raise


@contextmanager
def _dropped_on_timeout(session: Session) -> Iterator[None]:
    """A session cut off mid-query: its connections are thrown away, not pooled (their
    half-finished command would block the next user), and nothing waits on a rollback."""
    try:
        yield
    except DatabaseTimeout:
        session.invalidate()
        raise


# -- end of timeouts ---------------------------------------------------------------------

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_MS = 30_000
#: any number, the same in every process: the key of PostgreSQL's migration lock
MIGRATION_LOCK = 220_611


def data_dir(folder: str | Path | None = None) -> Path:
    """The app's data directory: ``folder``, else ``ARCADE_DATA_DIR``, else the user's
    data directory (platformdirs)."""
    return Path(folder or os.environ.get("ARCADE_DATA_DIR") or user_data_dir("puzzle-arcade"))


def default_url(folder: str | Path | None = None) -> str:
    """A SQLite file in the data directory (created when missing)."""
    folder = data_dir(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'arcade.sqlite3'}"


def private_file(path: Path) -> None:
    """Make ``path`` (an SQLite file) readable by its owner only, before SQLite opens it:
    SQLite gives its -wal and -shm files the database file's mode, so they are too."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.close(fd)
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if each.is_file():  # never a device or a link's target elsewhere
            each.chmod(0o600)


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration in code: the shipped scripts, run on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(
        url,
        connect_args={"timeout": SQLITE_BUSY_MS / 1000, "check_same_thread": False},
        pool_size=8,
        max_overflow=32,
        pool_timeout=60,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # transactions begin in _begin below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # WAL keeps it safe against crashes
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        if connection.get_execution_options().get("writing", False):
            _begin_writing(connection.connection.dbapi_connection)
        else:
            connection.exec_driver_sql("BEGIN")

    return engine


def _busy_pauses() -> Iterator[float]:
    """Seconds between two tries for the write lock: SQLite's own busy handler's
    schedule (1 ms, then longer, at most 100 ms), so that a crowd of waiting writers
    does not wake every few milliseconds and take the GIL from the one that writes."""
    yield from (0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.025, 0.025, 0.05, 0.05)
    while True:
        yield 0.1


def _begin_writing(raw: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, waiting for another writer by short sleeps instead of in
    SQLite's busy handler: under gevent that wait held the event loop (a page's session
    write behind a burst of results blocked every player for over 100 ms)."""
    deadline = time.monotonic() + SQLITE_BUSY_MS / 1000
    raw.execute("PRAGMA busy_timeout=0")
    try:
        for pause in _busy_pauses():
            try:
                raw.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or time.monotonic() > deadline:
                    raise
                time.sleep(pause)  # a greenlet's sleep under gevent: the loop serves others
    finally:
        raw.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")


class Database:
    """One database: ``session()`` to read, ``writing()`` to write, ``upgrade()`` to migrate."""

    def __init__(self, url: str | None = None, folder: str | Path | None = None):
        self.url = url or default_url(folder)
        self.closed = False
        parsed = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        if self.dialect == "sqlite":
            if parsed.database and parsed.database != ":memory:":
                private_file(Path(parsed.database))
            self.engine = _sqlite_engine(self.url)
        else:
            self.engine = create_engine(
                self.url,
                pool_size=8,
                max_overflow=32,
                pool_timeout=POOL_SECONDS,
                pool_pre_ping=True,
                connect_args=_postgres_timeouts() if self.dialect == "postgresql" else {},
            )
        self._reader = sessionmaker(self.engine, expire_on_commit=False)
        self._writer = sessionmaker(
            self.engine.execution_options(writing=True), expire_on_commit=False
        )

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session for reading (committed at the end all the same)."""
        with _bounded(QUERY_SECONDS), self._reader.begin() as session, _dropped_on_timeout(session):
            yield session

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A session that writes: committed at the end, rolled back on an exception."""
        with _bounded(QUERY_SECONDS), self._writer.begin() as session, _dropped_on_timeout(session):
            yield session

    def ping(self, seconds: float = 2.0) -> str | None:
        """None when the database answers ``SELECT 1`` within ``seconds`` (under gevent),
        else what went wrong, in one line (``/readyz``)."""
        try:
            with _bounded(seconds), self._reader.begin() as session, _dropped_on_timeout(session):
                session.execute(text("SELECT 1"))
        except Exception as err:  # noqa: BLE001 - any failure is the answer
            return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:160] if str(err).strip() else ''}"
        return None

    def upgrade(self, revision: str = "head", wait: float = 60.0) -> None:
        """Apply the migrations up to ``revision`` (default: the newest), waiting up to
        ``wait`` seconds for a server still starting (``make cluster`` starts the web
        processes and PostgreSQL together)."""
        deadline = time.monotonic() + wait
        while True:
            try:
                self.engine.connect().close()
                break
            except OperationalError:
                if self.dialect == "sqlite" or time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        with self.engine.connect() as connection:
            if self.dialect == "postgresql":
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                connection.commit()
            try:
                command.upgrade(alembic_config(connection), revision)
                connection.commit()
            finally:
                if self.dialect == "postgresql":
                    connection.execute(
                        text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK}
                    )
                    connection.commit()

    def revision(self) -> str | None:
        """The schema's current revision (None: empty database)."""
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    @staticmethod
    def head() -> str | None:
        """The newest revision the shipped migrations know."""
        return ScriptDirectory(str(MIGRATIONS)).get_current_head()

    def close(self) -> None:
        self.closed = True  # background readers (the record of help's) stop
        self.engine.dispose()
