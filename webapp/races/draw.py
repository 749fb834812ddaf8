"""A race's puzzles: small boards of every game that makes them, the games in turn.

A game whose ladder is generated (:func:`webapp.players.runs.offered`: the N-puzzle,
water sort) gives the storm's puzzles from the ladder's pool. A game whose ladder
climbs shipped levels (jugs, Klotski) declares :attr:`~solver.core.game.Game.race_lengths`
instead: its race puzzles are made by its generator in the page lane, proven by a
search of their whole group, and kept out of the ladder's pool (graded on another
scale, they would mix with the levels there). Either way a puzzle climbs a little
with each round of games, as a storm's does.
"""

from __future__ import annotations

import secrets

from flask import current_app

from solver import catalogue
from solver.core.game import Game
from solver.core.seeds import MAX_SEED

from ..players.challenges import Challenge
from ..players.ladder import Generate, generated_puzzle
from ..players.runs import next_puzzle, nothing_made, offered
from ..storage import Database
from .model import Race, new_id

#: a race game's length climbs by this much a round, from one move over its easiest
STEP = 0.5


def _first_length(game: type[Game]) -> int:
    lengths = game.ladder_lengths if offered(game) else game.race_lengths
    return (lengths or (0, 0))[0]


def race_games() -> list[type[Game]]:
    """The games a race draws from, in turn (the one whose puzzles can be shortest first)."""
    games = [
        game
        for game in catalogue.games().values()
        if offered(game) or game.race_lengths is not None
    ]
    return sorted(games, key=lambda game: (_first_length(game), game.order))


def race_puzzle(db: Database, game: type[Game], round_: int, make: Generate) -> Challenge:
    """``game``'s puzzle of round ``round_`` (from 0): the storm's, or one its generator
    makes about ``race_lengths[0] + 1 + STEP * round_`` moves long."""
    if offered(game):
        return next_puzzle(db, game, "storm", round_, make)[0]
    assert game.race_lengths is not None
    low, high = game.race_lengths
    length = min(high, low + 1 + round(STEP * round_))
    made = generated_puzzle(
        game, make(game.race_params(length), secrets.randbelow(MAX_SEED), False)
    )
    if made is None:
        raise nothing_made(game.name)
    # a race's own board: not a ladder puzzle (never ranked as one, never in the pool)
    return Challenge(made.game, made.board, made.options, made.shortest, None)


def race_puzzles(count: int) -> list[Challenge]:
    """``count`` small puzzles with proven distances, the race games in turn."""
    db = current_app.extensions["players"].db
    levels = current_app.extensions["levels"]
    games = race_games()
    return [
        race_puzzle(
            db, games[i % len(games)], i // len(games), levels.generator(games[i % len(games)])
        )
        for i in range(count)
    ]


def make_race(public: bool, owner: str | None) -> Race:
    """A new race (``owner``: the racer who may start a private one) with the app's
    ``RACE_PUZZLES`` puzzles; :class:`~webapp.jobs.model.TaskRefused` while the page
    lane is too full to make them (the handler answers a 503)."""
    return Race(new_id(), public, owner, race_puzzles(int(current_app.config["RACE_PUZZLES"])))
