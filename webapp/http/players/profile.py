"""The player's page (:mod:`webapp.players.profile`): the write guarded like every other.

``GET /api/player/profile`` -> ``{"name", "today", "dailies": {"<game>": {"streak",
"days": [{"day", "length", "shortest", "seconds", "result", "replay"}]}}, "levels": [{"game",
"name", "pack", "url", "length", "shortest", "replay"}], "race": {"rating",
"deviation", "races", "points"} or null, "recent": [{"id", "game", "level", "day",
"length", "shortest", "seconds", "ranked", "assisted", "created", "play", "replay"}]}``:
bounded, indexed reads of the player's own rows (nothing for a browser with no player);
``GET /api/player/results/<id>`` -> ``{"id", "game", "board", "options", "length",
"states"}``, one of the player's own results with its line, for its replay (404 else).
``GET /api/player/history/<game>`` -> ``{"game", "start", "points": [{"rating",
"day"}]}``; ``GET /api/player/strengths`` -> ``{"groups", "strengths", "weaknesses",
"min_attempts", "window"}``; ``POST /api/player/code`` -> ``{"code"}``: a new recovery
code, since only a hash of the old one is kept (it stops working).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from solver import catalogue
from solver.core.text import N_

from ...levels.facts import level_ref
from ...players.identity import code_hash, new_code
from ...players.profile import (
    MIN_ATTEMPTS,
    WINDOW,
    dailies,
    history,
    level_of,
    levels_solved,
    race_history,
    race_rating,
    recent_results,
    result_line,
    strengths,
)
from ...puzzle_request import RequestRefused, game_named
from ...storage.models import Player
from ..bodies import read_json_body
from ..links import play_url
from .context import current_player, state, today

blueprint = Blueprint("profile", __name__)


@blueprint.get("/player/history/<name>")
def rating_history(name: str):
    game = game_named(name)
    player = current_player()
    if player is None:
        return jsonify(game=game.name, start=None, points=[])
    return jsonify(history(state().db, player.player_id, game.name))


def _level_url(game_name: str, level: dict, value) -> str:
    """A shipped level's own (ranked) link, under the progress value it was solved in."""
    game = catalogue.games()[game_name]
    own = game.progress_value(level.get("options", {}))
    extra = {game.progress_option: value} if game.progress_option and value != own else {}
    return play_url(game_name, level=level_ref(game, level), **extra)


def _replay_url(game: str, board: str, options: dict, result: int) -> str:
    """The free-play page of a result's start that plays the result's line back."""
    return play_url(game, board, **options, replay=result)


def _day(game: str, day: dict) -> dict:
    board, options = day.pop("board"), day.pop("options")
    replayable = day.pop("replayable")
    return {
        **day,
        "replay": _replay_url(game, board, options, day["result"]) if replayable else None,
    }


def _recent(row: dict) -> dict:
    named = level_of(row.pop("puzzle"))
    board, options = row.pop("board"), row.pop("options")
    replayable = row.pop("replayable")
    return {
        **row,
        "level": named[1]["name"] if named else None,
        "play": _level_url(*named) if named else play_url(row["game"], board, **options),
        "replay": _replay_url(row["game"], board, options, row["id"]) if replayable else None,
    }


@blueprint.get("/player/profile")
def player_profile():
    """Everything the player's page shows beyond the ladder: a few bounded reads."""
    signed = current_player()
    day = today()
    empty: dict[str, Any] = {
        "name": None,
        "today": day.isoformat(),
        "dailies": {},
        "levels": [],
        "race": None,
        "recent": [],
    }
    if signed is None:
        return jsonify(empty)
    db = state().db
    with db.session() as session:
        player = session.get(Player, signed.player_id)
        if player is None:
            return jsonify(empty)
        name = player.name
    rating = race_rating(db, signed.player_id)
    levels = [
        {
            "game": solved["game"],
            "name": solved["level"]["name"],
            "pack": solved["level"]["pack"],
            "value": solved["value"],
            "url": _level_url(solved["game"], solved["level"], solved["value"]),
            "length": solved["length"],
            "shortest": solved["shortest"],
        }
        for solved in levels_solved(db, signed.player_id)
    ]
    return jsonify(
        name=name,
        today=day.isoformat(),
        dailies={
            game: {**facts, "days": [_day(game, d) for d in facts["days"]]}
            for game, facts in dailies(db, signed.player_id, day).items()
        },
        levels=levels,
        race={**rating, "points": race_history(db, signed.player_id)} if rating else None,
        recent=[_recent(row) for row in recent_results(db, signed.player_id)],
    )


@blueprint.get("/player/results/<int:result_id>")
def player_result(result_id: int):
    """One of this browser's player's results with its line, for the replay link."""
    signed = current_player()
    found = result_line(state().db, signed.player_id, result_id) if signed is not None else None
    if found is None:
        raise RequestRefused(N_("no result of yours has that number"), 404)
    return jsonify(found)


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
