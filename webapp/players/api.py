"""The players' HTTP API: who I am, verified results, the daily and its leaderboard.

Contract ("Players, the daily and leaderboards"): ``POST /api/player``,
``POST /api/player/restore``, ``GET /api/daily/<game>``, ``POST /api/results``,
``GET /api/leaderboard/<game>``; beside them ``GET /api/player`` and
``POST /api/player/progress`` (the browser's old progress, imported once).
Every write goes through :func:`_guard` first (Origin, rate limits); every bad
request is a 4xx ``{"error"}`` and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import math

from flask import Blueprint, current_app, g, jsonify, request
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from solver.core.coach import accuracy
from solver.core.errors import BoardError
from solver.core.replay import MAX_LINE, Replay, check_count
from solver.core.text import N_
from solver.engine import MAX_BOARD_CHARS

from ..jobs.model import REPLAY, REPLAY_LANE, TaskRefused, TaskRequest
from ..protocol import message_fields
from ..puzzle_request import RequestRefused, game_named, read_json_body
from ..storage.models import ImportedProgress, Player, Result
from ..storage.outage import UNAVAILABLE
from .attempts import Verdict, judge, open_attempt
from .challenges import Challenge, daily_challenge, identify, ladder_challenge, level_challenge
from .choices import moves as chosen_moves
from .identity import (
    NameRefused,
    TooManyPlayers,
    address_key,
    check_name,
    code_hash,
    find_by_code,
    find_player,
    name_key,
    new_code,
    new_player,
)
from .ladder import checked_shift, level_ratings, rating_change, ratings, serve
from .ladder import finish as finish_ladder
from .limits import same_site
from .profile import race_rating
from .records import leaderboard as read_leaderboard
from .records import puzzle_counts, standing, store, streak
from .runs import bests as run_bests
from .sessions import cookie_player, session_cookie, set_player_cookie

log = logging.getLogger(__name__)

players = Blueprint("players", __name__, url_prefix="/api")

#: the longest line of the biggest board a game allows (a 10x10 Klotski board is 109
#: characters; quotes, a comma and a space each) and room for the other fields; other
#: writes keep the app's limit. The position count is checked before any parsing.
RESULT_BODY_BYTES = MAX_LINE * 120 + 2 * MAX_BOARD_CHARS + 4096
MAX_SECONDS = 7 * 24 * 3600
MAX_IMPORTED = 500  # progress entries imported from one browser


@players.errorhandler(RequestRefused)
def _refused(err: RequestRefused):
    return jsonify(error=str(err), **message_fields(err)), err.status, err.headers


@players.errorhandler(TooManyPlayers)
def _too_many_players(err: TooManyPlayers):
    g.pop("new_token", None)
    wait = {"Retry-After": str(err.wait)}
    return _refused(RequestRefused(err.TEMPLATE, 429, wait, seconds=err.wait))


@players.errorhandler(BoardError)
def _bad_board(err: BoardError):
    return _refused(RequestRefused(err))


# -- the plumbing every endpoint shares -------------------------------------------


def _state():
    return current_app.extensions["players"]


def _today() -> dt.date:
    return _state().now().date()


def _secret() -> str:
    """The app's cookie-signing key (text: the players' settings make it)."""
    return str(current_app.secret_key)


@players.before_request
def _guard():
    """Writes: same site only, and within the limits per address and per player."""
    g.player_token = cookie_player(_state(), _secret())  # sessions (webapp/players/sessions.py)
    if request.method != "POST":
        return
    config = current_app.config
    if not same_site(request.headers.get("Origin"), request.host_url, config["ALLOWED_ORIGINS"]):
        raise RequestRefused(N_("writes are accepted from this site's pages only"), 403)
    keys = {f"address:{request.remote_addr}": config["WRITES_PER_ADDRESS"]}
    if g.player_token and request.endpoint == "players.run_move":  # a storm is quick moves
        keys[f"moves:{g.player_token}"] = config["RUN_MOVES_PER_PLAYER"]
    elif g.player_token:
        keys[f"player:{g.player_token}"] = config["WRITES_PER_PLAYER"]
    wait = _state().limits.retry_after(keys)
    if wait is not None:
        raise RequestRefused(
            N_("too many writes; try again in %(seconds)s s"),
            429,
            {"Retry-After": str(wait)},
            seconds=wait,
        )


@players.after_request
def _remember(response):
    """Set the player cookie when this request created or moved the player (a new
    session), or turned an old cookie into a session."""
    token = g.get("new_token")
    if token and response.status_code < 400:
        # the write that made the player counts against the player's own limit too
        _state().limits.retry_after({f"player:{token}": current_app.config["WRITES_PER_PLAYER"]})
    cookie = session_cookie(_state(), _secret(), token if response.status_code < 400 else None)
    if cookie:
        set_player_cookie(response, cookie)
    return response


def _player(session, create: bool) -> Player | None:
    """The cookie's player; with ``create``, a new one when there is none."""
    player = find_player(session, g.player_token)
    if player is None and create:
        # at most NEW_PLAYERS_PER_ADDRESS an hour from one address (TooManyPlayers: 429)
        player = new_player(
            session,
            _state().now(),
            address_key(_secret(), request.remote_addr),
            current_app.config["NEW_PLAYERS_PER_ADDRESS"],
        )
        g.new_token = g.player_token = player.token
    return player


def _player_made(session) -> Player:
    """The cookie's player, made now when there is none."""
    player = _player(session, create=True)
    assert player is not None  # create=True always gives one
    return player


# -- players --------------------------------------------------------------------


@players.get("/player")
def whoami():
    with _state().db.session() as session:
        player = _player(session, create=False)
        if player is None:
            return jsonify(
                name=None,
                known=False,
                imported=False,
                ratings={},
                race_rating=None,
                streak={},
                storm={},
            )
        known = {"name": player.name, "known": True, "imported": player.imported is not None}
        player_id = player.id
    db = _state().db
    return jsonify(
        **known,
        ratings=ratings(db, player_id),
        race_rating=race_rating(db, player_id),
        **run_bests(db, player_id, _today()),
    )


@players.post("/player")
def name_player():
    """Set the display name; answers a fresh recovery code (the old one stops working)."""
    body = read_json_body()
    try:
        name = check_name(body.get("name"))
    except NameRefused as err:
        raise RequestRefused(err) from None
    code = new_code()
    try:
        with _state().db.writing() as session:
            player = _player_made(session)
            player.name = name
            player.name_key = name_key(name)  # unique: the database refuses a look-alike
            player.code_hash = code_hash(code)
    except IntegrityError:
        g.pop("new_token", None)
        raise RequestRefused(N_("that name, or one that looks like it, is taken"), 409) from None
    _state().boards.forget()  # the new name shows on every board at once
    return jsonify(name=name, code=code)


@players.post("/player/restore")
def restore_player():
    """Move the player whose recovery code this is to this browser."""
    body = read_json_body()
    with _state().db.session() as session:
        player = find_by_code(session, body.get("code"))
        if player is None:
            raise RequestRefused(N_("no player has that recovery code"), 404)
        g.new_token = player.token
        return jsonify(name=player.name)


@players.post("/player/progress")
def import_progress():
    """The browser's localStorage bests, imported once per player and never ranked."""
    body = read_json_body()
    entries = body.get("progress")
    if not isinstance(entries, dict) or len(entries) > MAX_IMPORTED:
        raise RequestRefused(
            N_("progress must be an object of at most %(count)s entries"), count=MAX_IMPORTED
        )
    rows = [_imported(key, value) for key, value in entries.items()]
    with _state().db.writing() as session:
        player = _player_made(session)
        if player.imported is not None:
            return jsonify(imported=0, already=True)
        player.imported = _state().now()
        session.flush()  # a new player's id
        if rows:
            # one executemany: 500 ORM objects flushed one by one held the loop ~0.2 s
            session.execute(insert(ImportedProgress), [{**r, "player_id": player.id} for r in rows])
    return jsonify(imported=len(rows), already=False)


def _count(value, name: str, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1_000_000:
        raise RequestRefused(N_("%(name)s must be a whole number"), name=name)
    return value


def _imported(key, value) -> dict:
    if not isinstance(key, str) or not 1 <= len(key) <= 2200 or not isinstance(value, dict):
        raise RequestRefused(N_("each progress entry is key: {moves, extra, min, at}"))
    at = value.get("at")
    return {
        "key": key,
        "moves": _count(value.get("moves"), "moves"),
        "extra": _count(value.get("extra", 0), "extra"),
        "min": _count(value.get("min"), "min", allow_none=True),
        "at": at[:10] if isinstance(at, str) else None,
    }


# -- results and the daily ----------------------------------------------------------


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
    flooding address from delaying the others. BoardError for a bad line, 503 when over budget."""
    task = TaskRequest(
        puzzle.game,
        {
            "board": puzzle.board,
            "options": puzzle.options,
            "states": states,
            "shortest": puzzle.shortest,
        },
    )
    try:
        done = current_app.extensions["jobs"].page_task(
            REPLAY,
            task,
            float(current_app.config["REPLAY_SECONDS"]),
            address=request.remote_addr or "",
            player=g.player_token or "",
            lane_name=REPLAY_LANE,
        )
    except TaskRefused as err:
        raise RequestRefused(str(err), 503, {"Retry-After": "5"}) from None
    return Replay(tuple(done["states"]), done["length"])


@players.post("/results")
def submit_result():
    body = read_json_body(RESULT_BODY_BYTES)
    game = game_named(body.get("game"))
    seconds = _seconds(body.get("seconds", 0))
    assisted = body.get("assisted", False)
    if not isinstance(assisted, bool):
        raise RequestRefused(N_("assisted must be true or false"))
    state = _state()
    today = _today()
    states = body.get("states") or []
    check_count(states)  # over MAX_LINE: refused before the puzzle is even identified
    puzzle, _domain = identify(game, body.get("board"), body.get("options"), today, state.daily)
    puzzle = ladder_challenge(state.db, puzzle)  # a generated board the ladder served is ranked
    check_count(states, puzzle.shortest)
    replay = _replayed(puzzle, states)
    with state.db.session() as session:  # most players exist: no write lock to read them
        player = _player(session, create=False)
    if player is None:
        with state.db.writing() as session:
            player = _player_made(session)
    player_id = player.id
    # ranked play: the server's clock and its record of help judge (webapp.players.attempts)
    state.helps.settle(g.player_token)
    now = state.now()

    def judging(session) -> Verdict:
        """Judge and end the attempt, and score a ladder game's first result, in the
        result's own transaction."""
        verdict = judge(session, player_id, puzzle, seconds, assisted, now)
        finish_ladder(session, player_id, puzzle, verdict, replay.length, now)
        return verdict

    stored = store(state.db, player_id, puzzle, replay, now, judging)
    if stored.created:
        state.boards.stored(puzzle.key, stored.change)
    reply = {
        **_result_fields(stored.result),
        "daily": puzzle.day.isoformat() if puzzle.day else None,
        "level": puzzle.level,
        **_standing_after(state, player_id, puzzle.key, game.name, today),
    }
    moved = rating_change(state.db, player_id, puzzle.key)
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


def _standing_after(state, player_id: int, key: str, game: str, today: dt.date) -> dict:
    """Rank and streak once the result is stored. A database too busy to answer them now
    must not turn a stored result into a 503 (the page would send it again, believing it
    lost): they come back empty, and the page's leaderboard read fills them in."""
    try:
        return {
            **standing(state.db, player_id, key),
            "streak": streak(state.db, player_id, game, today),
        }
    except UNAVAILABLE as err:
        log.warning("result stored, standing not read: %s", type(err).__name__)
        return {"rank": None, "beat": None, "players": None, "streak": None}


def _day(text) -> dt.date:
    if text in (None, ""):
        return _today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise RequestRefused(
            N_("date must be YYYY-MM-DD, not %(text)s"), text=repr(str(text)[:20])
        ) from None


@players.get("/daily/<name>")
def daily(name: str):
    """Today's daily; handing it to the player opens their ranked attempt (its clock)."""
    game = game_named(name)
    day = _today()
    state = _state()
    puzzle = daily_challenge(game, day, state.daily)
    with state.db.session() as session:  # most players exist: no write lock to read them
        player = _player(session, create=False)
    if player is None:
        try:  # within the address's hourly share of new players, else unranked
            with state.db.writing() as session:
                player = _player_made(session)
        except TooManyPlayers:
            player = None
    if player is not None:
        open_attempt(state.db, player.id, puzzle, state.now())
    return jsonify(
        game=game.name,
        date=day.isoformat(),
        board=puzzle.board,
        options=puzzle.options,
        shortest=puzzle.shortest,
    )


@players.get("/ladder/<name>")
def ladder_next(name: str):
    """The player's next ladder puzzle (``?shift=easier|harder``); handing it out opens
    its ranked attempt and abandons the one still open (webapp.players.ladder)."""
    game = game_named(name)
    shift = checked_shift(request.args.get("shift"))  # refused before anything is written
    state = _state()
    with state.db.session() as session:  # most players exist: no write lock to read them
        player = _player(session, create=False)
    if player is None:
        with state.db.writing() as session:
            player = _player_made(session)
    make = current_app.extensions["levels"].generator(game)
    try:
        reply = serve(state.db, player.id, game, shift, state.now(), make)
    except TaskRefused as err:
        raise RequestRefused(str(err), 503, {"Retry-After": "5"}) from None
    return jsonify(reply)


def _puzzle_from_query(game) -> Challenge:
    """A daily or shipped level named by ``?board=`` and its options (other parameters)."""
    board = request.args.get("board")
    if not board:
        raise RequestRefused(N_("name the puzzle: ?board= and its options"))
    skip = ("board", "date", "position")
    options = {k: v for k, v in request.args.items() if k not in skip}
    puzzle, _domain = identify(game, board, options, _today(), _state().daily)
    if not puzzle.rankable:
        raise RequestRefused(N_("that board is neither a daily nor a shipped level"), 404)
    return puzzle


@players.get("/levels/<name>")
def level_stats(name: str):
    """Each shipped level's players, solve rate and optimal rate, and its ladder rating
    with deviation (the lobby's cards)."""
    game = game_named(name)
    levels = [(level, level_challenge(game, level)) for level in game.distinct_levels()]
    counts = puzzle_counts(_state().db, [puzzle.key for _level, puzzle in levels])
    rated = level_ratings(_state().db, game)
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


@players.get("/choices/<name>")
def choices(name: str):
    """What players chose from ``?position=`` of the puzzle ``?board=`` (with options)."""
    game = game_named(name)
    puzzle = _puzzle_from_query(game)
    position = request.args.get("position") or puzzle.board
    domain = game.make_domain(**game.check_options(puzzle.options))
    domain.parse(puzzle.board)  # fixes the board's geometry (Klotski) before the position
    state = _state()
    return jsonify(chosen_moves(state.db, domain, puzzle.key, position))


@players.get("/leaderboard/<name>")
def leaderboard(name: str):
    """A daily's leaderboard (``?date=``, default today), or a shipped level's
    (``?board=`` with the level's options as further parameters)."""
    game = game_named(name)
    state = _state()
    if request.args.get("board"):
        puzzle = _puzzle_from_query(game)
        day = puzzle.day
    else:
        day = _day(request.args.get("date"))
        if day > _today():
            raise RequestRefused(N_("that day's daily is not out yet"), 404)
        puzzle = daily_challenge(game, day, state.daily)
    me = g.get("player_id")  # the cookie's player (_guard), without reading it again
    read = read_leaderboard(state.db, puzzle.key, me, state.boards)
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
        reply["streak"] = streak(state.db, me, game.name, _today())
    return jsonify(reply)
