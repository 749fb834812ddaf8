"""The schema and the operators' commands, on SQLite and PostgreSQL: migrations from an
empty database and from the previous schema, the models agreeing with the migrations,
and a backup that restores every row (also from one kind of database to the other)."""

import subprocess
import sys

from helpers.players import NOW, daily_result
from sqlalchemy import inspect, select, text

from webapp.storage import Database
from webapp.storage.models import (
    DERIVED,
    LADDER,
    RACES,
    RUNS,
    SERVER_TABLES,
    TABLES,
    Best,
    BoardLength,
    Player,
    Result,
)
from webapp.storage.operations import backup, restore

#: the newest migration (its number, written out: a new one must move it)
NEWEST = "0014"


def test_an_empty_database_migrates_to_the_newest_schema_the_models_describe(empty_database_url):
    db = Database(empty_database_url)
    assert db.revision() is None
    db.upgrade()
    assert db.revision() == db.head() == NEWEST
    found = inspect(db.engine)
    for table in TABLES + SERVER_TABLES + DERIVED + LADDER + RUNS + RACES:
        columns = {c["name"] for c in found.get_columns(table.name)}
        assert columns == set(table.columns.keys()), table.name
    db.upgrade()  # again: nothing to do, nothing broken
    db.close()


def test_the_previous_schema_upgrades_keeping_its_rows(empty_database_url):
    db = Database(empty_database_url)
    db.upgrade("0001")
    assert "imported_progress" not in inspect(db.engine).get_table_names()
    with db.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO players (token, name, created) VALUES ('t1', 'Ann', :now)"),
            {"now": NOW},
        )
    db.upgrade()
    with db.session() as session:
        player = session.scalars(select(Player)).one()
        assert (player.name, player.imported) == ("Ann", None)
    assert "imported_progress" in inspect(db.engine).get_table_names()
    db.close()


def _fill(db: Database) -> None:
    with db.writing() as session:
        player = Player(token="a" * 32, name="Ann", name_key="ann", code_hash="c" * 64, created=NOW)
        session.add(player)
        session.flush()
        session.add(Result(**daily_result(player.id)))


def test_a_backup_restores_every_row_into_an_empty_database(empty_database_url, tmp_path):
    source = Database(f"sqlite:///{tmp_path / 'source.sqlite3'}")
    source.upgrade()
    _fill(source)
    path = tmp_path / "backup.json"
    assert backup(source, path) == {
        "players": 1,
        "player_sessions": 0,
        "results": 1,
        "imported_progress": 0,
        "attempts": 0,
    }
    target = Database(empty_database_url)
    assert restore(target, path)["results"] == 1
    with target.writing() as session:
        result = session.scalars(select(Result)).one()
        assert (result.day, result.seconds, result.created) == (NOW.date(), 12.5, NOW)
        assert result.ranked and result.length == result.shortest
        # the read tables are made from the restored results
        best = session.scalars(select(Best)).one()
        assert (best.player_id, best.length, best.result_id) == (
            result.player_id,
            result.length,
            result.id,
        )
        assert session.scalar(select(BoardLength.players)) == 1
        session.add(Player(token="new", created=NOW))  # ids go on after the restored ones
        session.flush()
    try:
        restore(target, path)
    except ValueError as err:
        assert "already holds players" in str(err)
    else:
        raise AssertionError("a second restore over the players was accepted")
    source.close()
    target.close()


def test_the_db_command_upgrades_backs_up_and_restores(empty_database_url, tmp_path):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "webapp", "db", "--url", empty_database_url, *args],
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert f"at revision {NEWEST}" in run("upgrade").stdout
    _fill(Database(empty_database_url))
    path = tmp_path / "b.json"
    assert run("backup", str(path)).returncode == 0
    refused = run("restore", str(path))  # the database is not empty
    assert refused.returncode == 2 and "already holds players" in refused.stderr
    bad = run("restore", str(tmp_path / "missing.json"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
