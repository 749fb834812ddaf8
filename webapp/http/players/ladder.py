"""The ladder: ``GET /api/ladder/<game>`` (``?shift=easier|harder``), the player's next
puzzle near their rating (:func:`webapp.players.ladder.serve`).

Handing it out opens its ranked attempt and abandons the one still open; a puzzle
the game's generator must make first runs in the page lane (a 503 when it cannot:
:mod:`.context` maps the refusal).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from ...players.ladder import checked_shift, serve
from ...puzzle_request import game_named
from .context import current_player, state

blueprint = Blueprint("ladder", __name__)


@blueprint.get("/ladder/<name>")
def ladder_next(name: str):
    game = game_named(name)
    shift = checked_shift(request.args.get("shift"))  # refused before anything is written
    player = current_player(create=True)
    make = current_app.extensions["levels"].generator(game)
    return jsonify(serve(state().db, player.player_id, game, shift, state().now(), make))
