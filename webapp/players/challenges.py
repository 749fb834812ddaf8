"""Which puzzle a line is for: today's daily, a shipped level, or any other board.

A leaderboard needs a proven minimum: the daily's comes from its generator, a
shipped level's from its pack. A result for any other board is kept (the
player's own history) but never ranked.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select

from solver.core.domain import Domain
from solver.core.game import Game
from solver.core.text import N_

from ..levels.facts import find_level
from ..puzzle_request import PuzzleRequest, RequestRefused
from ..storage import Database
from ..storage.models import LadderPuzzle

#: (game name, UTC day) -> the generator's daily level {board, options, min_moves, optimal}
DailyMaker = Callable[[str, dt.date], dict]


@dataclass(frozen=True)
class Challenge:
    game: str
    board: str  # canonical
    options: dict  # every option, defaults filled in
    shortest: int | None  # proven fewest moves, when known
    day: dt.date | None  # set when this is that day's daily
    level: str | None = None  # a shipped level's name
    ladder: bool = False  # a generated puzzle the ladder serves (webapp.players.ladder)

    @property
    def rankable(self) -> bool:
        return self.shortest is not None and (
            self.day is not None or self.level is not None or self.ladder
        )

    @property
    def options_json(self) -> str:
        return json.dumps(self.options, sort_keys=True, separators=(",", ":"))

    @property
    def key(self) -> str:
        text = f"{self.game}|{self.options_json}|{self.board}"
        return hashlib.sha256(text.encode()).hexdigest()


def daily_challenge(game: type[Game], day: dt.date, make: DailyMaker) -> Challenge:
    """``game``'s daily on ``day``, its fewest moves kept only when proven."""
    made = make(game.name, day)
    options = game.full_options(made.get("options"))
    domain = game.make_domain(**game.check_options(options))
    board = domain.format(domain.parse(made["board"]))
    shortest = made["min_moves"] if made.get("optimal") else None
    return Challenge(game.name, board, options, shortest, day)


def level_challenge(game: type[Game], level: dict, options: dict | None = None) -> Challenge:
    """A shipped level as a puzzle, under its own options or ``options`` (full: another
    value of the progress option, e.g. Klotski's step metric)."""
    options = options if options is not None else game.full_options(level.get("options"))
    shortest = level["moves"][game.progress_value(options)]
    return Challenge(game.name, level["board"], options, shortest, None, level["name"])


def identify(
    game: type[Game], board, given_options, today: dt.date, make: DailyMaker
) -> tuple[Challenge, Domain]:
    """The puzzle ``board`` (with ``given_options``) poses, and the domain to replay it on."""
    asked = PuzzleRequest.parse(game.name, board, given_options)
    options = game.full_options(asked.options)
    domain = game.make_domain(**asked.options)
    if not asked.board:
        raise RequestRefused(N_("board must be the puzzle's start, as text"))
    canonical = domain.format(domain.parse(asked.board))
    daily = daily_challenge(game, today, make)
    if (daily.board, daily.options) == (canonical, options):
        return daily, domain
    level = find_level(game, canonical, options)
    if level is not None:
        return level_challenge(game, level, options), domain
    return Challenge(game.name, canonical, options, None, None), domain


def ladder_challenge(db: Database, puzzle: Challenge) -> Challenge:
    """``puzzle`` as the ladder knows it (rankable, its proven length) when the ladder
    made it; else ``puzzle`` unchanged (a daily, a level, or a board of no one's)."""
    if puzzle.rankable:
        return puzzle
    with db.session() as session:
        shortest = session.scalar(
            select(LadderPuzzle.shortest).where(
                LadderPuzzle.puzzle == puzzle.key, LadderPuzzle.level.is_(None)
            )
        )
    if shortest is None:
        return puzzle
    return Challenge(puzzle.game, puzzle.board, puzzle.options, shortest, None, ladder=True)
