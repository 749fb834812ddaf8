"""The player's page (:mod:`webapp.players.profile`): the write guarded like every other.

``GET /api/player/history/<game>`` -> ``{"game", "start", "points": [{"rating",
"day"}]}``; ``GET /api/player/strengths`` -> ``{"groups", "strengths", "weaknesses",
"min_attempts", "window"}``; ``POST /api/player/code`` -> ``{"code"}``: a new recovery
code, since only a hash of the old one is kept (it stops working).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from solver.core.text import N_

from ...players.identity import code_hash, new_code
from ...players.profile import MIN_ATTEMPTS, WINDOW, history, strengths
from ...puzzle_request import RequestRefused, game_named
from ...storage.models import Player
from ..bodies import read_json_body
from .context import current_player, state

blueprint = Blueprint("profile", __name__)


@blueprint.get("/player/history/<name>")
def rating_history(name: str):
    game = game_named(name)
    player = current_player()
    if player is None:
        return jsonify(game=game.name, start=None, points=[])
    return jsonify(history(state().db, player.player_id, game.name))


@blueprint.get("/player/strengths")
def player_strengths():
    player = current_player()
    if player is None:
        return jsonify(
            groups=[], strengths=[], weaknesses=[], min_attempts=MIN_ATTEMPTS, window=WINDOW
        )
    return jsonify(strengths(state().db, player.player_id))


@blueprint.post("/player/code")
def recovery_code():
    """A fresh recovery code for this browser's player, shown once."""
    read_json_body()
    code = new_code()
    signed = current_player()
    with state().db.writing() as session:
        player = session.get(Player, signed.player_id) if signed is not None else None
        if player is None:
            raise RequestRefused(N_("this browser plays as nobody yet"), 404)
        player.code_hash = code_hash(code)
    return jsonify(code=code)
