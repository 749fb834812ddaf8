"""The player's page's routes on the players' API (the write guarded like every other).

``GET /api/player/history/<game>`` -> ``{"game", "start", "points": [{"rating",
"day"}]}``; ``GET /api/player/strengths`` -> ``{"groups", "strengths", "weaknesses",
"min_attempts", "window"}`` (:mod:`.profile`); ``POST /api/player/code`` -> ``{"code"}``:
a new recovery code, since only a hash of the old one is kept (it stops working).
"""

from __future__ import annotations

from flask import g, jsonify

from solver.core.text import N_

from ..puzzle_request import RequestRefused, game_named, read_json_body
from .api import _state, players
from .identity import code_hash, find_player, new_code
from .profile import MIN_ATTEMPTS, WINDOW, history, strengths


def _player_id() -> int | None:
    with _state().db.session() as session:
        player = find_player(session, g.player_token)
        return None if player is None else player.id


@players.get("/player/history/<name>")
def rating_history(name: str):
    game = game_named(name)
    player_id = _player_id()
    if player_id is None:
        return jsonify(game=game.name, start=None, points=[])
    return jsonify(history(_state().db, player_id, game.name))


@players.get("/player/strengths")
def player_strengths():
    player_id = _player_id()
    if player_id is None:
        return jsonify(
            groups=[], strengths=[], weaknesses=[], min_attempts=MIN_ATTEMPTS, window=WINDOW
        )
    return jsonify(strengths(_state().db, player_id))


@players.post("/player/code")
def recovery_code():
    """A fresh recovery code for this browser's player, shown once."""
    read_json_body()
    code = new_code()
    with _state().db.writing() as session:
        player = find_player(session, g.player_token)
        if player is None:
            raise RequestRefused(N_("this browser plays as nobody yet"), 404)
        player.code_hash = code_hash(code)
    return jsonify(code=code)
