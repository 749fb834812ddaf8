"""Sessions: which browser is signed in as which player, and ending them.

The request's player comes from its cookie: a session's secret (today's
cookies), or the player token itself (cookies from before sessions, which
become a session on first use, so nobody is signed out by the change). A
session's ``seen`` day is written at most once a day. Ending a session deletes
it: its cookie then names nobody. Ending all the others also gives the player
a new token, so an old-format cookie copied elsewhere stops working too.

Nothing here reads a request: the players' HTTP layer (:mod:`webapp.http.players`)
hands in the cookie and the user agent, and sets the cookie a new session needs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import delete, select

from ..storage.database import let_others_run
from ..storage.models import Player, PlayerSession
from .identity import (
    find_player,
    find_session,
    new_session,
    secret_hash,
    session_from_cookie,
    session_signer,
    token_from_cookie,
)


@dataclass(frozen=True)
class SignedIn:
    """The player a request's cookie names: their id and token, the session's id (None:
    an old cookie whose player could get none) and, when an old cookie became a session
    now, that session's ``secret`` (the cookie the response sets)."""

    player_id: int
    token: str
    session_id: int | None
    secret: str | None = None


def signed_in(state, secret: str, cookie: str | None, user_agent: str | None) -> SignedIn | None:
    """The player ``cookie`` names (None: nobody), from its session or an old cookie,
    which becomes a session now.

    Every request of the players' API asks this first, on the one event loop: a session
    is one indexed read of the session joined to its player, not two ORM lookups."""
    found = session_from_cookie(secret, cookie)
    if found is not None:
        signed = (
            select(PlayerSession.id, PlayerSession.seen, Player.id, Player.token)
            .join(Player, Player.id == PlayerSession.player_id)
            .where(PlayerSession.secret_hash == secret_hash(found))
        )
        with state.db.session() as session:
            row = session.connection().execute(signed).first()
        let_others_run()  # the loop serves others before this request goes on
        if row is None:
            return None
        session_id, seen, player_id, token = row
        today = state.now().date()
        if seen != today:
            with state.db.writing() as session:
                fresh = session.get(PlayerSession, session_id)
                if fresh is not None:
                    fresh.seen = today
        return SignedIn(player_id, token, session_id)
    token = token_from_cookie(secret, cookie)
    if token is None:
        return None
    with state.db.session() as session:
        player = find_player(session, token)
        if player is None:
            return None
        player_id = player.id
    # an old cookie: it becomes a session now, and the response carries the new cookie
    session_id, made = open_session(state, token, user_agent)
    return SignedIn(player_id, token, session_id, made)


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


def open_session(state, token: str, user_agent: str | None) -> tuple[int | None, str | None]:
    """A new session of the player whose ``token`` this is: its id and secret (both
    None when there is no such player)."""
    with state.db.writing() as session:
        player = find_player(session, token)
        if player is None:
            return None, None
        return new_session(session, player.id, state.now(), user_agent)


def session_cookie(secret: str, session_secret: str) -> str:
    """The cookie's value for a session: its secret, signed with the app's."""
    return session_signer(secret).dumps(session_secret)


#: sessions a listing reads at most (a player holds at most 20: older players' lists
#: from before that bound are cut here, in SQL, never built whole on the event loop)
MAX_LISTED = 50


def list_sessions(state, token: str | None, current: int | None) -> list[dict]:
    """The player's sessions, oldest first: the newest :data:`MAX_LISTED` at most, read
    by one indexed query of their columns alone."""
    with state.db.session() as session:
        player = find_player(session, token)
        if player is None:
            return []
        rows = session.execute(
            select(PlayerSession.id, PlayerSession.created, PlayerSession.seen, PlayerSession.agent)
            .where(PlayerSession.player_id == player.id)
            .order_by(PlayerSession.id.desc())
            .limit(MAX_LISTED)
        ).all()
    let_others_run()
    return [
        {
            "id": row.id,
            "created": row.created.date().isoformat(),
            "seen": row.seen.isoformat(),
            "agent": row.agent,
            "current": row.id == current,
        }
        for row in reversed(rows)
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
