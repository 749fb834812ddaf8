"""The ladder: the next puzzle near a player's rating, and a first attempt's rating change.

Contract ("The ladder"). ``GET /api/ladder/<game>`` hands the player an untried puzzle
rated nearest their rating (shifted by "easier"/"harder"); handing it out opens the
ranked attempt (:func:`webapp.players.attempts.open_attempt`: the server's clock and
its record of help), and a :class:`~webapp.storage.models.LadderGame` that is scored
exactly once: by the first result for it (``shortest / length``, or 0 when assisted),
or with 0 when abandoned (another ladder request of that game while it is open, or
:data:`~webapp.players.ratings.ABANDON_SECONDS` gone). The player's rating and the
puzzle's move in the same transaction, with the conditional update that scores it,
so a second submission moves nothing.

Puzzles come from the shipped levels (added on a game's first ladder request) and
from the game's generator, asked for a puzzle at the wanted rating when none is
near it: the generator runs in a solver process of the page lane (the app's level
maker), never on the event loop. A new puzzle's rating is graded from its proven
length (:func:`~webapp.players.ratings.graded`). Reading and rating here are a few
indexed rows and a few microseconds of arithmetic each.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import exists, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from solver.core.game import Game
from solver.core.seeds import MAX_SEED
from solver.core.text import N_

from ..puzzle_request import RequestRefused
from ..storage import Database
from ..storage.derived import insert_for
from ..storage.models import Attempt, LadderGame, LadderPuzzle, PlayerRating
from .attempts import AttemptRanking, open_attempt
from .challenges import Challenge, level_challenge
from .ratings import (
    ABANDON_SECONDS,
    SHIFTS,
    Rating,
    attempt_score,
    graded,
    length_for,
    rate,
    wanted,
)

#: a generator is asked for a new puzzle when the nearest untried one is further away
NEAR = 100.0
#: generator calls for one request at most (each a page-lane job of milliseconds)
GENERATE_TRIES = 4

#: (params for the generator, seed, daily) -> {board, options, min_moves, optimal}
Generate = Callable[[dict, int, bool], dict]


@dataclass(frozen=True)
class Plan:
    """Where a game's ladder puzzles come from: proven lengths from ``low`` to ``high``
    graded from easiest to hardest, and the generator's parameters aiming at a length
    (None: the shipped levels only)."""

    low: int
    high: int
    params: Callable[[int], dict] | None = None


def _levels_range(game: type[Game]) -> tuple[int, int]:
    lengths = [level_challenge(game, level).shortest or 0 for level in game.distinct_levels()]
    return (min(lengths), max(lengths)) if lengths else (0, 0)


def plan(game: type[Game]) -> Plan:
    """A game declaring :attr:`~solver.core.game.Game.ladder_lengths` has its ladder
    puzzles generated; the others climb their shipped levels."""
    if game.ladder_lengths is not None:
        return Plan(*game.ladder_lengths, game.ladder_params)
    return Plan(*_levels_range(game))


def checked_shift(text: str | None) -> str | None:
    """``?shift=``: None, or one of :data:`~webapp.players.ratings.SHIFTS`; anything else
    is a 400 (asked before anything is written)."""
    if text in (None, ""):
        return None
    if text not in SHIFTS:
        raise RequestRefused(N_("shift must be one of %(shifts)s"), shifts=", ".join(SHIFTS))
    return text


# -- the pool of puzzles -----------------------------------------------------------

_levels_added: set[tuple[str, str]] = set()  # (database url, game): done by this process
_levels_lock = threading.Lock()


def _pool_row(game: type[Game], puzzle: Challenge, start: Rating) -> dict[str, Any]:
    assert puzzle.shortest is not None
    return {
        "puzzle": puzzle.key,
        "game": game.name,
        "board": puzzle.board,
        "options": puzzle.options_json,
        "shortest": puzzle.shortest,
        "level": puzzle.level,
        "rating": start.rating,
        "deviation": start.deviation,
        "volatility": start.volatility,
        "attempts": 0,
    }


def _add(db: Database, rows: list[dict]) -> None:
    """Add puzzles to the pool; one already there keeps its rating."""
    if not rows:
        return
    with db.writing() as session:
        connection = session.connection()
        added = insert_for(connection, LadderPuzzle.__table__).on_conflict_do_nothing()
        connection.execute(added, rows)


def level_starts(game: type[Game]) -> list[tuple[Challenge, Rating]]:
    """The game's shipped levels and the ratings they join the ladder with: graded by
    length on the ladder's scale (:func:`plan`: its generated lengths when it has them,
    so a 10-move level is not rated as a 1-move puzzle; else the levels' own)."""
    how = plan(game)
    low, high = how.low, how.high
    puzzles = [level_challenge(game, level) for level in game.distinct_levels()]
    return [(p, graded(p.shortest, low, high)) for p in puzzles if p.shortest]


def add_levels(db: Database, game: type[Game]) -> None:
    """The game's shipped levels join its pool, graded by length (once per process)."""
    key = (str(db.engine.url), game.name)
    with _levels_lock:
        if key in _levels_added:
            return
    _add(db, [_pool_row(game, puzzle, start) for puzzle, start in level_starts(game)])
    with _levels_lock:
        _levels_added.add(key)


def level_ratings(db: Database, game: type[Game]) -> dict[str, dict]:
    """Per shipped level's puzzle key: its ladder rating and deviation, and how many
    first attempts moved it; a level no one has met on the ladder yet shows the
    rating it starts with (graded by length, its deviation wide: 0 attempts)."""
    starts = level_starts(game)
    with db.session() as session:
        rows = session.execute(
            select(
                LadderPuzzle.puzzle,
                LadderPuzzle.rating,
                LadderPuzzle.deviation,
                LadderPuzzle.attempts,
            ).where(LadderPuzzle.puzzle.in_([puzzle.key for puzzle, _start in starts]))
        ).all()
    stored = {row.puzzle: row for row in rows}
    out = {}
    for puzzle, start in starts:
        row = stored.get(puzzle.key)
        rating, deviation, attempts = (
            (row.rating, row.deviation, row.attempts) if row else (start.rating, start.deviation, 0)
        )
        out[puzzle.key] = {
            "rating": round(rating),
            "deviation": round(deviation),
            "rating_attempts": attempts,
        }
    return out


def generated_puzzle(game: type[Game], made: dict) -> Challenge | None:
    """A generated level as a ladder puzzle; None when its length is not proven."""
    if not made.get("optimal"):
        return None
    options = game.full_options(made.get("options"))
    domain = game.make_domain(**game.check_options(options))
    board = domain.format(domain.parse(made["board"]))
    return Challenge(game.name, board, options, int(made["min_moves"]), None, ladder=True)


# -- ratings -----------------------------------------------------------------------


def _rating(row: PlayerRating | LadderPuzzle | None) -> Rating:
    return Rating() if row is None else Rating(row.rating, row.deviation, row.volatility)


def player_rating(session: Session, player_id: int, game: str) -> Rating:
    return _rating(session.get(PlayerRating, (player_id, game)))


def ratings(db: Database, player_id: int) -> dict[str, dict]:
    """The player's rating per game played on the ladder (``GET /api/player``)."""
    with db.session() as session:
        rows = session.scalars(select(PlayerRating).where(PlayerRating.player_id == player_id))
        return {
            row.game: {
                "rating": round(row.rating),
                "deviation": round(row.deviation),
                "attempts": row.attempts,
            }
            for row in rows
        }


def insert_new_rating(connection, table, **key) -> None:
    """Give ``key`` (and the row's other columns) a new rating in ``table`` unless it has
    one: an insert that does nothing on conflict, so two first games at once both go on
    to lock the one row instead of one failing."""
    new = Rating()
    connection.execute(
        insert_for(connection, table)
        .values(rating=new.rating, deviation=new.deviation, volatility=new.volatility, **key)
        .on_conflict_do_nothing()
    )


def _score(session: Session, game: LadderGame, score: float) -> None:
    """Score ``game`` once (a conditional update: a concurrent scorer loses), then
    move the player's rating and the puzzle's, each from the other's before."""
    scoring = update(LadderGame).where(LadderGame.id == game.id, LadderGame.score.is_(None))
    if not cast(CursorResult, session.execute(scoring.values(score=score))).rowcount:
        return
    insert_new_rating(
        session.connection(),
        PlayerRating.__table__,
        player_id=game.player_id,
        game=game.game,
        attempts=0,
    )
    player = session.get(PlayerRating, (game.player_id, game.game), with_for_update=True)
    puzzle = session.get(LadderPuzzle, game.puzzle, with_for_update=True)
    assert player is not None and puzzle is not None  # just made; never deleted
    before = player.rating
    after, moved = rate(_rating(player), _rating(puzzle), score)
    for row, value in ((player, after), (puzzle, moved)):
        row.rating, row.deviation, row.volatility = value.rating, value.deviation, value.volatility
        row.attempts += 1
    session.execute(
        update(LadderGame)
        .where(LadderGame.id == game.id)
        .values(rating_before=before, rating_after=after.rating)
    )


def _abandon(session: Session, player_id: int, game: str) -> None:
    """Score 0 the player's open ladder games of ``game`` (a new request while one is
    open). One open over :data:`ABANDON_SECONDS` needs nothing sooner: its result
    (:func:`score_attempt`) or the next request scores it 0 all the same."""
    query = select(LadderGame).where(
        LadderGame.player_id == player_id, LadderGame.game == game, LadderGame.score.is_(None)
    )
    for row in session.scalars(query).all():
        _score(session, row, 0.0)


def score_attempt(
    session: Session,
    player_id: int,
    puzzle: Challenge,
    ranking: AttemptRanking,
    length: int,
    now: dt.datetime,
) -> None:
    """Score the player's open ladder game for ``puzzle``, if any, in the transaction
    that stores the result (:func:`webapp.players.results.submit`): the line's score
    when the result is ranked (unaided, the attempt's first result) and within
    :data:`ABANDON_SECONDS` of the hand-out, else 0."""
    row = session.scalars(
        select(LadderGame).where(
            LadderGame.player_id == player_id,
            LadderGame.puzzle == puzzle.key,
            LadderGame.score.is_(None),
        )
    ).first()
    if row is None or puzzle.shortest is None:
        return
    late = (now - row.opened).total_seconds() > ABANDON_SECONDS
    _score(session, row, attempt_score(puzzle.shortest, length, late or not ranking.ranked))


def rating_change(db: Database, player_id: int, puzzle_key: str) -> dict | None:
    """``{before, after}``: how the player's rating moved when this ladder puzzle was
    scored (None: not a ladder puzzle of theirs, or not scored)."""
    with db.session() as session:
        row = session.execute(
            select(LadderGame.rating_before, LadderGame.rating_after).where(
                LadderGame.player_id == player_id, LadderGame.puzzle == puzzle_key
            )
        ).first()
    if row is None or row.rating_before is None:
        return None
    return {"before": round(row.rating_before), "after": round(row.rating_after)}


# -- the next puzzle ------------------------------------------------------------------


def _untried(player_id: int):
    return ~exists().where(Attempt.player_id == player_id, Attempt.puzzle == LadderPuzzle.puzzle)


def nearest(db: Database, player_id: int, game: str, target: float) -> LadderPuzzle | None:
    """The untried puzzle rated nearest ``target``: the first row each way along
    ``ix_ladder_puzzles_rating``."""
    base = select(LadderPuzzle).where(LadderPuzzle.game == game, _untried(player_id))
    with db.session() as session:
        above = session.scalars(
            base.where(LadderPuzzle.rating >= target).order_by(LadderPuzzle.rating).limit(1)
        ).first()
        below = session.scalars(
            base.where(LadderPuzzle.rating < target).order_by(LadderPuzzle.rating.desc()).limit(1)
        ).first()
        found = [row for row in (above, below) if row is not None]
        return min(found, key=lambda row: abs(row.rating - target)) if found else None


def _tried(db: Database, player_id: int, key: str) -> bool:
    with db.session() as session:
        return bool(
            session.scalar(
                select(Attempt.id).where(Attempt.player_id == player_id, Attempt.puzzle == key)
            )
        )


def _generate(
    db: Database, player_id: int, game: type[Game], how: Plan, target: float, make: Generate
) -> None:
    """A new puzzle for the player at the length ``target`` grades to, made by the page
    lane. Few boards lie at the longest lengths (two 3x3s at 31 moves): a board the
    player already tried is asked again a move shorter, up to :data:`GENERATE_TRIES`."""
    length = length_for(target, how.low, how.high)
    for _try in range(GENERATE_TRIES):
        puzzle = generate_into_pool(db, game, how, length, make)
        if puzzle is None:
            continue
        if not _tried(db, player_id, puzzle.key):
            return
        length = max(how.low, length - 1)


def generate_into_pool(
    db: Database, game: type[Game], how: Plan, length: int, make: Generate
) -> Challenge | None:
    """A new puzzle about ``length`` moves long, made by the page lane and added to the
    pool graded by its proven length (None: its length was not proven)."""
    assert how.params is not None
    made = make(how.params(length), secrets.randbelow(MAX_SEED), False)
    puzzle = generated_puzzle(game, made)
    if puzzle is None or puzzle.shortest is None:
        return None
    _add(db, [_pool_row(game, puzzle, graded(puzzle.shortest, how.low, how.high))])
    return puzzle


def serve(
    db: Database,
    player_id: int,
    game: type[Game],
    shift: str | None,
    now: dt.datetime,
    make: Generate,
) -> dict:
    """Hand the player their next ladder puzzle of ``game``: abandon the open one, pick
    (or have generated) the untried puzzle nearest their rating (``shift``: from
    :func:`checked_shift`), open its attempt."""
    how = plan(game)
    add_levels(db, game)
    with db.writing() as session:
        _abandon(session, player_id, game.name)
    with db.session() as session:
        rating = player_rating(session, player_id, game.name)
    target = wanted(rating, shift)
    row = nearest(db, player_id, game.name, target)
    if how.params is not None and (row is None or abs(row.rating - target) > NEAR):
        _generate(db, player_id, game, how, target, make)
        row = nearest(db, player_id, game.name, target)
    if row is None:
        raise RequestRefused(
            N_("no %(game)s puzzle left on the ladder for you"), 404, game=game.name
        )
    options = json.loads(row.options)
    puzzle = Challenge(game.name, row.board, options, row.shortest, None, row.level, ladder=True)
    try:
        with db.writing() as session:
            session.add(
                LadderGame(player_id=player_id, game=game.name, puzzle=row.puzzle, opened=now)
            )
    except IntegrityError:  # two requests at once picked the same puzzle: one gets it
        raise RequestRefused(N_("another request took that puzzle; ask again"), 409) from None
    open_attempt(db, player_id, puzzle, now)
    return {
        "game": game.name,
        "board": row.board,
        "options": options,
        "shortest": row.shortest,
        "level": row.level,
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "puzzle_rating": round(row.rating),
    }
