"""A race's state: its racers, their puzzles and scores, and its clock.

Nothing here computes or waits: the socket handlers (:mod:`webapp.races.socket`)
judge moves in the solver processes and then record them through a race store
(:mod:`webapp.races.store`), which keeps a race as the plain data of
:meth:`Race.to_data` so that every web process of a cluster can read it. A race's
status is a function of two wall-clock deadlines (``starts``, ``ends``), so any
process tells it alike without being told. Every racer gets the same puzzles in
the same order, fixed when the race is made. A racer scores a point each time their
puzzle reaches a distance to solved lower than any it reached before, so a puzzle is
worth its starting distance and moving away and back again scores nothing. Caps keep
one client from growing memory: :data:`MAX_RACERS` per race, :data:`MAX_RACES` under
way at once, ``RACES_PER_ADDRESS`` opened by one address (the store counts them by
``opener``), :data:`MAX_NAME` characters of a name.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

from solver.core.text import N_

from ..players.challenges import Challenge
from ..puzzle_request import RequestRefused

#: a racer key naming a player (``p:<token>``; ``s:<sid>``: a socket with none)
PLAYER_KEY = "p:"
#: what a racer without a registered name is shown as (never a name anyone may take:
#: :data:`webapp.storage.names.STAND_INS`)
GUEST = N_("Guest %(number)s")
MAX_RACERS = 10
#: sockets one racer races on at once (tabs, reloads not yet gone); a further one
#: takes the place of the oldest
MAX_TABS = 4
#: races waiting, counting down or racing at once (every web process's together)
MAX_RACES = 200
MAX_NAME = 24
#: racers that start a public race's countdown
QUORUM = 3
WAITING, COUNTDOWN, RACING, FINISHED = "waiting", "countdown", "racing", "finished"


@dataclass
class Racer:
    """One racer: who (``key``: the player's cookie identity, else the socket), the
    sockets they race on now (a reload's, every tab's; none: away), the puzzle they are on and its position, the
    lowest distance to solved that puzzle reached (``best``; None: none yet, its start's),
    and the keyed hash of the address they joined from (``address``: a rated race rates
    one racer per address)."""

    key: str
    name: str
    sids: list[str] = field(default_factory=list)
    puzzle: int = 0
    board: str = ""
    score: int = 0
    solved: int = 0
    best: int | None = None
    address: str = ""

    def shown(self) -> dict[str, Any]:
        return {"name": self.name, "score": self.score, "solved": self.solved}


@dataclass
class Race:
    """A race: public (the lobby's; starts once :data:`QUORUM` have joined) or private
    (its ``owner`` starts it). ``starts``/``ends`` are wall-clock seconds (``time.time``),
    None while it waits; ``dropped`` (never stored) tells the store to delete it.
    ``version`` goes in every ``race_state``: states sent by different web processes may
    arrive out of order, and a client keeps the newest."""

    id: str
    public: bool
    owner: str | None
    puzzles: list[Challenge]
    starts: float | None = None
    ends: float | None = None
    racers: dict[str, Racer] = field(default_factory=dict)
    rematch: str | None = None
    watchers: int = 0  # spectators, on any web process (their room is watch_room(id))
    version: int = 0  # one more with every change the store makes
    #: a rated race's outcome, by racer name: {rating, change, assisted} (webapp.races.rating)
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the keyed hash of the address that opened it (its share of the races under way)
    opener: str = ""
    dropped: bool = False

    def status(self, now: float) -> str:
        if self.starts is None or self.ends is None:
            return WAITING
        if now < self.starts:
            return COUNTDOWN
        return RACING if now < self.ends else FINISHED

    def start(self, now: float, countdown: float, seconds: float) -> None:
        """Fix the clock: racing in ``countdown`` seconds, for ``seconds``."""
        self.starts = now + countdown
        self.ends = self.starts + seconds

    def join(self, key: str, sid: str, name: str, now: float, address: str = "") -> Racer:
        """The racer ``key`` on socket ``sid`` from ``address`` (a keyed hash; back in the
        race with their score if they were in it: a reload, a second tab); a 409
        :class:`RequestRefused` once the race has begun or is full (they watch it then)."""
        racer = self.racers.get(key)
        if racer is not None:  # every tab races on, and each sees the race
            if sid not in racer.sids:
                racer.sids = [*racer.sids, sid][-MAX_TABS:]
            return racer
        if self.status(now) not in (WAITING, COUNTDOWN) or len(self.racers) >= MAX_RACERS:
            raise RequestRefused(N_("this race is full or under way; you are watching it"), 409)
        shown = _unique(name, self.racers.values())
        racer = Racer(key, shown, [sid], 0, self.puzzles[0].board, address=address)
        self.racers[key] = racer
        return racer

    def rated_keys(self) -> list[str]:
        """The racers a public race rates: those with a name of their own, the first to join of
        each address (racers keep the order they joined in), so sock puppets on one
        address rate nobody but their first; a private race rates nobody."""
        if not self.public:
            return []
        rated, addresses = [], set()
        for key, racer in self.racers.items():
            if not key.startswith(PLAYER_KEY) or _is_guest(racer.name):
                continue  # a racer is rated under a name of their own
            if racer.address and racer.address in addresses:
                continue
            if racer.address:
                addresses.add(racer.address)
            rated.append(key)
        return rated

    def racer_on(self, sid: str) -> Racer | None:
        return next((r for r in self.racers.values() if sid in r.sids), None)

    def sids(self) -> list[str]:
        return [sid for r in self.racers.values() for sid in r.sids]

    def record(self, racer: Racer, board: str, after: int | None, solved: bool) -> None:
        """A judged move to ``board``, ``after`` moves from solved (None: unsolvable): a
        point for each move below the lowest distance this puzzle reached before (a
        puzzle is worth its starting distance; away and back scores nothing); a solved
        puzzle brings the next."""
        puzzle = self.puzzles[racer.puzzle]
        best = racer.best if racer.best is not None else puzzle.shortest
        if after is not None and best is not None and after < best:
            racer.score += best - after
            racer.best = after
        racer.board = board
        if solved:
            racer.solved += 1
            racer.puzzle += 1
            racer.best = None
            if racer.puzzle < len(self.puzzles):
                racer.board = self.puzzles[racer.puzzle].board

    def state(self, now: float, racer: Racer | None) -> dict[str, Any]:
        """``race_state`` as ``racer`` (None: a spectator) sees it."""
        status = self.status(now)
        shown: dict[str, Any] = {
            "race": self.id,
            "version": self.version,
            "status": status,
            "starts_in": _left(self.starts, now) if status == COUNTDOWN else None,
            "ends_in": _left(self.ends, now) if status == RACING else None,
            "players": sorted((r.shown() for r in self.racers.values()), key=lambda p: -p["score"]),
            "public": self.public,
            # rated for this racer (webapp.races.rating): told the truth before it ends
            "rated": racer is not None and racer.key in self.rated_keys(),
            "owner": racer is not None and racer.key == self.owner,
            "you": racer.name if racer else None,
        }
        if racer is not None and status == RACING and racer.puzzle < len(self.puzzles):
            puzzle = self.puzzles[racer.puzzle]
            # its start and proven shortest too: the page scores its finish like any other
            shown["puzzle"] = {
                "game": puzzle.game,
                "board": racer.board,
                "options": puzzle.options,
                "start": puzzle.board,
                "shortest": puzzle.shortest,
            }
        if status == FINISHED:
            shown["puzzles"] = [
                {"game": p.game, "board": p.board, "options": p.options, "shortest": p.shortest}
                for p in self.puzzles
            ]
            shown["rematch"] = self.rematch
            for player in shown["players"]:
                player.update(self.ratings.get(player["name"], {}))
        return shown

    # -- as the store keeps it ------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data (a race's puzzles are generated ones: no day)."""
        return {
            "id": self.id,
            "public": self.public,
            "owner": self.owner,
            "puzzles": [
                {"game": p.game, "board": p.board, "options": p.options, "shortest": p.shortest}
                for p in self.puzzles
            ],
            "starts": self.starts,
            "ends": self.ends,
            "racers": [asdict(r) for r in self.racers.values()],
            "rematch": self.rematch,
            "watchers": self.watchers,
            "version": self.version,
            "ratings": self.ratings,
            "opener": self.opener,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Race:
        return cls(
            data["id"],
            data["public"],
            data["owner"],
            [
                Challenge(p["game"], p["board"], p["options"], p["shortest"], None)
                for p in data["puzzles"]
            ],
            data["starts"],
            data["ends"],
            {r["key"]: _racer(r) for r in data["racers"]},
            data["rematch"],
            data["watchers"],
            data["version"],
            data["ratings"],
            data.get("opener", ""),
        )


def _racer(data: dict[str, Any]) -> Racer:
    """A stored racer (one stored before racers had several sockets had one ``sid``)."""
    data = dict(data)
    if "sid" in data:
        sid = data.pop("sid")
        data["sids"] = [sid] if sid else []
    return Racer(**data)


def _left(at: float | None, now: float) -> float | None:
    return None if at is None else round(max(0.0, at - now), 1)


def _is_guest(name: str) -> bool:
    """True for the "Guest N" a racer without a registered name is shown as."""
    prefix, _, suffix = GUEST.partition("%(number)s")
    middle = name[len(prefix) : len(name) - len(suffix)]
    return name.startswith(prefix) and name.endswith(suffix) and middle.isdigit()


def _unique(name: str, racers) -> str:
    taken = {r.name for r in racers}
    shown, n = name, 2
    while shown in taken:
        shown, n = f"{name} {n}", n + 1
    return shown


def watch_room(race_id: str) -> str:
    """The Socket.IO room of a race's spectators (rooms reach every web process)."""
    return f"race-watch:{race_id}"


def new_id() -> str:
    return secrets.token_urlsafe(6)
