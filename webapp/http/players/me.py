"""Who I am and what I am called: ``GET``/``POST /api/player``, ``POST /api/player/restore``
and ``POST /api/player/progress`` (the browser's old progress, imported once).

Contract ("Players, the daily and leaderboards"): a name is 1-20 characters, unique
ignoring case and look-alikes (409 for a taken one); naming answers a fresh recovery
``code``, which moves the player to another browser.
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from solver.core.text import N_

from ...players.identity import (
    NameRefused,
    check_name,
    code_hash,
    find_by_code,
    new_code,
    take_name,
)
from ...players.ladder import ratings
from ...players.profile import race_rating
from ...players.runs import bests as run_bests
from ...puzzle_request import RequestRefused
from ...storage.models import ImportedProgress, Player
from ..bodies import read_json_body
from .context import current_player, forget_made_player, move_here, state, today

blueprint = Blueprint("me", __name__)

MAX_IMPORTED = 500  # progress entries imported from one browser


@blueprint.get("/player")
def whoami():
    signed = current_player()
    with state().db.session() as session:
        player = session.get(Player, signed.player_id) if signed is not None else None
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
    db = state().db
    return jsonify(
        **known,
        ratings=ratings(db, player_id),
        race_rating=race_rating(db, player_id),
        **run_bests(db, player_id, today()),
    )


@blueprint.post("/player")
def name_player():
    """Set the display name; answers a fresh recovery code (the old one stops working)."""
    body = read_json_body()
    try:
        name = check_name(body.get("name"))
    except NameRefused as err:
        raise RequestRefused(err) from None
    code = new_code()
    try:
        with state().db.writing() as session:
            player = session.get(Player, current_player(create=True, session=session).player_id)
            assert player is not None  # the cookie's, or made just now
            take_name(player, name)  # unique keys: the database refuses a look-alike
            player.code_hash = code_hash(code)
    except IntegrityError:
        forget_made_player()
        raise RequestRefused(N_("that name, or one that looks like it, is taken"), 409) from None
    state().boards.forget()  # the new name shows on every board at once
    return jsonify(name=name, code=code)


@blueprint.post("/player/restore")
def restore_player():
    """Move the player whose recovery code this is to this browser."""
    body = read_json_body()
    with state().db.session() as session:
        player = find_by_code(session, body.get("code"))
        if player is None:
            raise RequestRefused(N_("no player has that recovery code"), 404)
        here = current_player()
        if here is None or here.player_id != player.id:  # this browser plays as them already
            move_here(player.token)  # a new session (their oldest past 20 ends)
        return jsonify(name=player.name)


@blueprint.post("/player/progress")
def import_progress():
    """The browser's localStorage bests, imported once per player and never ranked."""
    body = read_json_body()
    entries = body.get("progress")
    if not isinstance(entries, dict) or len(entries) > MAX_IMPORTED:
        raise RequestRefused(
            N_("progress must be an object of at most %(count)s entries"), count=MAX_IMPORTED
        )
    rows = [_imported(key, value) for key, value in entries.items()]
    with state().db.writing() as session:
        player = session.get(Player, current_player(create=True, session=session).player_id)
        assert player is not None  # the cookie's, or made just now
        if player.imported is not None:
            return jsonify(imported=0, already=True)
        player.imported = state().now()
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
