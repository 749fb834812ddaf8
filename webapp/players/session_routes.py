"""The sessions' routes on the players' API (writes guarded like every other write).

``GET /api/player/sessions`` -> ``{"sessions": [{"id", "created", "seen", "agent",
"current"}]}``; ``POST /api/player/sessions/<id>/end`` ends one (404 if it is not
the player's); ``POST /api/player/sessions/end-others`` ends all but this one.
"""

from __future__ import annotations

from flask import g, jsonify

from solver.core.text import N_

from ..puzzle_request import RequestRefused, read_json_body
from .api import _state, players
from .sessions import end_others, end_session, list_sessions


@players.get("/player/sessions")
def sessions():
    return jsonify(sessions=list_sessions(_state(), g.player_token, g.get("session_id")))


@players.post("/player/sessions/<int:session_id>/end")
def end_one(session_id: int):
    read_json_body()
    if not end_session(_state(), g.player_token, session_id):
        raise RequestRefused(N_("you have no such session"), 404)
    return jsonify(ended=1)


@players.post("/player/sessions/end-others")
def end_all_others():
    read_json_body()
    if g.player_token is None:
        raise RequestRefused(N_("this browser plays as nobody yet"), 404)
    return jsonify(ended=end_others(_state(), g.player_token, g.get("session_id")))
