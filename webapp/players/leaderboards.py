"""Reading boards: a puzzle's leaderboard, a player's rank on it, its length counts.

Reads run on the web process's one event loop, so none of them may scale with the
players: storing a result (:mod:`webapp.players.results`) keeps each player's best
on the board (``bests``) and the count of players per length (``board_lengths``).
A leaderboard is then the first rows of an index, the distribution a handful of
rows, and a rank the count of an index range: counted per reader in the database
(:func:`standing`), or, for the many readers of the web process, a binary search in
the board's scores kept a second (:class:`BoardViews`), read once for all of them.
"""

from __future__ import annotations

import collections
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np
from sqlalchemy import Select, case, func, select

from ..storage import Database
from ..storage.database import let_others_run
from ..storage.models import Best, BoardLength, BoardVersion, Player, Result
from .identity import shown_name
from .results import BestChange

LEADERBOARD_SIZE = 100
#: scores converted per turn of the loop while a board's scores are read
SCORES_CHUNK = 4000


@dataclass(frozen=True)
class Entry:
    rank: int
    player_id: int
    name: str
    length: int
    seconds: float


def board_view(db: Database, puzzle_key: str) -> dict:
    """A board's part of its leaderboard, the same for every reader: ``players``, the
    first :data:`LEADERBOARD_SIZE` ``entries`` (equal results share a rank) and the
    ``distribution`` of lengths: a few indexed reads whatever the number of players."""
    top = (
        select(Best.player_id, Player.name, Best.length, Best.seconds, Best.score)
        .join(Player, Player.id == Best.player_id)
        .where(Best.puzzle == puzzle_key)
        .order_by(Best.score, Best.result_id)
        .limit(LEADERBOARD_SIZE)
    )
    lengths = (
        select(BoardLength.length, BoardLength.players)
        .where(BoardLength.puzzle == puzzle_key, BoardLength.players > 0)
        .order_by(BoardLength.length)
    )
    with db.session() as session:
        rows = session.execute(top).all()
        let_others_run()
        spread = session.execute(lengths).all()
    let_others_run()
    entries: list[Entry] = []
    for index, (pid, name, length, seconds, best) in enumerate(rows):
        same = index > 0 and rows[index - 1].score == best
        rank = entries[-1].rank if same else index + 1
        entries.append(Entry(rank, pid, shown_name(pid, name), length, seconds))
    return {
        "players": sum(n for _length, n in spread),
        "entries": entries,
        "distribution": [{"length": length, "players": n} for length, n in spread],
    }


def board_scores(db: Database, puzzle_key: str) -> np.ndarray:
    """Every ranked player's score on the board, ascending: one read along
    ``ix_bests_rank`` (one snapshot), converted :data:`SCORES_CHUNK` rows at a time with
    the loop serving others in between. A rank is then a binary search in memory instead
    of a count stepping over the index entries of everyone ahead, per reader."""
    query = select(Best.score).where(Best.puzzle == puzzle_key).order_by(Best.score)
    parts = []
    with db.session() as session:  # Core rows: the ORM's would cost 3-4 times as much
        for part in session.connection().execute(query).scalars().partitions(SCORES_CHUNK):
            parts.append(np.array(part, dtype=np.int64))
            let_others_run()
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)


def board_version(db: Database, puzzle_key: str) -> int:
    """A number that moves whenever the board's bests change, whichever process stored
    them (0 before the first): one primary-key read."""
    query = select(BoardVersion.version).where(BoardVersion.puzzle == puzzle_key)
    with db.session() as session:
        return int(session.connection().execute(query).scalar() or 0)


def _patched(scores: np.ndarray, change: BestChange) -> np.ndarray | None:
    """``scores`` with ``change`` made (a new array: readers may hold the old one), or
    None when they do not hold its old score (not the scores it was made on)."""
    if change.old is not None:
        at = int(np.searchsorted(scores, change.old))
        if at == len(scores) or scores[at] != change.old:
            return None
        scores = np.delete(scores, at)
    return np.insert(scores, int(np.searchsorted(scores, change.new)), change.new)


T = TypeVar("T")


@dataclass
class _Held(Generic[T]):
    """A kept value: when it was last known fresh, the version it was read at, and when
    it was read."""

    checked: float
    version: object
    value: T
    read: float


class Kept(Generic[T]):
    """Values kept ``fresh`` seconds per key (the ``size`` most recent keys), read by one
    reader at a time: meanwhile the others take the value kept, or wait for the read
    when there is none (a crowd arriving at once costs one read, not one each).

    Given a ``version`` (a cheap read of something that changes whenever the value
    would), a value past its freshness is read again only when its version moved or it
    was read ``longest`` seconds ago: an unchanged board costs a version check a
    second, not a read of every score."""

    def __init__(
        self, clock: Callable[[], float], fresh: float, size: int, longest: float = math.inf
    ):
        self._clock, self._fresh, self._size, self._longest = clock, fresh, size, longest
        self._values: collections.OrderedDict[str, _Held[T]] = collections.OrderedDict()
        self._reading: dict[str, threading.Event] = {}
        self._forgotten = 0  # a read begun before a forget() is not kept
        self._lock = threading.Lock()

    def get(
        self, key: str, read: Callable[[], T], version: Callable[[], object] | None = None
    ) -> T:
        while True:
            now = self._clock()
            with self._lock:
                kept = self._values.get(key)
                if kept is not None and now - kept.checked < self._fresh:
                    return kept.value
                reading = self._reading.get(key)
                if reading is None:
                    reading = self._reading[key] = threading.Event()
                    forgotten = self._forgotten
                    break
                if kept is not None:  # being read again: this one is at most a read older
                    return kept.value
            reading.wait()
        try:
            seen = version() if version is not None else None  # before the read it dates
            if (
                kept is not None
                and version is not None
                and seen == kept.version
                and now - kept.read < self._longest
            ):
                held = _Held(now, seen, kept.value, kept.read)
            else:
                held = _Held(now, seen, read(), now)
        except BaseException:
            with self._lock:
                del self._reading[key]
            reading.set()  # the waiting readers try themselves
            raise
        with self._lock:
            if forgotten == self._forgotten:
                self._values[key] = held
                self._values.move_to_end(key)
                while len(self._values) > self._size:
                    self._values.popitem(last=False)
            del self._reading[key]
        reading.set()
        return held.value

    def forget(self, key: str | None = None) -> None:
        with self._lock:
            self._forgotten += 1
            if key is None:
                self._values.clear()
            else:
                self._values.pop(key, None)

    def change(self, key: str, change: Callable[[T], T | None]) -> None:
        """Replace the value kept for ``key`` by ``change(value)`` (None: forget it), kept
        until it would have expired: reads under way are still kept."""
        with self._lock:
            kept = self._values.get(key)
            if kept is None:
                return
            changed = change(kept.value)
            if changed is None:
                del self._values[key]
            else:
                kept.value = changed


class BoardViews:
    """Each board's :func:`board_view` and :func:`board_scores`, kept for
    :data:`FRESH_SECONDS`: a crowd reading one leaderboard at once costs the database
    (and the event loop) one read, not one each, and each reader's rank is a binary
    search in the kept scores. A result stored by this process forgets its board's view
    at once and is patched into its scores (:meth:`stored`); another web process's shows
    within the freshness. Past it, the scores are read again only when the board's
    :func:`board_version` moved (or every :data:`SCORES_LONGEST`): re-reading 50,000
    scores every second was most of a leaderboard read's loop time in a profile."""

    FRESH_SECONDS = 1.0
    #: scores whose board's version has not moved are still read again this often
    SCORES_LONGEST = 60.0
    KEPT = 256

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._views: Kept[dict] = Kept(clock, self.FRESH_SECONDS, self.KEPT)
        self._scores: Kept[np.ndarray] = Kept(
            clock, self.FRESH_SECONDS, self.KEPT, self.SCORES_LONGEST
        )

    def get(self, db: Database, puzzle_key: str) -> dict:
        return self._views.get(puzzle_key, lambda: board_view(db, puzzle_key))

    def scores(self, db: Database, puzzle_key: str) -> np.ndarray:
        return self._scores.get(
            puzzle_key,
            lambda: board_scores(db, puzzle_key),
            lambda: board_version(db, puzzle_key),
        )

    def forget(self, puzzle_key: str | None = None) -> None:
        """A player's name changed (None: any board may show it), or a result for
        ``puzzle_key`` was stored here: read the view again next time. The scores stay:
        a name moves none, and :meth:`stored` patches a result in."""
        self._views.forget(puzzle_key)

    def stored(self, puzzle_key: str, change: BestChange | None) -> None:
        """A result for ``puzzle_key`` was stored here
        (:func:`~webapp.players.results.submit`): its view is read
        again, its scores patched (a rank is right at once, without reading them all)."""
        self.forget(puzzle_key)
        if change is not None:
            self._scores.change(puzzle_key, lambda scores: _patched(scores, change))

    def standing(self, db: Database, player_id: int, puzzle_key: str) -> dict:
        """:func:`standing` from the kept scores: the player's best by key, then a binary
        search. Scores without the player's best (stored by another process since they
        were read) cannot rank it: then :func:`standing` counts in the database."""
        with db.session() as session:  # Core: the ORM would double this read's cost
            mine = session.connection().execute(_best_of(player_id, puzzle_key)).first()
        if mine is None:
            return {"rank": None, "players": self.get(db, puzzle_key)["players"], "beat": None}
        scores = self.scores(db, puzzle_key)
        better = int(np.searchsorted(scores, mine.score, side="left"))
        equal = int(np.searchsorted(scores, mine.score, side="right")) - better
        if equal == 0:
            return standing(db, player_id, puzzle_key)
        return _standing(len(scores), better, equal, mine.length, mine.seconds)


def leaderboard(
    db: Database, puzzle_key: str, player_id: int | None, views: BoardViews | None = None
) -> dict:
    """:func:`board_view` and ``me`` (None without a player): from ``views`` when given
    (:meth:`BoardViews.standing`), else read now (:func:`standing`)."""
    view = views.get(db, puzzle_key) if views is not None else board_view(db, puzzle_key)
    if player_id is None:
        me = None
    elif views is not None:
        me = views.standing(db, player_id, puzzle_key)
    else:
        me = standing(db, player_id, puzzle_key)
    let_others_run()  # the request's next read (the streak) waits its turn
    return {**view, "me": me}


def _best_of(player_id: int, puzzle_key: str) -> Select:
    """The player's best on the board (score, length, seconds): one primary-key read."""
    return select(Best.score, Best.length, Best.seconds).where(
        Best.puzzle == puzzle_key, Best.player_id == player_id
    )


def standing(db: Database, player_id: int, puzzle_key: str) -> dict:
    """``rank`` (None when not ranked), ``players`` and ``beat``: the share of the other
    ranked players with a worse result, in percent (None when nobody else played);
    ``best`` ({length, seconds}) when ranked: key lookups and index range counts."""
    with db.session() as session:
        players = int(
            session.scalar(
                select(func.coalesce(func.sum(BoardLength.players), 0)).where(
                    BoardLength.puzzle == puzzle_key
                )
            )
            or 0
        )
        mine = session.execute(_best_of(player_id, puzzle_key)).first()
        reply: dict[str, Any] = {"rank": None, "players": players, "beat": None}
        if mine is None:
            return reply
        let_others_run()
        # two plain index range counts: SQLite counts index entries without reading
        # them when nothing else is asked (a CASE over the range is several times slower)
        ranked = select(func.count()).select_from(Best).where(Best.puzzle == puzzle_key)
        better = session.scalar(ranked.where(Best.score < mine.score)) or 0
        let_others_run()
        equal = session.scalar(ranked.where(Best.score == mine.score)) or 0
    return _standing(players, better, equal, mine.length, mine.seconds)


def _standing(players: int, better: int, equal: int, length: int, seconds: float) -> dict:
    """A ranked player's standing from the counts of scores below theirs and equal to it
    (theirs included): equal scores share a rank, ``beat`` counts the others' worse ones."""
    beat = round(100 * (players - better - equal) / (players - 1)) if players > 1 else None
    return {
        "rank": better + 1,
        "players": players,
        "beat": beat,
        "best": {"length": length, "seconds": seconds},
    }


def puzzle_counts(db: Database, keys: list[str]) -> dict[str, dict]:
    """Per puzzle key: ``players`` (with any result), ``solved`` (without help) and
    ``optimal`` (without help, in the fewest moves), each counted once per player."""
    unaided = Result.assisted.is_(False)
    solved = case((unaided, Result.player_id))
    optimal = case((unaided & (Result.length <= Result.shortest), Result.player_id))
    query = (
        select(
            Result.puzzle,
            func.count(Result.player_id.distinct()),
            func.count(solved.distinct()),
            func.count(optimal.distinct()),
        )
        .where(Result.puzzle.in_(keys))
        .group_by(Result.puzzle)
    )
    with db.session() as session:
        return {
            key: {"players": players, "solved": won, "optimal": best}
            for key, players, won, best in session.execute(query)
        }
