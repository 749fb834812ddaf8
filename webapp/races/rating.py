"""Rated races: a race rating from each public race's finishing order.

lichess's races are unrated; ours are judged move by move, so a score can be trusted
and can move a rating. The rating is Glicko-2, the ladder's (:mod:`webapp.players.ratings`),
over pairwise results: each pair of rated racers is one game, won by the higher score
and drawn on equal scores, and a racer's race is one rating period against every other
rated racer at once (their ratings before the race). With the most racers, 10, that
is 10 updates of 9 games each: bounded arithmetic, so it runs where the race ends.
OpenSkill (Weng-Lin) was the other choice: built for
multiplayer ranks, but a second rating system beside the ladder's Glicko-2, with its
own scale (mu 25) that the pages would show apart, and not installed. Glicko-2 pairs
give the same ordering signal with the library and scale already in use.

Who is rated: only public races (a private race is among friends, its owner starts it
when they like), and only racers with an identity (the players' cookie: the socket's
handshake named a player; the race page makes a guest player for a new browser),
at most one per address (the first to join: sock puppets on one address rate
nobody but their first); others race unrated. A rated race needs two such racers.

The ranked-play rules apply (:mod:`webapp.players.helps`): from the race's start to its
end, an ``analyse`` or ``solve`` from a rated racer's sockets about the game and options
of one of the race's puzzles is recorded on their entry, and an assisted racer is rated
as if last (a loss to every unaided racer, a draw with another assisted one), as the
ladder scores an assisted attempt 0.

Rated exactly once: the race's row is claimed by one conditional update (``rated IS
NULL``) in the transaction that moves the ratings, so a race finished twice, in any
web process, moves nothing the second time; it answers what the first stored. Writes
are a few rows through :meth:`~webapp.storage.Database.writing`, as the ladder's are.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Mapping
from typing import Protocol, TypeVar, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError

from ..players.attempts import family
from ..players.helps import RACE, HelpLedger, Holding
from ..players.ladder import insert_new_rating
from ..players.ratings import Rating, rate_period
from ..storage import Database
from ..storage.models import Player, RaceEntry, RaceRating, RatedRace
from .model import PLAYER_KEY, Race

log = logging.getLogger(__name__)

K = TypeVar("K")


class Players(Protocol):
    """What rating needs of the app's players (:class:`webapp.players.PlayersState`)."""

    @property
    def db(self) -> Database: ...

    @property
    def helps(self) -> HelpLedger: ...

    def now(self) -> dt.datetime: ...


def pair_score(mine: int | None, theirs: int | None) -> float:
    """One pair's result for the first racer: 1 won, 0.5 drawn, 0 lost, by score;
    ``None`` is an assisted racer, below every score."""
    a = -1 if mine is None else mine
    b = -1 if theirs is None else theirs
    return 1.0 if a > b else 0.5 if a == b else 0.0


def rate_order(racers: Mapping[K, tuple[Rating, int | None]]) -> dict[K, Rating]:
    """Every racer's rating after the race: ``racers`` maps a racer to their rating
    before it and their score (None: assisted). Each is one Glicko-2 period against all
    the others, each from the ratings before the race (the order does not matter)."""
    return {
        key: rate_period(
            before,
            [
                (other, pair_score(score, their_score))
                for them, (other, their_score) in racers.items()
                if them != key
            ],
        )
        for key, (before, score) in racers.items()
    }


def _tokens(race: Race) -> dict[str, str]:
    """token -> racer key, for the racers rated (:meth:`Race.rated_keys`)."""
    return {key[len(PLAYER_KEY) :]: key for key in race.rated_keys()}


def open_race(players: Players, race: Race, seconds: float) -> None:
    """At the start of a public race: its row and one entry per racer with an identity
    (when two or more have one), so that their help is recorded until it ends. Nothing
    is raised: a database that fails here leaves the race unrated (logged)."""
    if not race.public:
        return
    tokens = _tokens(race)
    if len(tokens) < 2:
        return
    now = players.now()
    families = sorted({family(p.game, p.options_json) for p in race.puzzles})
    ends = now + dt.timedelta(seconds=seconds)
    try:
        with players.db.writing() as session:
            found = session.execute(
                select(Player.id, Player.token).where(Player.token.in_(tokens))
            ).all()
            if len(found) < 2:
                return
            row = RatedRace(race=race.id, started=now, families=json.dumps(families))
            session.add(row)
            session.flush()
            entries = [
                (
                    token,
                    RaceEntry(
                        rated_race=row.id,
                        player_id=pid,
                        ends=ends,
                        assisted=False,
                        address_key=race.racers[tokens[token]].address or None,
                    ),
                )
                for pid, token in found
            ]
            session.add_all(entry for _token, entry in entries)
            session.flush()
            held = [(token, entry.id, entry.address_key) for token, entry in entries]
    except IntegrityError:  # opened already (another process started it): that one counts
        return
    except Exception:
        log.exception("could not open the rating of race %s; it goes unrated", race.id)
        return
    for token, entry_id, address in held:  # help asked from now to its end counts
        players.helps.hold(
            Holding(RACE, entry_id, token, families, (), address, places=families, until=ends)
        )


def rate(players: Players, race: Race) -> bool:
    """At the end of a public race: rate it (once) and put each rated racer's new rating
    and change in ``race.ratings`` (by shown name) for its ``race_state``. True when
    there is something to show."""
    if not race.public:
        return False
    tokens = _tokens(race)
    scores = {token: race.racers[key].score for token, key in tokens.items()}
    try:
        stored = _rated(players.db, race.id, scores, players.now())
    except Exception:
        log.exception("could not rate race %s", race.id)
        return False
    shown = {}
    for token, (before, after, assisted) in stored.items():
        key = tokens.get(token)
        if key is None or before is None or after is None:
            continue
        shown[race.racers[key].name] = {
            "rating": round(after),
            "change": round(after) - round(before),
            "assisted": assisted,
        }
    race.ratings = shown
    return bool(shown)


def _rated(
    db: Database, race_id: str, scores: dict[str, int], now: dt.datetime
) -> dict[str, tuple[float | None, float | None, bool]]:
    """Claim and rate the race (or read how it was rated): token -> (before, after,
    assisted)."""
    with db.writing() as session:
        row_id = session.scalar(select(RatedRace.id).where(RatedRace.race == race_id))
        if row_id is None:
            return {}
        claim = update(RatedRace).where(RatedRace.id == row_id, RatedRace.rated.is_(None))
        claimed = cast(CursorResult, session.execute(claim.values(rated=now))).rowcount
        entries = session.execute(
            select(RaceEntry, Player.token)
            .join(Player, Player.id == RaceEntry.player_id)
            .where(RaceEntry.rated_race == row_id)
        ).all()
        if claimed:
            _move_ratings(session, [(entry, scores.get(token, 0)) for entry, token in entries])
        return {
            token: (entry.rating_before, entry.rating_after, entry.assisted)
            for entry, token in entries
        }


def _move_ratings(session, entries: list[tuple[RaceEntry, int]]) -> None:
    """Move every entry's player's race rating, their rows locked in player order (two
    races ending at once with racers in common never wait for each other in a circle)."""
    entries = sorted(entries, key=lambda pair: pair[0].player_id)
    connection = session.connection()
    for entry, _score in entries:
        insert_new_rating(connection, RaceRating.__table__, player_id=entry.player_id, races=0)
    rows = {
        row.player_id: row
        for row in session.scalars(
            select(RaceRating)
            .where(RaceRating.player_id.in_([entry.player_id for entry, _ in entries]))
            .order_by(RaceRating.player_id)
            .with_for_update()
        )
    }
    before = {
        entry.player_id: (
            Rating(*(getattr(rows[entry.player_id], f) for f in _FIELDS)),
            None if entry.assisted else score,
        )
        for entry, score in entries
    }
    after = rate_order(before)
    for entry, score in entries:
        row, moved = rows[entry.player_id], after[entry.player_id]
        entry.score = score
        entry.rating_before, entry.rating_after = row.rating, moved.rating
        row.rating, row.deviation, row.volatility = moved.rating, moved.deviation, moved.volatility
        row.races += 1


_FIELDS = ("rating", "deviation", "volatility")
