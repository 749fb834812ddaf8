"""The read tables, made from the results: bests, length counts and players' choices.

Reads must not scale with players or lines (a leaderboard of 50,000 players is
read on the web process's one event loop), so what they need is kept on write
(:mod:`webapp.players.results`, :mod:`webapp.players.choices`) and made here
from the results when the tables are new (migration 0006) or restored. This
module names its columns with ``sqlalchemy.table`` rather than the ORM models,
so the migration keeps working when later revisions add columns.

Everything is SQL but the choices: a position's hash is sha256, which SQLite
cannot compute, so lines are read in batches and their edges inserted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    Integer,
    cast,
    column,
    func,
    inspect,
    select,
    table,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

#: one number ordering results as the leaderboard does: moves first, then hundredths of
#: a second (a week is 6.048e7 hundredths, under 10**8)
SCORE_SCALE = 100_000_000
#: the "next position" of the row saying a player left a position (whichever move)
LEFT = 0
BATCH = 500

results = table(
    "results",
    *(column(name) for name in ("id", "player_id", "game", "puzzle", "day", "line", "shortest")),
    column("length", Integer),
    column("seconds", Float),
    column("ranked", Boolean),
    column("assisted", Boolean),
)
bests = table(
    "bests",
    *(column(n) for n in ("puzzle", "player_id", "game", "day", "score", "length", "seconds")),
    column("result_id"),
)
board_lengths = table("board_lengths", column("puzzle"), column("length"), column("players"))
board_versions = table("board_versions", column("puzzle"), column("version"))
choice_players = table(
    "choice_players", column("puzzle"), column("position"), column("next"), column("player_id")
)
choice_counts = table(
    "choice_counts", column("puzzle"), column("position"), column("next"), column("players")
)


def score(length: int, seconds: float) -> int:
    """Fewer moves first, then fewer hundredths of a second (rounded half up, as SQL's
    ``round`` does in :func:`rebuild`)."""
    return length * SCORE_SCALE + min(max(int(seconds * 100 + 0.5), 0), SCORE_SCALE - 1)


def position_hash(text: str) -> int:
    """A position's 63-bit key (never :data:`LEFT`): fixed width, so the choices'
    index stays small whatever the board's size."""
    value = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big", signed=True)
    return value or 1


def edges(states: Sequence[str]) -> set[tuple[int, int]]:
    """The moves a line took, once each, with a (position, :data:`LEFT`) row per position
    left: so a position's players count each player once, whichever moves they took."""
    keys = [position_hash(state) for state in states]
    found: set[tuple[int, int]] = set()
    for before, after in zip(keys, keys[1:], strict=False):
        found.add((before, after))
        found.add((before, LEFT))
    return found


def insert_for(connection: Connection, target):
    """``INSERT`` with ``ON CONFLICT`` for this connection's dialect (both have it)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(target)


def add_choices(
    connection: Connection, puzzle: str, player_id: int, found: set[tuple[int, int]]
) -> None:
    """Count ``player_id`` once on each of ``found``'s edges it was not yet counted on.

    The player's own edges on the board are read first (a range of the primary key)
    and only the new ones inserted and counted, with the driver's ``executemany``: a
    long line is thousands of rows, and SQLAlchemy's per-row parameter handling cost
    more than the database. SQLite runs one writer at a time; on PostgreSQL a
    transaction-scoped advisory lock on (board, player) keeps the same player's
    concurrent submissions from both counting an edge."""
    if not found:
        return
    if connection.dialect.name == "postgresql":
        key = position_hash(f"choices|{puzzle}|{player_id}")
        connection.execute(select(func.pg_advisory_xact_lock(key)))
    have = connection.execute(
        select(choice_players.c.position, choice_players.c.next).where(
            choice_players.c.puzzle == puzzle, choice_players.c.player_id == player_id
        )
    ).all()
    new = found.difference(map(tuple, have))
    if not new:
        return
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    values = ", ".join([mark] * 4)
    rows = [(puzzle, player_id, p, n) for p, n in new]
    connection.exec_driver_sql(
        f"INSERT INTO choice_players (puzzle, player_id, position, next) VALUES ({values})",
        rows,
    )
    connection.exec_driver_sql(
        "INSERT INTO choice_counts (puzzle, position, next, players) "
        f"VALUES ({mark}, {mark}, {mark}, 1) ON CONFLICT (puzzle, position, next) "
        "DO UPDATE SET players = choice_counts.players + 1",
        [(puzzle, p, n) for p, n in new],
    )


def rebuild(connection: Connection) -> None:
    """Empty the read tables and make them again from every result."""
    for target in (choice_counts, choice_players, board_lengths, bests):
        connection.execute(target.delete())
    # no versions: every board a web process keeps differs and is read again (migration
    # 0006 rebuilds before 0007 adds the table)
    if inspect(connection).has_table("board_versions"):
        connection.execute(board_versions.delete())
    _bests(connection)
    _choices(connection)
    if connection.dialect.name == "postgresql":
        # fresh statistics for the planner: without them a bulk-filled table is planned
        # as if empty, and counts and top rows read the heap instead of the index alone
        connection.exec_driver_sql("ANALYZE bests, board_lengths, choice_counts")


def _bests(connection: Connection) -> None:
    hundredths = cast(func.round(results.c.seconds * 100), BigInteger)
    ranked_score = cast(results.c.length, BigInteger) * SCORE_SCALE + hundredths
    order = (results.c.length, results.c.seconds, results.c.id)
    number = func.row_number().over(
        partition_by=(results.c.puzzle, results.c.player_id), order_by=order
    )
    ranked = (
        select(
            results.c.puzzle,
            results.c.player_id,
            results.c.game,
            results.c.day,
            ranked_score.label("score"),
            results.c.length,
            results.c.seconds,
            results.c.id.label("result_id"),
            number.label("n"),
        )
        .where(results.c.ranked.is_(True))
        .subquery()
    )
    names = ("puzzle", "player_id", "game", "day", "score", "length", "seconds", "result_id")
    connection.execute(
        bests.insert().from_select(
            names, select(*(ranked.c[name] for name in names)).where(ranked.c.n == 1)
        )
    )
    connection.execute(
        board_lengths.insert().from_select(
            ("puzzle", "length", "players"),
            select(bests.c.puzzle, bests.c.length, func.count()).group_by(
                bests.c.puzzle, bests.c.length
            ),
        )
    )


def _choices(connection: Connection) -> None:
    """Each unassisted line of a daily or level (the boards with a known shortest) into
    ``choice_players`` (batched by id), then the counts in one ``GROUP BY``."""
    last = 0
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    insert = (
        "INSERT INTO choice_players (puzzle, player_id, position, next) "
        f"VALUES ({mark}, {mark}, {mark}, {mark}) ON CONFLICT DO NOTHING"
    )
    while True:
        batch = connection.execute(
            select(results.c.id, results.c.puzzle, results.c.player_id, results.c.line)
            .where(
                results.c.assisted.is_(False),
                results.c.shortest.is_not(None),
                results.c.id > last,
            )
            .order_by(results.c.id)
            .limit(BATCH)
        ).all()
        if not batch:
            break
        rows = {
            (puzzle, player_id, p, n)
            for _id, puzzle, player_id, line in batch
            for p, n in edges(line.split("\n"))
        }
        if rows:  # the driver's executemany: SQLAlchemy's per-row handling costs more
            connection.exec_driver_sql(insert, list(rows))
        last = batch[-1][0]
    counted = select(
        choice_players.c.puzzle,
        choice_players.c.position,
        choice_players.c.next,
        func.count(),
    ).group_by(choice_players.c.puzzle, choice_players.c.position, choice_players.c.next)
    connection.execute(
        choice_counts.insert().from_select(("puzzle", "position", "next", "players"), counted)
    )
