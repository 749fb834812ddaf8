"""Seeds for generated puzzles: one per game per UTC day, and stable sub-seeds.

The same seed always gives the same puzzle, on every machine and every run, so
a daily puzzle is the same for everyone and a shared seed replays a deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.core.text import N_, clipped, number_shown

from .errors import BoardError

if TYPE_CHECKING:  # the clock is read only for a daily seed: a CLI call skips datetime
    import datetime as _dt

MAX_SEED = 2**31 - 1


def daily_seed(game: str, day: _dt.date | None = None) -> int:
    """The seed of ``game``'s daily puzzle on ``day`` (default: today, UTC)."""
    import datetime as _dt
    import hashlib  # only generators hash: a one-shot solve never loads OpenSSL

    day = day or _dt.datetime.now(_dt.UTC).date()
    digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & MAX_SEED


def sub_seed(*parts: object) -> int:
    """A stable seed mixed from ``parts`` (Python's hash() changes between runs)."""
    import hashlib

    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def check_seed(seed: object) -> int:
    """A seed is a whole number 0..2**31-1; anything else is a BoardError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BoardError(N_("seed must be a whole number from 0 to %(max)s"), max=MAX_SEED)
    return seed


def _quoted(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return number_shown(value)
    return clipped(repr(value), 20)


def check_range(name: str, value: object, low: int, high: int) -> int:
    """A generator parameter is a whole number from ``low`` to ``high``; else a BoardError."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BoardError(
            N_("%(name)s must be a whole number from %(low)s to %(high)s, not %(value)s"),
            name=name,
            low=low,
            high=high,
            value=_quoted(value),
        )
    return value
