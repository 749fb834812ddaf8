"""Operators' commands: ``python -m webapp db upgrade|revision|backup FILE|restore FILE``.

A backup is one JSON document of every table's rows, the same on SQLite and
PostgreSQL, so it also moves the players from one to the other. ``restore``
checks every row as the API checks a submission (:mod:`.checks`) before it
writes anything, then migrates the target, refuses a database that already
holds players, and makes the read tables (bests, counters) from the restored
results. Backups are written readable by their owner only.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import stat
import sys
from pathlib import Path

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import SQLAlchemyError

from .checks import BackupRefused, DailyMaker, checked_tables, solver_daily
from .database import Database
from .derived import rebuild
from .models import TABLES

FORMAT = "puzzle-arcade-backup"


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, (dt.date, dt.datetime)) else value


def backup(db: Database, path: Path) -> dict[str, int]:
    """Write every row to ``path`` (readable by its owner only); returns the row count
    per table."""
    tables: dict[str, list[dict[str, object]]] = {}
    with db.session() as session:
        for table in TABLES:
            rows = session.execute(select(table).order_by(*table.primary_key)).mappings()
            tables[table.name] = [{k: _plain(v) for k, v in row.items()} for row in rows]
    data = {"format": FORMAT, "revision": db.revision(), "tables": tables}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    if stat.S_ISREG(os.fstat(fd).st_mode):  # a file, not a device such as /dev/stdout
        os.fchmod(fd, 0o600)  # an older file keeps its mode through O_CREAT
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps(data, separators=(",", ":")))
    return {name: len(rows) for name, rows in tables.items()}


def read_backup(path: Path) -> dict:
    """The backup's JSON document, or BackupRefused saying in one line why not."""
    try:
        data = json.loads(path.read_bytes())
    except UnicodeDecodeError:
        raise BackupRefused(f"{path} is not text") from None
    except RecursionError:
        raise BackupRefused(f"{path} nests its JSON too deeply") from None
    except json.JSONDecodeError as err:
        raise BackupRefused(f"{path} is not JSON ({err.msg}, line {err.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupRefused(f"{path} is not a puzzle-arcade backup")
    return data


def restore(db: Database, path: Path, daily: DailyMaker = solver_daily) -> dict[str, int]:
    """Load a backup into ``db`` (migrated first, and empty); returns rows per table.

    Every row is checked first (:func:`~webapp.storage.checks.checked_tables`, with
    ``daily`` making each day's daily): one bad row refuses the whole file and
    nothing is written."""
    tables = checked_tables(read_backup(path), daily)
    db.upgrade()
    counts = {}
    with db.writing() as session:
        if session.scalar(select(func.count()).select_from(TABLES[0])):
            raise ValueError("the database already holds players; restore into an empty one")
        for table in TABLES:
            rows = tables[table.name]
            session.execute(delete(table))
            if rows:
                session.execute(insert(table), rows)
            counts[table.name] = len(rows)
        rebuild(session.connection())
    if db.dialect == "postgresql":  # identities continue after the restored ids
        with db.writing() as session:
            for table in TABLES:
                session.execute(
                    func.setval(
                        func.pg_get_serial_sequence(table.name, "id"),
                        select(func.coalesce(func.max(table.c.id), 0) + 1).scalar_subquery(),
                        False,
                    ).select()
                )
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m webapp db", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--url", help="the database (default $ARCADE_DATABASE_URL or the SQLite file)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("upgrade", help="apply the migrations (the server does this at start-up)")
    sub.add_parser("revision", help="print the schema's revision and the newest known")
    for name, text in (("backup", "write every row to FILE"), ("restore", "load FILE")):
        sub.add_parser(name, help=text).add_argument("file", type=Path)
    args = parser.parse_args(argv)
    db = Database(args.url or os.environ.get("ARCADE_DATABASE_URL") or None)
    try:
        if args.command == "upgrade":
            db.upgrade()
            print(f"{db.url}: at revision {db.revision()}")
        elif args.command == "revision":
            print(f"{db.revision()} (newest {db.head()})")
        elif args.command == "backup":
            print(f"backed up {backup(db, args.file)} to {args.file}")
        else:
            print(f"restored {restore(db, args.file)} from {args.file}")
    except (OSError, ValueError, SQLAlchemyError) as err:
        # one line, never a traceback; a refused restore rolled back and wrote nothing
        line = " ".join(str(err).split())[:300]
        print(f"python -m webapp db: {line}", file=sys.stderr)
        return 2
    finally:
        db.close()
    return 0
