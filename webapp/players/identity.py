"""Who is asking: players without passwords, remembered by a signed cookie.

A player is a random token. The cookie carries it signed with the app's secret
(HttpOnly, SameSite=Lax), so a script can neither read it from the page nor forge
another player's. The recovery code is a second secret, shown to the player and
stored only as a hash: it moves the player to another browser.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..storage.models import Player

COOKIE = "arcade_player"
COOKIE_DAYS = 400  # browsers cap a cookie's life at about 400 days
NAME_CHARS = re.compile(r"[^\W_]|[ _-]")  # a letter or digit of any script, space, - or _
MAX_NAME = 20


class NameRefused(ValueError):
    """A display name that breaks the rules; the message says which."""


def check_name(value) -> str:
    """The display name, trimmed: 1-20 letters, digits, spaces, ``-`` or ``_``."""
    if not isinstance(value, str):
        raise NameRefused("name must be text")
    name = value.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise NameRefused(f"a name has 1 to {MAX_NAME} characters, not {len(name)}")
    bad = next((ch for ch in name if not NAME_CHARS.fullmatch(ch)), None)
    if bad is not None:
        raise NameRefused(f"a name may hold letters, digits, spaces, '-' and '_', not {bad!r}")
    return name


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


def new_player(session: Session, now: dt.datetime) -> Player:
    player = Player(token=secrets.token_hex(16), created=now)
    session.add(player)
    session.flush()
    return player


def signer(secret: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt="arcade-player")


def token_from_cookie(secret: str, cookie: str | None) -> str | None:
    """The player token a cookie carries, None when absent or not signed by us."""
    if not cookie:
        return None
    try:
        token = signer(secret).loads(cookie)
    except BadSignature:
        return None
    return token if isinstance(token, str) else None


def find_player(session: Session, token: str | None) -> Player | None:
    if token is None:
        return None
    return session.scalars(select(Player).where(Player.token == token)).first()


def find_by_code(session: Session, code) -> Player | None:
    if not isinstance(code, str) or not 1 <= len(code) <= 64:
        return None
    return session.scalars(select(Player).where(Player.code_hash == code_hash(code))).first()
