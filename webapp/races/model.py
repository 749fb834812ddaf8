"""A race's state, kept in this web process: its racers, their puzzles and scores.

Nothing here computes or waits: the socket handlers (:mod:`webapp.races.events`)
judge moves in the solver processes and then record them here. Every racer gets the
same puzzles in the same order, fixed when the race is made. Caps keep one client
from growing memory: :data:`MAX_RACERS` per race, :data:`MAX_RACES` at once,
:data:`MAX_NAME` characters of a name.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from solver.core.text import N_

from ..players.puzzles import Puzzle
from ..puzzle_request import BadRequest

MAX_RACERS = 10
MAX_RACES = 200
MAX_NAME = 24
#: racers that start a public race's countdown
QUORUM = 3
WAITING, COUNTDOWN, RACING, FINISHED = "waiting", "countdown", "racing", "finished"


@dataclass
class Racer:
    """One racer: who (``key``: the player's cookie identity, else the socket), the
    socket they race on now (None: away), the puzzle they are on and its position."""

    key: str
    name: str
    sid: str | None
    puzzle: int = 0
    board: str = ""
    score: int = 0
    solved: int = 0
    judging: bool = False

    def shown(self) -> dict[str, Any]:
        return {"name": self.name, "score": self.score, "solved": self.solved}


@dataclass
class Race:
    """A race: public (the lobby's; starts once :data:`QUORUM` have joined) or private
    (its ``owner`` starts it). ``starts``/``ends`` are on the server's monotonic clock."""

    id: str
    public: bool
    owner: str | None
    puzzles: list[Puzzle]
    status: str = WAITING
    starts: float | None = None
    ends: float | None = None
    racers: dict[str, Racer] = field(default_factory=dict)
    spectators: set[str] = field(default_factory=set)
    rematch: str | None = None
    #: a rated race's outcome, by racer name: {rating, change, assisted} (webapp.races.ranking)
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def join(self, key: str, sid: str, name: str) -> Racer:
        """The racer ``key`` on socket ``sid`` (back in the race if they were in it);
        a spectator once the race has begun or is full (None then)."""
        racer = self.racers.get(key)
        if racer is not None:
            racer.sid = sid
            return racer
        if self.status != WAITING and self.status != COUNTDOWN or len(self.racers) >= MAX_RACERS:
            raise BadRequest(N_("this race is full or under way; you are watching it"), 409)
        racer = Racer(key, _unique(name, self.racers.values()), sid, 0, self.puzzles[0].board)
        self.racers[key] = racer
        return racer

    def racer_on(self, sid: str) -> Racer | None:
        return next((r for r in self.racers.values() if r.sid == sid), None)

    def sids(self) -> list[str]:
        return [r.sid for r in self.racers.values() if r.sid] + sorted(self.spectators)

    def record(self, racer: Racer, board: str, closer: bool, solved: bool) -> None:
        """A judged move: +1 when it came one closer; a solved puzzle brings the next."""
        racer.score += int(closer)
        racer.board = board
        if solved:
            racer.solved += 1
            racer.puzzle += 1
            if racer.puzzle < len(self.puzzles):
                racer.board = self.puzzles[racer.puzzle].board

    def state(self, now: float, racer: Racer | None) -> dict[str, Any]:
        """``race_state`` as ``racer`` (None: a spectator) sees it."""
        shown: dict[str, Any] = {
            "race": self.id,
            "status": self.status,
            "starts_in": _left(self.starts, now),
            "ends_in": _left(self.ends, now),
            "players": sorted((r.shown() for r in self.racers.values()), key=lambda p: -p["score"]),
            "public": self.public,
            # public races are rated for racers with an identity (webapp.races.ranking)
            "rated": self.public and racer is not None and racer.key.startswith("p:"),
            "owner": racer is not None and racer.key == self.owner,
            "you": racer.name if racer else None,
        }
        if racer is not None and self.status == RACING and racer.puzzle < len(self.puzzles):
            puzzle = self.puzzles[racer.puzzle]
            shown["puzzle"] = {"game": puzzle.game, "board": racer.board, "options": puzzle.options}
        if self.status == FINISHED:
            shown["puzzles"] = [
                {"game": p.game, "board": p.board, "options": p.options, "shortest": p.shortest}
                for p in self.puzzles
            ]
            shown["rematch"] = self.rematch
            for player in shown["players"]:
                player.update(self.ratings.get(player["name"], {}))
        return shown


def _left(at: float | None, now: float) -> float | None:
    return None if at is None else round(max(0.0, at - now), 1)


def _unique(name: str, racers) -> str:
    taken = {r.name for r in racers}
    shown, n = name, 2
    while shown in taken:
        shown, n = f"{name} {n}", n + 1
    return shown


def clean_name(name: object, fallback: str) -> str:
    """A racer's shown name: printable, trimmed to :data:`MAX_NAME`; else ``fallback``."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]
    return text or fallback


def new_id() -> str:
    return secrets.token_urlsafe(6)
