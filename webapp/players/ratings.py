"""The ladder's ratings: Glicko-2 for players and puzzles, and what an attempt scores.

Contract ("The ladder"): one rating per player per game (new: 1500, deviation 350)
and one per puzzle; a player's first attempt at a puzzle is one game between the two,
scored ``shortest / length`` when solved unaided and 0 when assisted or abandoned;
the puzzle scores ``1 - score``. Each game is its own rating period, as lichess rates
puzzles.

The maths is the kept ``glicko2`` library (Glickman's algorithm as published, with
fractional outcomes). ``openskill`` was the other candidate; it is Weng-Lin
(Bayesian ranks of teams, mu 25), not Glicko-2, and has no partial score such as
``shortest / length``. ``glicko2`` 2.1.0 has one known slip, corrected here
(:class:`GlickoSide`): its volatility step uses the rating where Glickman's ``f(x)`` has
the deviation, which the paper's own example (rated 1500, i.e. 0 inside) hides.

Pure functions, no storage: :mod:`webapp.players.ladder` stores what they return,
and the simulation test climbs ladders with them alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import glicko2

NEW_RATING = 1500.0
NEW_DEVIATION = 350.0
NEW_VOLATILITY = 0.06
#: a deviation never shrinks below this (lichess): a rating keeps moving with play
MIN_DEVIATION = 45.0
MAX_DEVIATION = NEW_DEVIATION
#: the system constant: how fast volatility may change (lichess's puzzles)
TAU = 0.75
#: an attempt still open this long is abandoned (scores 0)
ABANDON_SECONDS = 30 * 60
#: a puzzle's starting rating from its proven length spans this range (easiest, hardest)
GRADE_LOW, GRADE_HIGH = 600.0, 2800.0
#: how sure a graded start is: a proven length says much, not everything
PUZZLE_DEVIATION = 200.0
#: "easier" and "harder" move the wanted rating by this much (lichess)
SHIFTS = {"easier": -300.0, "harder": 300.0}


@dataclass(frozen=True)
class Rating:
    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY


class GlickoSide(glicko2.Player):
    """The library's player with lichess's tau, and Glickman's step 5 ``f(x)`` as
    published: ``phi`` (the deviation) where the library wrote the rating."""

    _tau = TAU

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        phi = self.getRd() / 173.7178
        ex = math.exp(x)
        return (
            ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2)
            - (x - a) / self._tau**2
        )


def _updated(side: Rating, other: Rating, score: float) -> Rating:
    player = GlickoSide(side.rating, side.deviation, side.volatility)
    player.update_player([other.rating], [other.deviation], [score])
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, player.getRd()))
    return Rating(player.getRating(), deviation, player.vol)


def rate(player: Rating, puzzle: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one game, each from the other's rating before it: the player
    scored ``score`` (0 to 1), the puzzle ``1 - score``."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is from 0 to 1, not {score}")
    return _updated(player, puzzle, score), _updated(puzzle, player, 1.0 - score)


def rate_period(side: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """``side``'s rating after one rating period of ``games`` (each the opponent's rating
    before the period and the score, 0 to 1), Glickman's update over all of them at once:
    a race is one period against every other rated racer."""
    if not games:
        return side
    if not all(0.0 <= score <= 1.0 for _other, score in games):
        raise ValueError("a score is from 0 to 1")
    player = GlickoSide(side.rating, side.deviation, side.volatility)
    player.update_player(
        [other.rating for other, _ in games],
        [other.deviation for other, _ in games],
        [score for _, score in games],
    )
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, player.getRd()))
    return Rating(player.getRating(), deviation, player.vol)


def attempt_score(shortest: int, length: int | None, helped: bool) -> float:
    """A first attempt's score: ``shortest / length`` solved unaided, else 0 (assisted,
    abandoned or never finished: ``length`` None)."""
    if helped or length is None or length <= 0:
        return 0.0
    return min(1.0, shortest / length)


def graded(shortest: int, low: int, high: int) -> Rating:
    """A new puzzle's rating from its proven length, placed linearly between the
    easiest (``low`` moves) and hardest (``high``) its source makes."""
    share = 0.5 if high <= low else (min(max(shortest, low), high) - low) / (high - low)
    return Rating(GRADE_LOW + share * (GRADE_HIGH - GRADE_LOW), PUZZLE_DEVIATION)


def length_for(rating: float, low: int, high: int) -> int:
    """The proven length :func:`graded` would rate ``rating`` (a generator's target)."""
    share = (rating - GRADE_LOW) / (GRADE_HIGH - GRADE_LOW)
    return min(high, max(low, round(low + share * (high - low))))


def wanted(player: Rating, shift: str | None) -> float:
    """The puzzle rating a player is served near: theirs, shifted on request."""
    return player.rating + SHIFTS.get(shift or "", 0.0)


def nearest(puzzles: Mapping[str, Rating], target: float, tried: Iterable[str]) -> str | None:
    """The untried puzzle rated nearest ``target`` (what the database query picks)."""
    seen = set(tried)
    left = [(abs(r.rating - target), key) for key, r in puzzles.items() if key not in seen]
    return min(left)[1] if left else None
