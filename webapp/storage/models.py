"""The tables: players, the results they submitted, the progress their browsers imported,
and their ranked attempts; and the read tables kept from the results on write
(bests, lengths, choices).

Nothing personal: a player is a random token (in a signed cookie), an optional
display name and the hash of a recovery code. The schema itself is defined by the
migrations (``migrations/versions``); these classes must agree with the newest one,
which ``tests/test_storage.py`` checks.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: random, the signed cookie carries it; never shown
    token: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str | None] = mapped_column(String(20))
    #: the name with case and look-alikes folded away (:func:`webapp.storage.names.name_key`):
    #: unique, so two players never show the same-looking name
    name_key: Mapped[str | None] = mapped_column(String(255), unique=True)
    #: sha256 of the recovery code (the code itself is shown once, never stored)
    code_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime)
    #: when the browser's own progress was imported (once per player)
    imported: Mapped[dt.datetime | None] = mapped_column(DateTime)


class PlayerSession(Base):
    """One browser signed in as a player: the signed cookie names it by a random secret,
    kept here only as a hash. Nothing personal: when, and a browser family at most."""

    __tablename__ = "player_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: sha256 of the secret the cookie carries
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime)
    #: the last day it was used (coarse on purpose: written at most once a day)
    seen: Mapped[dt.date] = mapped_column(Date)
    #: a browser family ("Firefox", "Chrome", ...), never the whole user agent
    agent: Mapped[str] = mapped_column(String(20))


class NewPlayer(Base):
    """A player made from an address in the last hour: a keyed hash of the address,
    never the address itself, and kept only for the hour the limit counts."""

    __tablename__ = "new_players"
    __table_args__ = (Index("ix_new_players_address", "address_key", "created"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address_key: Mapped[str] = mapped_column(String(64))
    created: Mapped[dt.datetime] = mapped_column(DateTime)


class Result(Base):
    """One verified line: replayed by the server, its length counted there."""

    __tablename__ = "results"
    __table_args__ = (
        # the same line sent again is the same result (idempotent resubmission)
        UniqueConstraint("player_id", "puzzle", "line_hash", name="uq_results_line"),
        Index("ix_results_board", "puzzle", "ranked"),
        Index("ix_results_daily", "game", "day", "ranked"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(20))
    #: sha256 of game, options and canonical start: one leaderboard per puzzle
    puzzle: Mapped[str] = mapped_column(String(64))
    board: Mapped[str] = mapped_column(Text)
    options: Mapped[str] = mapped_column(Text)  # JSON, sorted keys
    #: the UTC day whose daily this was, else None (a shipped level or any board)
    day: Mapped[dt.date | None] = mapped_column(Date)
    length: Mapped[int] = mapped_column(Integer)
    shortest: Mapped[int | None] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    assisted: Mapped[bool] = mapped_column(Boolean)
    ranked: Mapped[bool] = mapped_column(Boolean)
    line_hash: Mapped[str] = mapped_column(String(64))
    #: the canonical positions, one per line (what players chose is read from them)
    line: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime)


class ImportedProgress(Base):
    """A browser's localStorage best, imported as it was: kept, never ranked."""

    __tablename__ = "imported_progress"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(Text)  # progress.js's levelKey: game|variant|board
    moves: Mapped[int] = mapped_column(Integer)
    extra: Mapped[int] = mapped_column(Integer)
    min: Mapped[int | None] = mapped_column(Integer)
    at: Mapped[str | None] = mapped_column(String(10))


class Attempt(Base):
    """A ranked attempt: opened when the server handed the puzzle to the player (its
    clock starts then), marked assisted when the player's sockets asked about it."""

    __tablename__ = "attempts"
    __table_args__ = (
        # the first open counts: reopening the page does not restart the clock
        UniqueConstraint("player_id", "puzzle", name="uq_attempts_puzzle"),
        Index("ix_attempts_family", "player_id", "family"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    #: the puzzle's key (:attr:`webapp.players.challenges.Challenge.key`)
    puzzle: Mapped[str] = mapped_column(String(64))
    #: sha256 of game and options: what a socket's analyse or solve is matched on
    family: Mapped[str] = mapped_column(String(64))
    opened: Mapped[dt.datetime] = mapped_column(DateTime)
    assisted: Mapped[bool] = mapped_column(Boolean)
    #: when a result ended it (None while open)
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime)


class Best(Base):
    """A player's best ranked result on one board (a daily or a level), kept on write so
    that a leaderboard, a rank and "beat N%" are index range reads."""

    __tablename__ = "bests"
    __table_args__ = (
        # the leaderboard's order (ties: the earlier result first) and rank counts
        Index("ix_bests_rank", "puzzle", "score", "result_id"),
        # a player's streak: the days of a game's dailies they are ranked on
        Index("ix_bests_streak", "player_id", "game", "day"),
    )

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(20))
    day: Mapped[dt.date | None] = mapped_column(Date)
    #: moves, then hundredths of a second, as one number (derived.score): lower is better
    score: Mapped[int] = mapped_column(BigInteger)
    length: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    result_id: Mapped[int] = mapped_column(Integer)


class BoardLength(Base):
    """How many players' best on a board took ``length`` moves (the distribution)."""

    __tablename__ = "board_lengths"

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    length: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


class BoardVersion(Base):
    """A number moved with every change of a board's bests (in the same transaction),
    so a web process keeping the board's scores re-reads them only after a change."""

    __tablename__ = "board_versions"

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger)


class ChoicePlayer(Base):
    """One player took the move ``position -> next`` on a board, in an unassisted line
    (``next`` = 0: the player left ``position``). Positions are 63-bit hashes
    (:func:`webapp.storage.derived.position_hash`). The row exists once per player, so
    :class:`ChoiceCount` counts each player once however often they took the move."""

    __tablename__ = "choice_players"

    # keyed by player first: a new line reads the player's own edges in one range
    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    next: Mapped[int] = mapped_column(BigInteger, primary_key=True)


class ChoiceCount(Base):
    """How many players took ``position -> next`` (``next`` = 0: left ``position``)."""

    __tablename__ = "choice_counts"

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    next: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


#: the tables a backup holds (the new players' hour-long counts are not worth keeping)
TABLES = [
    Base.metadata.tables[model.__tablename__]
    for model in (Player, PlayerSession, Result, ImportedProgress, Attempt)
]


class ServerSetting(Base):
    """A value every web process must share (the cookie-signing secret): not in backups,
    so a restored database signs new cookies (players come back with their codes)."""

    __tablename__ = "server_settings"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Daily(Base):
    """A day's daily as its generator made it (JSON), stored once so no restart makes it
    again on a player's request; derived data, so not in backups either."""

    __tablename__ = "dailies"

    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)
    made: Mapped[str] = mapped_column(Text)


#: the server's own tables, outside the players' backup
SERVER_TABLES = [Base.metadata.tables[model.__tablename__] for model in (ServerSetting, Daily)]


#: the read tables: made from the results (by the migration that adds them, and after a
#: restore), kept on every write, never backed up
DERIVED = [
    Base.metadata.tables[model.__tablename__]
    for model in (Best, BoardLength, BoardVersion, ChoicePlayer, ChoiceCount)
]


class LadderPuzzle(Base):
    """A puzzle the ladder serves (a generated board or a shipped level) and its
    Glicko-2 rating, which starts graded by its proven length and moves with play."""

    __tablename__ = "ladder_puzzles"
    # the next puzzle is the nearest rating: two range reads along this index
    __table_args__ = (Index("ix_ladder_puzzles_rating", "game", "rating"),)

    #: the puzzle's key (:attr:`webapp.players.challenges.Challenge.key`)
    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    board: Mapped[str] = mapped_column(Text)
    options: Mapped[str] = mapped_column(Text)  # JSON, sorted keys
    shortest: Mapped[int] = mapped_column(Integer)
    #: a shipped level's name, None for a generated board
    level: Mapped[str | None] = mapped_column(String(80))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)


class PlayerRating(Base):
    """A player's Glicko-2 rating in one game (no row: new, 1500 and 350)."""

    __tablename__ = "player_ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)


class LadderGame(Base):
    """One ladder puzzle handed to a player: scored once (``score`` None while open),
    with the player's rating before and after, so a retry moves nothing."""

    __tablename__ = "ladder_games"
    __table_args__ = (
        # never served twice to one player
        UniqueConstraint("player_id", "puzzle", name="uq_ladder_games_puzzle"),
        Index("ix_ladder_games_open", "player_id", "game", "score"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    puzzle: Mapped[str] = mapped_column(String(64))
    opened: Mapped[dt.datetime] = mapped_column(DateTime)
    score: Mapped[float | None] = mapped_column(Float)
    rating_before: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[float | None] = mapped_column(Float)


#: the ladder's tables: ratings learnt from play (not in the players' backup yet)
LADDER = [
    Base.metadata.tables[model.__tablename__] for model in (LadderPuzzle, PlayerRating, LadderGame)
]


class Run(Base):
    """One streak or storm a player plays: the puzzle on the board and the position
    reached (the server's, so a reload resumes it and every web process agrees), how
    many moves were judged (a move sent twice is judged once), the puzzles solved, the
    storm's penalties, and how it ended (``mistake``: JSON, the streak's last move)."""

    __tablename__ = "runs"
    __table_args__ = (
        # the player's latest run of a mode and game
        Index("ix_runs_player", "player_id", "mode", "game", "id"),
        # bests: of a day, and of all time
        Index("ix_runs_best", "player_id", "mode", "game", "day", "solved"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    mode: Mapped[str] = mapped_column(String(10))  # "streak" or "storm"
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[str] = mapped_column(Text)  # JSON, sorted keys
    #: the game and options, as a socket's help request is matched (an attempt's family)
    family: Mapped[str] = mapped_column(String(64))
    started: Mapped[dt.datetime] = mapped_column(DateTime)
    #: when the run ends unless a move comes first (a storm's time; a streak left idle)
    expires: Mapped[dt.datetime] = mapped_column(DateTime)
    day: Mapped[dt.date] = mapped_column(Date)  # UTC, when it started
    #: the current puzzle: its key, start, proven length and rating when served
    puzzle: Mapped[str] = mapped_column(String(64))
    start: Mapped[str] = mapped_column(Text)
    board: Mapped[str] = mapped_column(Text)  # the position reached
    shortest: Mapped[int] = mapped_column(Integer)
    rating: Mapped[float] = mapped_column(Float)
    moves: Mapped[int] = mapped_column(Integer)  # judged so far
    solved: Mapped[int] = mapped_column(Integer)
    penalties: Mapped[int] = mapped_column(Integer)
    #: the player's sockets asked the solver about the run's game while it ran (no best)
    assisted: Mapped[bool] = mapped_column(Boolean)
    ended: Mapped[dt.datetime | None] = mapped_column(DateTime)
    mistake: Mapped[str | None] = mapped_column(Text)


#: streak and storm runs (not in the players' backup yet, as the ladder's tables)
RUNS = [Base.metadata.tables[Run.__tablename__]]


class RaceRating(Base):
    """A player's Glicko-2 race rating (no row: new, 1500 and 350), moved by the
    finishing order of each rated race (:mod:`webapp.races.rating`)."""

    __tablename__ = "race_ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    races: Mapped[int] = mapped_column(Integer)


class RatedRace(Base):
    """A public race being rated: opened when it starts, ``rated`` once (a conditional
    update: a race finished twice, in any process, is rated by the first). ``families``
    (JSON) are its puzzles' games and options, as a socket's help request is matched."""

    __tablename__ = "rated_races"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    race: Mapped[str] = mapped_column(String(32), unique=True)
    started: Mapped[dt.datetime] = mapped_column(DateTime)
    families: Mapped[str] = mapped_column(Text)
    rated: Mapped[dt.datetime | None] = mapped_column(DateTime)


class RaceEntry(Base):
    """One rated racer of a rated race: whether their sockets asked for help before it
    ``ends`` (the race's end, here so that a help request reads one index range), and,
    once rated, their score and rating before and after."""

    __tablename__ = "race_entries"
    __table_args__ = (
        UniqueConstraint("rated_race", "player_id", name="uq_race_entries_racer"),
        Index("ix_race_entries_open", "player_id", "ends"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rated_race: Mapped[int] = mapped_column(ForeignKey("rated_races.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    ends: Mapped[dt.datetime] = mapped_column(DateTime)
    assisted: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[int | None] = mapped_column(Integer)
    rating_before: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[float | None] = mapped_column(Float)


#: rated races (not in the players' backup yet, as the ladder's tables)
RACES = [Base.metadata.tables[model.__tablename__] for model in (RaceRating, RatedRace, RaceEntry)]
