"""Streak and storm: runs of puzzles, each move judged by the server, the run kept in the database.

A **streak** serves one puzzle after another, each a little harder, with no clock;
it ends at the first move that does not take exactly one move off the proven
distance, and keeps that move and a closer one to show. A **storm** lasts
:data:`STORM_SECONDS` on the server's clock, serves small puzzles, and a move that
is not closer costs :data:`PENALTY_SECONDS`. A run's score is the puzzles solved.

Puzzles come from the ladder's source (:mod:`webapp.players.ladder`): its pool,
climbed by rating upward from the easiest length, a step per puzzle; the game's
generator adds one when none is near. Only games that generate ladder puzzles
offer runs: shipped levels would run out.

The run (its puzzle, the position reached, the moves judged) lives in its row, so a
reload resumes it and any web process answers the same. A move names the count of
moves it follows (``moves``): :func:`check_turn` refuses a stale one before the solver
is asked, and :func:`record_move` stores the judged move by one conditional update on
that count, so a move sent twice, or after the run moved on, changes nothing. A run ends when it
``expires``: a storm's time, or a streak left :data:`IDLE_SECONDS` without a move.

Ranked play's record of help applies (:mod:`webapp.players.helps`): an ``analyse`` or
``solve`` from the player's socket about the game and options of a run still running
marks it assisted, and an assisted run is never a best.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import func, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from solver.core.game import Game
from solver.core.text import N_

from ..jobs.contract import Judged
from ..jobs.model import TaskRefused
from ..puzzle_request import RequestRefused
from ..storage import Database
from ..storage.models import LadderPuzzle, Run
from .attempts import family
from .challenges import Challenge
from .ladder import Generate, Plan, add_levels, generate_into_pool, plan
from .ratings import ABANDON_SECONDS, GRADE_HIGH, GRADE_LOW, graded

MODES = ("streak", "storm")
STORM_SECONDS = 180
PENALTY_SECONDS = 10
#: a streak without a move this long is over (the ladder's abandoned attempt)
IDLE_SECONDS = ABANDON_SECONDS
#: where each mode's puzzles start (moves over the game's easiest) and how many moves
#: longer each next one aims, and at most (storm: small, quick ones; None: no cap)
CLIMB: dict[str, tuple[int, float, int | None]] = {
    "streak": (0, 1.0, None),
    "storm": (1, 0.5, 10),
}
#: pool puzzles near the wanted rating that one is drawn from
CHOICES = 4


def offered(game: type[Game]) -> bool:
    """Runs need puzzles without end: the games that generate ladder puzzles."""
    return game.ladder_lengths is not None


def checked(game: type[Game], mode: object) -> str:
    """``mode`` when it is a run ``game`` offers; else a 400 or 404 naming why."""
    if not isinstance(mode, str) or mode not in MODES:
        raise RequestRefused(N_("mode must be one of %(modes)s"), modes=", ".join(MODES))
    if not offered(game):
        raise RequestRefused(
            N_("%(game)s has no %(mode)s: its puzzles are shipped levels only"),
            404,
            game=game.name,
            mode=mode,
        )
    return mode


# -- puzzles ----------------------------------------------------------------------


def _length(how: Plan, mode: str, index: int) -> int:
    first, step, span = CLIMB[mode]
    length = how.low + first + round(step * index)
    return min(length, how.high, how.low + span if span is not None else how.high)


def _near(db: Database, game: str, target: float, band: float, skip: str) -> list[LadderPuzzle]:
    """Up to :data:`CHOICES` pool puzzles rated from ``target`` to ``target + band``,
    lowest first (one range read along ``ix_ladder_puzzles_rating``)."""
    with db.session() as session:
        return list(
            session.scalars(
                select(LadderPuzzle)
                .where(
                    LadderPuzzle.game == game,
                    LadderPuzzle.rating >= target,
                    LadderPuzzle.rating < target + band,
                    LadderPuzzle.puzzle != skip,
                )
                .order_by(LadderPuzzle.rating)
                .limit(CHOICES)
            )
        )


def next_puzzle(
    db: Database, game: type[Game], mode: str, index: int, make: Generate, skip: str = ""
) -> tuple[Challenge, float]:
    """The run's puzzle number ``index`` (from 0) and its rating: drawn from the pool
    puzzles rated about the length the climb has reached, else generated at it."""
    how = plan(game)
    add_levels(db, game)
    length = _length(how, mode, index)
    band = (GRADE_HIGH - GRADE_LOW) / max(1, how.high - how.low)  # one move's worth
    target = graded(length, how.low, how.high).rating - band / 2
    found = _near(db, game.name, target, band, skip)
    if found:
        row = random.choice(found)
        options = json.loads(row.options)
        return Challenge(game.name, row.board, options, row.shortest, None, ladder=True), row.rating
    made = generate_into_pool(db, game, how, length, make)
    if made is None or made.shortest is None:
        raise nothing_made(game.name)
    return made, graded(made.shortest, how.low, how.high).rating


def nothing_made(game: str) -> RequestRefused:
    """A generator that found no puzzle within its budget: a 503, as for a page task
    refused, with the same ``Retry-After`` (the next try usually finds one)."""
    return RequestRefused(
        N_("no %(game)s puzzle could be made now; try again"),
        TaskRefused.status,
        dict(TaskRefused.headers),
        game=game,
    )


# -- the run --------------------------------------------------------------------------


def seconds_left(run: Run, now: dt.datetime) -> float | None:
    """A storm's seconds left on the server's clock (None for a streak)."""
    if run.mode != "storm":
        return None
    return max(0.0, (run.expires - (run.ended or now)).total_seconds())


def _expires(mode: str, started: dt.datetime, penalties: int, now: dt.datetime) -> dt.datetime:
    if mode == "storm":
        return started + dt.timedelta(seconds=STORM_SECONDS - PENALTY_SECONDS * penalties)
    return now + dt.timedelta(seconds=IDLE_SECONDS)


def _expired(db: Database, run: Run, now: dt.datetime) -> Run:
    """End a run past its ``expires`` (at that moment)."""
    if run.ended is not None or now < run.expires:
        return run
    with db.writing() as session:
        session.execute(
            update(Run)
            .where(Run.id == run.id, Run.ended.is_(None))
            .values(ended=max(run.expires, run.started))
        )
    return _load(db, run.id)


def _load(db: Database, run_id: int) -> Run:
    with db.session() as session:
        run = session.get(Run, run_id)
        assert run is not None  # runs are never deleted but with their player
        session.expunge(run)
        return run


def run_options(run: Run) -> dict[str, Any]:
    """The options of the run's puzzle (every one, defaults filled in)."""
    return json.loads(run.options)


def view(db: Database, run: Run, now: dt.datetime) -> dict[str, Any]:
    """The run as the page shows it (``run``: its id)."""
    return {
        "run": run.id,
        "mode": run.mode,
        "game": run.game,
        "options": run_options(run),
        "start": run.start,
        "board": run.board,
        "shortest": run.shortest,
        "moves": run.moves,
        "solved": run.solved,
        "penalties": run.penalties,
        "seconds_left": None if (left := seconds_left(run, now)) is None else round(left, 1),
        "over": run.ended is not None,
        "assisted": run.assisted,
        "mistake": json.loads(run.mistake) if run.mistake else None,
        "best": best(db, run.player_id, run.mode, run.game),
    }


def start(
    db: Database,
    player: Callable[[Session], int],
    game: type[Game],
    mode: str,
    now: dt.datetime,
    make: Generate,
    address_key: str | None = None,
) -> Run:
    """A new run (the player's open run of this mode and game ends here), started from
    ``address_key`` (a keyed hash: :mod:`webapp.players.helps` counts its questions).
    ``player`` gives the player's id in the run's own write: a new player is made there,
    once the run has its puzzle, so a start refused makes nobody."""
    puzzle, rating = next_puzzle(db, game, mode, 0, make)
    with db.writing() as session:
        player_id = player(session)
        session.execute(
            update(Run)
            .where(
                Run.player_id == player_id,
                Run.mode == mode,
                Run.game == game.name,
                Run.ended.is_(None),
            )
            .values(ended=now)
        )
        run = Run(
            player_id=player_id,
            mode=mode,
            game=game.name,
            options=puzzle.options_json,
            family=family(game.name, puzzle.options_json),
            started=now,
            expires=_expires(mode, now, 0, now),
            day=now.date(),
            puzzle=puzzle.key,
            start=puzzle.board,
            board=puzzle.board,
            shortest=puzzle.shortest,
            rating=rating,
            moves=0,
            solved=0,
            penalties=0,
            assisted=False,
            address_key=address_key,
        )
        session.add(run)
        session.flush()
        run_id = run.id
    return _load(db, run_id)


def latest(db: Database, player_id: int, game: str, mode: str, now: dt.datetime) -> Run | None:
    """The player's latest run of ``mode`` and ``game`` (ended if it expired)."""
    with db.session() as session:
        run_id = session.scalar(
            select(Run.id)
            .where(Run.player_id == player_id, Run.mode == mode, Run.game == game)
            .order_by(Run.id.desc())
            .limit(1)
        )
    return None if run_id is None else _expired(db, _load(db, run_id), now)


def owned(db: Database, player_id: int | None, run_id: int, now: dt.datetime) -> Run:
    """The player's run ``run_id`` (404 for anyone else's), ended if it expired."""
    with db.session() as session:
        run = session.get(Run, run_id)
        if run is None or player_id is None or run.player_id != player_id:
            raise RequestRefused(N_("you have no such run"), 404)
    return _expired(db, _load(db, run_id), now)


def check_turn(run: Run, seen: object) -> None:
    """Refuse a move sent after ``seen`` moves before anyone judges it: a 400 for a
    count that is no count, a 409 when the run is over or has moved on since."""
    if isinstance(seen, bool) or not isinstance(seen, int):
        raise RequestRefused(N_("moves must be the count of moves the run had judged"))
    if run.ended is not None:
        raise RequestRefused(N_("this run is over; start another"), 409)
    if seen != run.moves:
        raise RequestRefused(
            N_("that move follows move %(seen)s; the run is at move %(moves)s"),
            409,
            seen=seen,
            moves=run.moves,
        )


def record_move(
    db: Database,
    run: Run,
    judged: Judged,
    now: dt.datetime,
    game: type[Game],
    make: Generate,
) -> None:
    """Store the move from the run's position, as the solver ``judged`` it (after
    :func:`check_turn`), and what follows: a streak ends at a move that is not closer,
    a storm loses :data:`PENALTY_SECONDS`; a solved puzzle brings the next. 409 when
    the run moved on meanwhile (nothing changes)."""
    values: dict[str, Any] = {"moves": run.moves + 1, "board": judged.board}
    penalties = run.penalties
    if not judged.closer:
        if run.mode == "streak":
            values["ended"] = now
            values["mistake"] = json.dumps(_mistake(run.board, judged))
        else:
            penalties = values["penalties"] = run.penalties + 1
    values["expires"] = _expires(run.mode, run.started, penalties, now)
    if judged.solved:
        puzzle, rating = next_puzzle(db, game, run.mode, run.solved + 1, make, skip=run.puzzle)
        values.update(
            solved=run.solved + 1,
            puzzle=puzzle.key,
            options=puzzle.options_json,
            family=family(run.game, puzzle.options_json),
            start=puzzle.board,
            board=puzzle.board,
            shortest=puzzle.shortest,
            rating=rating,
        )
    with db.writing() as session:
        stored = update(Run).where(Run.id == run.id, Run.moves == run.moves, Run.ended.is_(None))
        if not cast(CursorResult, session.execute(stored.values(**values))).rowcount:
            raise RequestRefused(N_("the run moved on meanwhile; this move was not counted"), 409)


def _mistake(before: str, judged: Judged) -> dict[str, Any]:
    """What ended a streak: the position, the move played and where it led, and a
    closer move with the position it reaches."""
    return {
        "board": before,
        "move": judged.move,
        "reached": judged.board,
        "distance": judged.before,
        "distance_after": judged.after,
        "better_move": judged.better_move,
        "better": judged.better,
    }


# -- bests ------------------------------------------------------------------------------


def best(db: Database, player_id: int, mode: str, game: str) -> int:
    """The player's most puzzles solved in one unassisted run of ``mode`` and ``game``."""
    with db.session() as session:
        found = session.scalar(
            select(func.max(Run.solved)).where(
                Run.player_id == player_id,
                Run.mode == mode,
                Run.game == game,
                Run.assisted.is_(False),
            )
        )
    return int(found or 0)


def bests(db: Database, player_id: int, today: dt.date) -> dict[str, dict]:
    """``{"streak": {game: best}, "storm": {game: {"today", "best"}}}`` for ``GET
    /api/player``: unassisted runs only, a few rows of ``ix_runs_best``."""
    unaided = (Run.player_id == player_id, Run.assisted.is_(False))
    per_game = select(Run.mode, Run.game, func.max(Run.solved)).where(*unaided)
    todays = select(Run.game, func.max(Run.solved)).where(
        *unaided, Run.mode == "storm", Run.day == today
    )
    with db.session() as session:
        alltime = session.execute(per_game.group_by(Run.mode, Run.game)).all()
        day = {game: n for game, n in session.execute(todays.group_by(Run.game))}
    streak = {game: n for mode, game, n in alltime if mode == "streak"}
    storm = {
        game: {"today": int(day.get(game, 0)), "best": n}
        for mode, game, n in alltime
        if mode == "storm"
    }
    return {"streak": streak, "storm": storm}
