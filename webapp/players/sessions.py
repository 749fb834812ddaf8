"""Sessions: which browser is signed in as which player, and ending them.

The request's player comes from its cookie: a session's secret (today's
cookies), or the player token itself (cookies from before sessions, which
become a session on first use, so nobody is signed out by the change). A
session's ``seen`` day is written at most once a day. Ending a session deletes
it: its cookie then names nobody. Ending all the others also gives the player
a new token, so an old-format cookie copied elsewhere stops working too.

The routes (``GET /api/player/sessions``, ``POST /api/player/sessions/<id>/end``
and ``POST /api/player/sessions/end-others``) live in :mod:`.session_routes`.
"""

from __future__ import annotations

import secrets

from flask import Response, g, request
from sqlalchemy import delete, select

from ..storage.database import let_others_run
from ..storage.models import Player, PlayerSession
from .identity import (
    COOKIE,
    COOKIE_DAYS,
    find_player,
    find_session,
    new_session,
    secret_hash,
    session_from_cookie,
    session_signer,
    token_from_cookie,
)


def cookie_player(state, secret: str) -> str | None:
    """The request's player token (None: nobody), from its session or old cookie;
    ``g.session_id`` is the session's id when there is one, ``g.player_id`` the player's.

    Every request of the players' API asks this first, on the one event loop: a session
    is one indexed read of the session joined to its player, not two ORM lookups."""
    g.session_id = g.player_id = None
    cookie = request.cookies.get(COOKIE)
    found = session_from_cookie(secret, cookie)
    if found is not None:
        signed_in = (
            select(PlayerSession.id, PlayerSession.seen, Player.id, Player.token)
            .join(Player, Player.id == PlayerSession.player_id)
            .where(PlayerSession.secret_hash == secret_hash(found))
        )
        with state.db.session() as session:
            row = session.connection().execute(signed_in).first()
        let_others_run()  # the loop serves others before this request goes on
        if row is None:
            return None
        session_id, seen, g.player_id, token = row
        g.session_id = session_id
        today = state.now().date()
        if seen != today:
            with state.db.writing() as session:
                fresh = session.get(PlayerSession, session_id)
                if fresh is not None:
                    fresh.seen = today
        return token
    token = token_from_cookie(secret, cookie)
    if token is None:
        return None
    with state.db.session() as session:
        player = find_player(session, token)
        if player is None:
            return None
        g.player_id = player.id
    # an old cookie: it becomes a session now, and the response carries the new cookie
    g.session_id, g.session_secret = _open_session(state, token)
    return token


def cookie_owner(state, secret: str, cookie: str | None) -> str | None:
    """The player token a cookie stands for (session or old format), read only: for a
    Socket.IO handshake, which can set no cookie, so an old one stays as it is."""
    found = session_from_cookie(secret, cookie)
    with state.db.session() as session:
        if found is not None:
            row = find_session(session, found)
            player = session.get(Player, row.player_id) if row is not None else None
            return player.token if player is not None else None
        token = token_from_cookie(secret, cookie)
        return token if token is not None and find_player(session, token) else None


def _open_session(state, token: str) -> tuple[int | None, str | None]:
    with state.db.writing() as session:
        player = find_player(session, token)
        if player is None:
            return None, None
        return new_session(session, player.id, state.now(), request.headers.get("User-Agent"))


def set_player_cookie(response: Response, cookie: str) -> None:
    """Set the player cookie (signed, HttpOnly, SameSite=Lax), on every response that
    makes or moves a player: the players' API and the pages alike."""
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=COOKIE_DAYS * 86400,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


def session_cookie(state, secret: str, token: str | None) -> str | None:
    """The cookie to set after this request: a new session for the player whose
    ``token`` this request made or moved here, or an old cookie's new session."""
    made = g.pop("session_secret", None)
    if token:
        made = _open_session(state, token)[1]
    return session_signer(secret).dumps(made) if made else None


def list_sessions(state, token: str | None, current: int | None) -> list[dict]:
    with state.db.session() as session:
        player = find_player(session, token)
        if player is None:
            return []
        rows = session.scalars(
            select(PlayerSession)
            .where(PlayerSession.player_id == player.id)
            .order_by(PlayerSession.id)
        )
        return [
            {
                "id": row.id,
                "created": row.created.date().isoformat(),
                "seen": row.seen.isoformat(),
                "agent": row.agent,
                "current": row.id == current,
            }
            for row in rows
        ]


def end_session(state, token: str | None, session_id: int) -> bool:
    """End one of the player's sessions; False when they have no such session."""
    with state.db.writing() as session:
        player = find_player(session, token)
        if player is None:
            return False
        ended = session.execute(
            delete(PlayerSession).where(
                PlayerSession.id == session_id, PlayerSession.player_id == player.id
            )
        )
        return bool(ended.rowcount)


def end_others(state, token: str | None, current: int | None) -> int:
    """End every session of the player but ``current``, and retire the player token
    old-format cookies carry; returns how many sessions ended."""
    with state.db.writing() as session:
        player = find_player(session, token)
        if player is None:
            return 0
        ended = session.execute(
            delete(PlayerSession).where(
                PlayerSession.player_id == player.id, PlayerSession.id != (current or -1)
            )
        )
        player.token = secrets.token_hex(16)
        return int(ended.rowcount)
