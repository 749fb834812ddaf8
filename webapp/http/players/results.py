"""Results and boards: ``POST /api/results``, ``GET /api/daily/<game>``,
``GET /api/leaderboard/<game>``, ``GET /api/levels/<game>`` and ``GET /api/choices/<game>``.

Contract ("Players, the daily and leaderboards", "Ranked play"). A result's line is
replayed by a solver process (:mod:`webapp.http.page_tasks`), never on the loop, and
stored with its ranking (:func:`webapp.players.results.submit`); handing out the
daily opens its ranked attempt (its clock).
"""

from __future__ import annotations

import datetime as dt
import logging
import math

from flask import Blueprint, current_app, jsonify, request

from solver.core.coach import accuracy
from solver.core.replay import MAX_LINE, Replay, check_count
from solver.core.text import N_
from solver.engine import MAX_BOARD_CHARS

from ...jobs.contract import ReplayLine
from ...jobs.model import REPLAY_LANE
from ...players.attempts import open_attempt
from ...players.challenges import (
    Challenge,
    daily_challenge,
    identify,
    ladder_challenge,
    level_challenge,
)
from ...players.choices import moves as chosen_moves
from ...players.identity import TooManyPlayers
from ...players.ladder import level_ratings, rating_change
from ...players.leaderboards import leaderboard as read_leaderboard
from ...players.leaderboards import puzzle_counts, standing
from ...players.results import submit
from ...players.streaks import streak
from ...puzzle_request import RequestRefused, game_named
from ...storage.models import Result
from ...storage.outage import UNAVAILABLE
from ..bodies import read_json_body
from ..page_tasks import ask
from .context import current_player, state, today

log = logging.getLogger(__name__)

blueprint = Blueprint("results", __name__)

#: the longest line of the biggest board a game allows (a 10x10 Klotski board is 109
#: characters; quotes, a comma and a space each) and room for the other fields; other
#: writes keep the app's limit. The position count is checked before any parsing.
RESULT_BODY_BYTES = MAX_LINE * 120 + 2 * MAX_BOARD_CHARS + 4096
MAX_SECONDS = 7 * 24 * 3600


def _seconds(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RequestRefused(N_("seconds must be a number"))
    # compared before anything converts it: float(10**400) would raise OverflowError
    if isinstance(value, float) and not math.isfinite(value):
        raise RequestRefused(N_("seconds must be a number"))
    if not 0 <= value <= MAX_SECONDS:
        raise RequestRefused(N_("seconds must be from 0 to %(max)s"), max=MAX_SECONDS)
    return round(float(value), 2)


def _replayed(puzzle: Challenge, states: list) -> Replay:
    """``states`` replayed by a solver process within ``REPLAY_SECONDS`` (never on the
    web process's loop: a long line of a big board takes seconds); the request waits
    cooperatively, and the replay lane's fair shares (by address, then player) keep one
    flooding address from delaying the others. A 400 for a bad line, 503 when over budget."""
    task = ReplayLine(puzzle.game, puzzle.board, puzzle.options, tuple(states), puzzle.shortest)
    signed = current_player()
    return ask(
        task,
        float(current_app.config["REPLAY_SECONDS"]),
        address=request.remote_addr or "",
        player=signed.token if signed is not None else "",
        lane=REPLAY_LANE,
    )


@blueprint.post("/results")
def submit_result():
    body = read_json_body(RESULT_BODY_BYTES)
    game = game_named(body.get("game"))
    seconds = _seconds(body.get("seconds", 0))
    assisted = body.get("assisted", False)
    if not isinstance(assisted, bool):
        raise RequestRefused(N_("assisted must be true or false"))
    players = state()
    day = today()
    states = body.get("states") or []
    check_count(states)  # over MAX_LINE: refused before the puzzle is even identified
    puzzle, _domain = identify(game, body.get("board"), body.get("options"), day, players.daily)
    puzzle = ladder_challenge(players.db, puzzle)  # a generated board the ladder served is ranked
    check_count(states, puzzle.shortest)
    replay = _replayed(puzzle, states)
    player = current_player(create=True)
    # ranked play: the server's clock and its record of help rank it (webapp.players.attempts)
    players.helps.settle(player.token)
    stored = submit(players.db, player.player_id, puzzle, replay, seconds, assisted, players.now())
    if stored.created:
        players.boards.stored(puzzle.key, stored.change)
    reply = {
        **_result_fields(stored.result),
        "daily": puzzle.day.isoformat() if puzzle.day else None,
        "level": puzzle.level,
        **_standing_after(player.player_id, puzzle.key, game.name, day),
    }
    moved = rating_change(players.db, player.player_id, puzzle.key)
    if moved is not None:  # a ladder puzzle: how its first result moved the player's rating
        reply["rating"] = moved
    return jsonify(reply), 201 if stored.created else 200


def _result_fields(result: Result) -> dict:
    shortest = result.shortest
    return {
        "id": result.id,
        "length": result.length,
        "shortest": shortest,
        "optimal": shortest is not None and result.length == shortest,
        "accuracy": accuracy(shortest, result.length) if shortest else None,
        "ranked": result.ranked,
        "assisted": result.assisted,
    }


def _standing_after(player_id: int, key: str, game: str, day: dt.date) -> dict:
    """Rank and streak once the result is stored. A database too busy to answer them now
    must not turn a stored result into a 503 (the page would send it again, believing it
    lost): they come back empty, and the page's leaderboard read fills them in."""
    db = state().db
    try:
        return {**standing(db, player_id, key), "streak": streak(db, player_id, game, day)}
    except UNAVAILABLE as err:
        log.warning("result stored, standing not read: %s", type(err).__name__)
        return {"rank": None, "beat": None, "players": None, "streak": None}


def _day(text) -> dt.date:
    if text in (None, ""):
        return today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise RequestRefused(
            N_("date must be YYYY-MM-DD, not %(text)s"), text=repr(str(text)[:20])
        ) from None


@blueprint.get("/daily/<name>")
def daily(name: str):
    """Today's daily; handing it to the player opens their ranked attempt (its clock)."""
    game = game_named(name)
    day = today()
    players = state()
    puzzle = daily_challenge(game, day, players.daily)
    try:  # within the address's hourly share of new players, else unranked
        player = current_player(create=True)
    except TooManyPlayers:
        player = None
    if player is not None:
        open_attempt(players.db, player.player_id, puzzle, players.now())
    return jsonify(
        game=game.name,
        date=day.isoformat(),
        board=puzzle.board,
        options=puzzle.options,
        shortest=puzzle.shortest,
    )


def _puzzle_from_query(game) -> Challenge:
    """A daily or shipped level named by ``?board=`` and its options (other parameters)."""
    board = request.args.get("board")
    if not board:
        raise RequestRefused(N_("name the puzzle: ?board= and its options"))
    skip = ("board", "date", "position")
    options = {k: v for k, v in request.args.items() if k not in skip}
    puzzle, _domain = identify(game, board, options, today(), state().daily)
    if not puzzle.rankable:
        raise RequestRefused(N_("that board is neither a daily nor a shipped level"), 404)
    return puzzle


@blueprint.get("/levels/<name>")
def level_stats(name: str):
    """Each shipped level's players, solve rate and optimal rate, and its ladder rating
    with deviation (the lobby's cards)."""
    game = game_named(name)
    levels = [(level, level_challenge(game, level)) for level in game.distinct_levels()]
    counts = puzzle_counts(state().db, [puzzle.key for _level, puzzle in levels])
    rated = level_ratings(state().db, game)
    stats = []
    for level, puzzle in levels:
        seen = counts.get(puzzle.key, {"players": 0, "solved": 0, "optimal": 0})
        players_ = seen["players"]
        stats.append(
            {
                "board": level["board"],
                "options": level.get("options", {}),
                **seen,
                "solve_rate": round(100 * seen["solved"] / players_) if players_ else None,
                "optimal_rate": round(100 * seen["optimal"] / players_) if players_ else None,
                **rated.get(puzzle.key, {}),
            }
        )
    return jsonify(game=game.name, levels=stats)


@blueprint.get("/choices/<name>")
def choices(name: str):
    """What players chose from ``?position=`` of the puzzle ``?board=`` (with options)."""
    game = game_named(name)
    puzzle = _puzzle_from_query(game)
    position = request.args.get("position") or puzzle.board
    domain = game.make_domain(**game.check_options(puzzle.options))
    domain.parse(puzzle.board)  # fixes the board's geometry (Klotski) before the position
    return jsonify(chosen_moves(state().db, domain, puzzle.key, position))


@blueprint.get("/leaderboard/<name>")
def leaderboard(name: str):
    """A daily's leaderboard (``?date=``, default today), or a shipped level's
    (``?board=`` with the level's options as further parameters)."""
    game = game_named(name)
    players = state()
    if request.args.get("board"):
        puzzle = _puzzle_from_query(game)
        day = puzzle.day
    else:
        day = _day(request.args.get("date"))
        if day > today():
            raise RequestRefused(N_("that day's daily is not out yet"), 404)
        puzzle = daily_challenge(game, day, players.daily)
    signed = current_player()
    me = signed.player_id if signed is not None else None
    read = read_leaderboard(players.db, puzzle.key, me, players.boards)
    reply = {
        "game": game.name,
        "date": day.isoformat() if day else None,
        "board": puzzle.board,
        "options": puzzle.options,
        "level": puzzle.level,
        "shortest": puzzle.shortest,
        "players": read["players"],
        "entries": [
            {"rank": e.rank, "name": e.name, "length": e.length, "seconds": e.seconds}
            for e in read["entries"]
        ],
        "distribution": read["distribution"],
        "me": read["me"],
    }
    if me is not None and day is not None:
        reply["streak"] = streak(players.db, me, game.name, today())
    return jsonify(reply)
