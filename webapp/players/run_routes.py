"""Streak and storm on the players' API (writes guarded like every other write; a run's
moves have their own, larger, per-player limit).

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

from flask import current_app, g, jsonify, request

from ..puzzle_request import game_named, read_json_body
from .api import _player, _player_made, _state, players
from .judged import judge
from .runs import check_turn, checked, latest, owned, record_move, run_options, start, view


def _make(game):
    return current_app.extensions["levels"].generator(game)


@players.post("/runs")
def start_run():
    body = read_json_body()
    game = game_named(body.get("game"))
    mode = checked(game, body.get("mode"))
    state = _state()
    with state.db.writing() as session:
        player_id = _player_made(session).id
    run = start(state.db, player_id, game, mode, state.now(), _make(game))
    return jsonify(view(state.db, run, state.now())), 201


@players.get("/runs/<mode>/<name>")
def latest_run(mode: str, name: str):
    game = game_named(name)
    checked(game, mode)
    state = _state()
    with state.db.session() as session:
        player = _player(session, create=False)
        player_id = player.id if player is not None else None
    run = None if player_id is None else latest(state.db, player_id, game.name, mode, state.now())
    if run is None:  # not an error: the page offers to start one
        return jsonify(run=None, best=0)
    return jsonify(view(state.db, run, state.now()))


@players.post("/runs/<int:run_id>/moves")
def run_move(run_id: int):
    body = read_json_body()
    state = _state()
    with state.db.session() as session:
        player = _player(session, create=False)
        player_id = player.id if player is not None else None
    run = owned(state.db, player_id, run_id, state.now())
    state.helps.settle(g.player_token)  # help this player's sockets just asked is on record
    game = game_named(run.game)
    now = state.now()
    check_turn(run, body.get("moves"))
    address, token = request.remote_addr or "", g.player_token or ""
    judged = judge(run.game, run_options(run), run.board, body.get("board"), address, token)
    record_move(state.db, run, judged, now, game, _make(game))
    reply = view(state.db, owned(state.db, player_id, run_id, state.now()), state.now())
    reply["last"] = {
        "move": judged.move,
        "board": judged.board,
        "closer": judged.closer,
        "solved": judged.solved,
    }
    return jsonify(reply)
