"""What players chose: per position of a daily or a level, how many players took each move.

Read from the verified lines of unassisted results only (a line that used Solve
shows the solver's choice, not the player's). The index of one puzzle (position
-> next position -> players) is rebuilt at most every :data:`FRESH_SECONDS`,
and only :data:`KEPT` puzzles are kept, so a player asking after every move
costs a dictionary lookup, not a scan of every line.
"""

from __future__ import annotations

import collections
import threading
import time
from typing import Any

from sqlalchemy import select

from solver.core.domain import Domain

from ..storage import Database
from ..storage.models import Result

FRESH_SECONDS = 15.0  # for lines stored by other web processes; this one's forget at once
KEPT = 32

Index = dict[str, dict[str, set[int]]]


class Choices:
    """``moves(db, domain, puzzle_key, position)``: the players' choices from a position."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._kept: collections.OrderedDict[str, tuple[float, Index]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _index(self, db: Database, puzzle_key: str) -> Index:
        now = self._clock()
        with self._lock:
            kept = self._kept.get(puzzle_key)
            if kept and now - kept[0] < FRESH_SECONDS:
                return kept[1]
        index: Index = {}
        with db.session() as session:
            rows = session.execute(
                select(Result.player_id, Result.line).where(
                    Result.puzzle == puzzle_key, Result.assisted.is_(False)
                )
            )
            for player_id, line in rows:
                states = line.split("\n")
                for before, after in zip(states, states[1:], strict=False):
                    index.setdefault(before, {}).setdefault(after, set()).add(player_id)
        with self._lock:
            self._kept[puzzle_key] = (now, index)
            self._kept.move_to_end(puzzle_key)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return index

    def forget(self, puzzle_key: str) -> None:
        """A new line for ``puzzle_key`` was stored here: rebuild on the next question."""
        with self._lock:
            self._kept.pop(puzzle_key, None)

    def moves(self, db: Database, domain: Domain, puzzle_key: str, position: str) -> dict:
        """{players: who left this position, moves: [{move, board, players}]}, most taken
        first; every legal move is listed (0 when nobody took it)."""
        state = domain.parse(position)
        here = domain.format(state)
        taken = self._index(db, puzzle_key).get(here, {})
        moves: list[dict[str, Any]] = []
        for move, after in domain.legal_moves(state):
            board = domain.format(after)
            moves.append(
                {
                    "move": domain.describe(move),
                    "board": board,
                    "players": len(taken.get(board, ())),
                }
            )
        moves.sort(key=lambda m: -m["players"])
        everyone = set().union(*taken.values()) if taken else set()
        return {"position": here, "players": len(everyone), "moves": moves}
