"""A backup's rows checked as the API checks a submission, before ``db restore`` writes any.

A backup is a file anyone could have edited: restoring it must not put on a
leaderboard what the API would have refused. Every column is checked for its
type, range and size; every name by the name rules (look-alikes included);
every result's line is replayed with its game's rules, its length counted
again and equal to the stored one, and its shortest checked against the
puzzle's own (the generator's daily for that day, the shipped level, or, for a
ladder's generated board, the solver's proof), so a result is ranked only as the
API would rank it. The first problem is a
:class:`BackupRefused` naming the table and row. Plain Python and the solver:
no Flask, no web code.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import math
import re
from collections.abc import Callable
from typing import Any

from sqlalchemy import Table
from sqlalchemy.sql import sqltypes

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.game import Game
from solver.core.replay import MAX_LINE, replay_line
from solver.core.results import Budget
from solver.core.seeds import daily_seed
from solver.core.text import N_
from solver.engine import solve_board

from ..levels.facts import find_level
from .models import TABLES
from .names import NameRefused, check_name, name_key, shape_key

#: the largest whole number a column holds (PostgreSQL's integer)
MAX_INT = 2**31 - 1
MAX_TEXT = 1_048_576
MAX_SECONDS = 7 * 24 * 3600
HEX64 = re.compile(r"[0-9a-f]{64}")
AGENTS = frozenset({"Edge", "Opera", "Firefox", "Chrome", "Safari", "Other"})

#: (game name, UTC day) -> that day's daily {board, options, min_moves, optimal}
DailyMaker = Callable[[str, dt.date], dict]


class BackupRefused(ValueError):
    """A backup that must not be restored; the message names the first problem."""


def solver_daily(game: str, day: dt.date) -> dict:
    """The daily as the app makes it (its generator, the day's seed), in this process."""
    return catalogue.get(game).generate({}, daily_seed(game, day), True)


def _column_value(table: Table, name: str, value: Any) -> Any:
    """``value`` for ``table.name`` as the database takes it, or BackupRefused."""
    column = table.columns.get(name)
    if column is None:
        raise BackupRefused(f"unknown column {name!r}")
    if value is None:
        if not column.nullable:
            raise BackupRefused(f"{name} must not be empty")
        return None
    kind = column.type
    if isinstance(kind, sqltypes.Boolean):
        if not isinstance(value, bool):
            raise BackupRefused(f"{name} must be true or false")
    elif isinstance(kind, sqltypes.Integer):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT:
            raise BackupRefused(f"{name} must be a whole number from 0 to {MAX_INT}")
    elif isinstance(kind, sqltypes.Float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BackupRefused(f"{name} must be a number")
        if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
            raise BackupRefused(f"{name} must be from 0 to {MAX_SECONDS}")
        value = float(value)
    elif isinstance(kind, (sqltypes.DateTime, sqltypes.Date)):
        if not isinstance(value, str) or len(value) > 32:
            raise BackupRefused(f"{name} must be an ISO date")
        try:
            if isinstance(kind, sqltypes.DateTime):
                value = dt.datetime.fromisoformat(value).replace(tzinfo=None)
            else:
                value = dt.date.fromisoformat(value)
        except ValueError:
            raise BackupRefused(f"{name} must be an ISO date, not {value[:32]!r}") from None
    elif isinstance(kind, sqltypes.String):
        limit = kind.length or MAX_TEXT
        if not isinstance(value, str) or len(value) > limit:
            raise BackupRefused(f"{name} must be text of at most {limit} characters")
    else:  # pragma: no cover - a column type this check does not know yet
        raise BackupRefused(f"{name}: cannot check a {kind!r} column")
    return value


def typed_row(table: Table, row: Any) -> dict:
    """One row's every column checked for its type, range and size (missing nullable
    columns empty)."""
    if not isinstance(row, dict):
        raise BackupRefused("a row must be an object")
    unknown = set(row) - set(table.columns.keys())
    if unknown:
        raise BackupRefused(f"unknown column {sorted(unknown)[0]!r}")
    return {c.name: _column_value(table, c.name, row.get(c.name)) for c in table.columns}


def _unique(rows: list[dict], *columns: str) -> None:
    seen: set = set()
    for index, row in enumerate(rows):
        key = tuple(row[c] for c in columns)
        if None in key:
            continue
        if key in seen:
            raise BackupRefused(f"row {index + 1}: {', '.join(columns)} repeats another row's")
        seen.add(key)


def _options_json(options: dict) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def _level_shortest(game: type[Game], board: str, options: dict) -> int | None:
    """The shipped level's fewest moves for this start and options, None if no level."""
    level = find_level(game, board, options)
    return None if level is None else level["moves"][game.progress_value(options)]


#: a generated ladder board's shortest is proven again within this (offline: the CLI)
PROOF_SECONDS = 60.0


@functools.cache
def _proven_shortest(game: str, board: str, options_json: str) -> int | None:
    """The solver's proven fewest moves for a board (a ladder's generated puzzle, whose
    shortest its generator proved when it was served), None when not proven in time."""
    options = {k: v for k, v in json.loads(options_json).items() if v is not None}
    report = solve_board(game, board, budget=Budget(max_seconds=PROOF_SECONDS), **options)
    return report["length"] if report["optimal"] else None


class ResultCheck:
    """Checks result rows; remembers each (game, day)'s daily, made once."""

    def __init__(self, daily: DailyMaker = solver_daily):
        self._daily = functools.cache(daily)

    def _daily_puzzle(self, game: type[Game], day: dt.date) -> tuple[str, dict, int | None]:
        made = self._daily(game.name, day)
        options = game.full_options(made.get("options") or {})
        domain = game.make_domain(**game.check_options(options))
        board = domain.format(domain.parse(made["board"]))
        return board, options, made["min_moves"] if made.get("optimal") else None

    def __call__(self, row: dict) -> None:
        game = catalogue.games().get(row["game"])
        if game is None:
            raise BackupRefused(f"unknown game {row['game'][:20]!r}")
        try:
            given = json.loads(row["options"])
            if not isinstance(given, dict):
                raise BoardError("options must be an object")
            options = game.full_options(given)
            domain = game.make_domain(**game.check_options(options))
            board = domain.format(domain.parse(row["board"]))
            if row["line"] == "":  # a free-play line over its bound, kept without its positions
                self._check_unkept(game, row, board, options)
                return
            states = row["line"].split("\n")
            if len(states) > MAX_LINE:
                raise BoardError(
                    N_("the line has %(count)s positions; the limit is %(limit)s"),
                    count=len(states),
                    limit=MAX_LINE,
                )
            replay = replay_line(domain, board, states)
        except (BoardError, ValueError) as err:
            raise BackupRefused(f"the line does not replay: {str(err)[:120]}") from None
        if board != row["board"] or _options_json(options) != row["options"]:
            raise BackupRefused("board and options must be written as the server writes them")
        if "\n".join(replay.states) != row["line"]:
            raise BackupRefused("the line must be written as the server writes it")
        if replay.length != row["length"]:
            raise BackupRefused(f"length says {row['length']}, the line takes {replay.length}")
        digest = hashlib.sha256(row["line"].encode()).hexdigest()
        if digest != row["line_hash"]:
            raise BackupRefused("line_hash is not the line's")
        key = hashlib.sha256(f"{game.name}|{row['options']}|{board}".encode()).hexdigest()
        if key != row["puzzle"]:
            raise BackupRefused("puzzle is not the key of its game, options and board")
        self._check_shortest(game, row, board, options)

    def _check_unkept(self, game: type[Game], row: dict, board: str, options: dict) -> None:
        """A result stored without its line (:func:`webapp.players.results.kept_line`):
        free play only (no proven shortest, unranked), its length within the limit."""
        if board != row["board"] or _options_json(options) != row["options"]:
            raise BackupRefused("board and options must be written as the server writes them")
        if not 1 <= row["length"] < MAX_LINE or not HEX64.fullmatch(row["line_hash"]):
            raise BackupRefused("a result without its line still has its length and hash")
        key = hashlib.sha256(f"{game.name}|{row['options']}|{board}".encode()).hexdigest()
        if key != row["puzzle"]:
            raise BackupRefused("puzzle is not the key of its game, options and board")
        if row["ranked"] or row["day"] is not None or row["shortest"] is not None:
            raise BackupRefused("only a free-play result is stored without its line")
        self._check_shortest(game, row, board, options)

    def _check_shortest(self, game: type[Game], row: dict, board: str, options: dict) -> None:
        if row["day"] is not None:
            try:
                daily = self._daily_puzzle(game, row["day"])
            except (BoardError, ValueError, KeyError) as err:
                raise BackupRefused(f"cannot make that day's daily: {str(err)[:80]}") from None
            if daily[:2] != (board, options):
                raise BackupRefused(f"the board is not {game.name}'s daily of {row['day']}")
            shortest = daily[2]
        else:
            shortest = _level_shortest(game, board, options)
            if shortest is None and row["shortest"] is not None:  # a ladder's board
                shortest = _proven_shortest(game.name, board, _options_json(options))
        if row["shortest"] != shortest:
            raise BackupRefused(f"shortest says {row['shortest']}, the puzzle's is {shortest}")
        if shortest is not None:
            if row["length"] < shortest:
                raise BackupRefused(f"length {row['length']} beats the proven {shortest}")
            if row["length"] > 4 * shortest + 100:
                raise BackupRefused(f"length {row['length']} is over 4 x {shortest} + 100")
        if row["ranked"] and (row["assisted"] or shortest is None):
            raise BackupRefused("only an unassisted result of a proven puzzle is ranked")


def checked_tables(data: Any, daily: DailyMaker = solver_daily) -> dict[str, list[dict]]:
    """Every table of a backup's ``data``, rows typed and checked; BackupRefused naming
    the first problem (table and row) otherwise."""
    if not isinstance(data, dict) or not isinstance(data.get("tables"), dict):
        raise BackupRefused("the backup holds no tables")
    known = {table.name for table in TABLES}
    unknown = set(data["tables"]) - known
    if unknown:
        raise BackupRefused(f"unknown table {sorted(unknown)[0]!r}")
    out: dict[str, list[dict]] = {}
    check_result = ResultCheck(daily)
    players: set[int] = set()
    for table in TABLES:
        rows = data["tables"].get(table.name, [])
        if not isinstance(rows, list):
            raise BackupRefused(f"{table.name} must be a list of rows")
        typed = []
        for index, row in enumerate(rows):
            try:
                found = typed_row(table, row)
                _check_row(table.name, found, players, check_result)
            except BackupRefused as err:
                raise BackupRefused(f"{table.name} row {index + 1}: {err}") from None
            typed.append(found)
        try:
            for columns in _UNIQUE.get(table.name, ()):
                _unique(typed, *columns)
        except BackupRefused as err:
            raise BackupRefused(f"{table.name} {err}") from None
        out[table.name] = typed
        if table.name == "players":
            players = {row["id"] for row in typed}
    return out


_UNIQUE = {
    "players": (("id",), ("token",), ("code_hash",), ("name_key",), ("shape_key",)),
    "player_sessions": (("id",), ("secret_hash",)),
    "results": (("id",), ("player_id", "puzzle", "line_hash")),
    "imported_progress": (("id",),),
    "attempts": (("id",), ("player_id", "puzzle")),
}


def _check_row(table: str, row: dict, players: set[int], results: ResultCheck) -> None:
    if row.get("id") is not None and row["id"] < 1:
        raise BackupRefused("id must be 1 or more")
    if table == "players":
        if not re.fullmatch(r"[0-9a-f]{1,32}", row["token"]):
            raise BackupRefused("token must be hexadecimal")
        if row["code_hash"] is not None and not HEX64.fullmatch(row["code_hash"]):
            raise BackupRefused("code_hash must be a sha256")
        if row["name"] is not None:
            try:
                if check_name(row["name"]) != row["name"]:
                    raise NameRefused(N_("a name is stored trimmed and normalised"))
            except NameRefused as err:
                raise BackupRefused(f"name: {err}") from None
            row["name_key"], row["shape_key"] = name_key(row["name"]), shape_key(row["name"])
        else:
            row["name_key"] = row["shape_key"] = None
        return
    if row.get("player_id") not in players:
        raise BackupRefused("player_id names no player of the backup")
    if table == "player_sessions":
        if not HEX64.fullmatch(row["secret_hash"]) or row["agent"] not in AGENTS:
            raise BackupRefused("secret_hash must be a sha256 and agent a known family")
    elif table == "results":
        results(row)
    elif table == "imported_progress":
        for name in ("moves", "extra", "min"):
            if row[name] is not None and row[name] > 1_000_000:
                raise BackupRefused(f"{name} must be at most 1000000")
    elif table == "attempts":
        if not (HEX64.fullmatch(row["puzzle"]) and HEX64.fullmatch(row["family"])):
            raise BackupRefused("puzzle and family must be sha256 keys")
        if row["finished"] is not None and row["finished"] < row["opened"]:
            raise BackupRefused("an attempt cannot finish before it opened")
