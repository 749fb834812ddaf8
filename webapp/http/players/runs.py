"""Streak and storm (:mod:`webapp.players.runs`): writes guarded like every other write; a
run's moves have their own, larger, per-player limit.

- ``POST /api/runs`` ``{"mode": "streak"|"storm", "game"}`` -> 201, the new run (the
  player's open run of that mode and game ends).
- ``GET /api/runs/<mode>/<game>`` -> 200, the player's latest run (a reload resumes it),
  or ``{"run": null, "best": 0}`` when there is none.
- ``POST /api/runs/<id>/moves`` ``{"moves": n, "board"}`` -> 200, the run after the move
  with ``last`` (the move judged: ``move``, ``board``, ``closer``, ``solved``); 400 for a
  board that is not one legal move from the run's position, 409 when the run is over or
  is no longer at move ``n``: nothing changes.

A run is ``{"run", "mode", "game", "options", "start", "board", "shortest", "moves",
"solved", "penalties", "seconds_left" (storm; None for a streak), "over", "assisted",
"mistake" ({"board", "move", "reached", "distance", "distance_after", "better_move",
"better"} when a streak ended), "best"}``.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from sqlalchemy.orm import Session

from ...players.runs import (
    check_turn,
    checked,
    latest,
    owned,
    record_move,
    run_options,
    start,
    view,
)
from ...puzzle_request import game_named
from ..bodies import read_json_body
from ..page_tasks import judge
from .context import current_player, state

blueprint = Blueprint("runs", __name__)


def _make(game):
    return current_app.extensions["levels"].generator(game)


@blueprint.post("/runs")
def start_run():
    body = read_json_body()
    game = game_named(body.get("game"))
    mode = checked(game, body.get("mode"))
    players = state()
    where = players.helps.holder_address(request.remote_addr)
    run = start(players.db, _player_id, game, mode, players.now(), _make(game), where)
    player = current_player(create=True)  # the one the run's write found or made
    players.helps.hold_run(run, player.token)  # help asked about it counts from now on
    return jsonify(view(players.db, run, players.now())), 201


def _player_id(session: Session) -> int:
    """The cookie's player, or a new one made in ``session`` (the run's write)."""
    return current_player(create=True, session=session).player_id


@blueprint.get("/runs/<mode>/<name>")
def latest_run(mode: str, name: str):
    game = game_named(name)
    checked(game, mode)
    players = state()
    player = current_player()
    if player is None:
        run = None
    else:
        run = latest(players.db, player.player_id, game.name, mode, players.now())
    if run is None:  # not an error: the page offers to start one
        return jsonify(run=None, best=0)
    return jsonify(view(players.db, run, players.now()))


@blueprint.post("/runs/<int:run_id>/moves")
def run_move(run_id: int):
    body = read_json_body()
    players = state()
    player = current_player()
    player_id = player.player_id if player is not None else None
    run = owned(players.db, player_id, run_id, players.now())
    token = player.token if player is not None else None
    players.helps.settle(token)  # help this player's sockets just asked is on record
    game = game_named(run.game)
    now = players.now()
    check_turn(run, body.get("moves"))
    judged = judge(run.game, run_options(run), run.board, body.get("board"), token or "")
    record_move(players.db, run, judged, now, game, _make(game))
    moved = owned(players.db, player_id, run_id, players.now())
    if moved.ended is None and token is not None:  # the position it reached is seen in it
        players.helps.hold_run(moved, token)
    reply = view(players.db, moved, players.now())
    reply["last"] = {
        "move": judged.move,
        "board": judged.board,
        "closer": judged.closer,
        "solved": judged.solved,
    }
    return jsonify(reply)
