"""Who is asking: players without passwords, remembered by a signed cookie per browser.

A player is a random token; each browser playing as them holds a session, a
random secret the cookie carries signed with the app's secret (HttpOnly,
SameSite=Lax), stored only as a hash, so a script can neither read it from the
page nor forge another player's, and the player can end any of their sessions.
Cookies from before sessions carried the player token itself: such a cookie
still works, and becomes a session on first use. The recovery code is a
second secret, shown to the player and stored only as a hash: it moves the
player to another browser (a new session there).

New players are counted per address (a keyed hash of it, kept for the hour the
limit counts) in the database, so the limit holds across every web process.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import math
import secrets

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from solver.core.text import N_

from ..storage.models import NewPlayer, Player, PlayerSession
from ..storage.names import MAX_NAME, NameRefused, check_name, name_key, shape_key

__all__ = ["MAX_NAME", "NameRefused", "check_name", "name_key", "shape_key", "take_name"]

COOKIE = "arcade_player"
COOKIE_DAYS = 400  # browsers cap a cookie's life at about 400 days
NEW_PLAYERS_WINDOW = dt.timedelta(hours=1)
#: browser families a session is labelled with, the first found in the user agent wins
AGENTS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chrome"),
    ("Safari/", "Safari"),
)


class TooManyPlayers(Exception):
    """This address made its hour's share of new players; ``wait`` seconds to the next."""

    #: what the player reads (``seconds``: the wait), as a template to translate
    TEMPLATE = N_("too many new players from this address; try again in %(seconds)s s")

    def __init__(self, wait: int):
        super().__init__(self.TEMPLATE % {"seconds": wait})
        self.wait = wait


def take_name(player: Player, name: str) -> None:
    """Give ``player`` the checked ``name`` and its two keys (:mod:`webapp.storage.names`);
    the flush that writes them raises IntegrityError when a look-alike is taken. The one
    way a name is set: the players' API and a racer's chosen name alike."""
    player.name = name
    player.name_key = name_key(name)
    player.shape_key = shape_key(name)


def shown_name(player_id: int, name: str | None) -> str:
    """What a leaderboard shows for a player: the name, else a stable stand-in."""
    return name or f"Player {player_id}"


def code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


def new_code() -> str:
    """A recovery code people can copy by hand: 4 groups of 4 letters and digits."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
    raw = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def address_key(secret: str, address: str | None) -> str:
    """The address as the new-player count keeps it: a keyed hash, never the address."""
    key = hashlib.sha256(f"arcade-address|{secret}".encode()).digest()
    return hmac.new(key, (address or "").encode(), hashlib.sha256).hexdigest()


def new_player(
    session: Session, now: dt.datetime, address: str | None = None, limit: int = 0
) -> Player:
    """A new player; with ``address`` (its keyed hash) and ``limit`` > 0, at most ``limit``
    from that address an hour, else :class:`TooManyPlayers` and nothing made."""
    if address is not None and limit > 0:
        since = now - NEW_PLAYERS_WINDOW
        if session.get_bind().dialect.name == "postgresql":
            # one address's creations one after another, so two at once cannot both
            # see room for one more (SQLite's writers are serialised already)
            session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": address})
        session.execute(delete(NewPlayer).where(NewPlayer.created <= since))
        made = session.execute(
            select(func.count(), func.min(NewPlayer.created)).where(
                NewPlayer.address_key == address, NewPlayer.created > since
            )
        ).one()
        if made[0] >= limit:
            wait = (made[1] + NEW_PLAYERS_WINDOW - now).total_seconds()
            raise TooManyPlayers(max(1, math.ceil(wait)))
        session.add(NewPlayer(address_key=address, created=now))
    player = Player(token=secrets.token_hex(16), created=now)
    session.add(player)
    session.flush()
    return player


def signer(secret: str) -> URLSafeSerializer:
    """Cookies from before sessions: the player token itself."""
    return URLSafeSerializer(secret, salt="arcade-player")


def session_signer(secret: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt="arcade-session")


def _unsigned(serializer: URLSafeSerializer, cookie: str | None) -> str | None:
    """The text ``cookie`` carries under ``serializer``, None when absent or not ours."""
    if not cookie:
        return None
    try:
        found = serializer.loads(cookie)
    except BadSignature:
        return None
    return found if isinstance(found, str) else None


def token_from_cookie(secret: str, cookie: str | None) -> str | None:
    """The player token an old-format cookie carries, None when absent or not signed by us."""
    return _unsigned(signer(secret), cookie)


def session_from_cookie(secret: str, cookie: str | None) -> str | None:
    """The session secret a cookie carries, None when absent, old or not signed by us."""
    return _unsigned(session_signer(secret), cookie)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def agent_family(user_agent: str | None) -> str:
    """A short label for a session ("Firefox"), never the user agent itself."""
    text_ = user_agent or ""
    return next((label for marker, label in AGENTS if marker in text_), "Other")


#: sessions a player holds at most: a new one ends the oldest
MAX_SESSIONS = 20


def new_session(
    session: Session, player_id: int, now: dt.datetime, user_agent: str | None
) -> tuple[int, str]:
    """A new session of the player: its id and its secret (for the cookie). The player's
    sessions past the newest :data:`MAX_SESSIONS` end here (issue 46: one code restored
    in a loop made 12,103 sessions in 90 s)."""
    secret = secrets.token_urlsafe(32)
    row = PlayerSession(
        secret_hash=secret_hash(secret),
        player_id=player_id,
        created=now,
        seen=now.date(),
        agent=agent_family(user_agent),
    )
    session.add(row)
    session.flush()
    kept = (
        select(PlayerSession.id)
        .where(PlayerSession.player_id == player_id)
        .order_by(PlayerSession.id.desc())
        .limit(MAX_SESSIONS)
    )
    oldest_kept = session.scalar(select(func.min(kept.subquery().c.id)))
    session.execute(
        delete(PlayerSession).where(
            PlayerSession.player_id == player_id, PlayerSession.id < oldest_kept
        )
    )
    return row.id, secret


def find_session(session: Session, secret: str | None) -> PlayerSession | None:
    if secret is None:
        return None
    return session.scalars(
        select(PlayerSession).where(PlayerSession.secret_hash == secret_hash(secret))
    ).first()


def find_player(session: Session, token: str | None) -> Player | None:
    if token is None:
        return None
    return session.scalars(select(Player).where(Player.token == token)).first()


def find_by_code(session: Session, code) -> Player | None:
    if not isinstance(code, str) or not 1 <= len(code) <= 64:
        return None
    return session.scalars(select(Player).where(Player.code_hash == code_hash(code))).first()
