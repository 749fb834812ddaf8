"""The player's sessions (:mod:`webapp.players.sessions`): writes guarded like every other.

``GET /api/player/sessions`` -> ``{"sessions": [{"id", "created", "seen", "agent",
"current"}]}``; ``POST /api/player/sessions/<id>/end`` ends one (404 if it is not
the player's); ``POST /api/player/sessions/end-others`` ends all but this one.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from solver.core.text import N_

from ...players.sessions import end_others, end_session, list_sessions
from ...puzzle_request import RequestRefused
from ..bodies import read_json_body
from .context import current_player, state

blueprint = Blueprint("sessions", __name__)


def _token_and_session() -> tuple[str | None, int | None]:
    player = current_player()
    return (None, None) if player is None else (player.token, player.session_id)


@blueprint.get("/player/sessions")
def list_all():
    token, current = _token_and_session()
    return jsonify(sessions=list_sessions(state(), token, current))


@blueprint.post("/player/sessions/<int:session_id>/end")
def end_one(session_id: int):
    read_json_body()
    token, _current = _token_and_session()
    if not end_session(state(), token, session_id):
        raise RequestRefused(N_("you have no such session"), 404)
    return jsonify(ended=1)


@blueprint.post("/player/sessions/end-others")
def end_all_others():
    read_json_body()
    token, current = _token_and_session()
    if token is None:
        raise RequestRefused(N_("this browser plays as nobody yet"), 404)
    return jsonify(ended=end_others(state(), token, current))
