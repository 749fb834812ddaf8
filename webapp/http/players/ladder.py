"""The ladder: ``POST /api/ladder/<game>`` ``{"shift"?: "easier"|"harder"}`` hands the
player their next puzzle near their rating (:func:`webapp.players.ladder.serve`);
``GET /api/ladder/<game>`` only reads the one open (404 when there is none).

Handing one out is a write (same site, within the write limits: :mod:`.context`): it
opens its ranked attempt and abandons the one still open (at most
``ABANDONS_PER_HOUR`` an hour, then 429); a puzzle the game's generator must make
first runs in the page lane (a 503 when it cannot: :mod:`.context` maps the refusal).
A link on another site can make nobody's browser drop its puzzle: a GET changes nothing.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from solver.core.text import N_

from ...players.ladder import checked_shift, open_puzzle, serve
from ...puzzle_request import RequestRefused, game_named
from ..bodies import read_json_body
from .context import current_player, held, state

blueprint = Blueprint("ladder", __name__)


@blueprint.post("/ladder/<name>")
def ladder_next(name: str):
    game = game_named(name)
    body = read_json_body()
    # ?shift= as before, for scripts; the page sends it in the body
    shift = checked_shift(body.get("shift", request.args.get("shift")))
    player = current_player(create=True)
    make = current_app.extensions["levels"].generator(game)
    abandons = int(current_app.config["ABANDONS_PER_HOUR"])
    players = state()
    return jsonify(
        serve(
            players.db,
            player.player_id,
            game,
            shift,
            players.now(),
            make,
            abandons,
            where=players.helps.holder_address(request.remote_addr),
            opened=held(player),
        )
    )


@blueprint.get("/ladder/<name>")
def ladder_open(name: str):
    game = game_named(name)
    player = current_player()
    found = (
        open_puzzle(state().db, player.player_id, game, state().now())
        if player is not None
        else None
    )
    if found is None:
        raise RequestRefused(
            N_("no %(game)s ladder puzzle is open for you: POST to this address for one"),
            404,
            game=game.name,
        )
    return jsonify(found)
