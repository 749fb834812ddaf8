"""Help on record: the server's own help, asked about a ranked attempt while it is open.

The rules (``Ranked play, second pass``; the attempts are :mod:`webapp.players.attempts`).
An ``analyse``, ``solve`` or ``lab_run`` (the socket handlers of
:mod:`webapp.live.events`) or a ``/api/graph`` (:mod:`webapp.http.boards`) marks
assisted every *holding* it concerns:

* **the holder's cookie**: any request of the game and full options (its *family*) of
  one of the player's open attempts, running streaks and storms
  (:mod:`webapp.players.runs`) and rated races under way (:mod:`webapp.races.rating`),
  whatever the board (the coach analyses every position the player reaches);
* **the holder's address**: a request about the attempt's board, or a position the
  server has seen in it (a run's judged positions), from the address the puzzle was
  handed to, with any cookie or none (a second socket, a second browser); for a
  rated race, about its puzzles' games and options;
* **anyone**: a ladder or shipped-level attempt's board (handed to this player as
  theirs) asked about by anyone, anywhere.

**The check never waits.** :meth:`HelpLedger.asked` runs on the analyse path before
the job is submitted, so it reads memory only: the holdings this process knows, by
the holder's token and family, by board and address, by board for the boards anyone's
question counts on. Each is a dictionary lookup; the one piece of work, a board's
canonical form (a position can be written several ways), is cached and done only when
some holding's family matches. A match is a *mark*: the holding leaves the index and
its mark waits, in memory, for the writer (a background task) to write it with the
others of the last :data:`FLUSH_SECONDS` in one transaction. A results request waits
(:meth:`HelpLedger.settle`) until this process's marks of its player are written, so
a line sent right after a question is judged with it; a mark that cannot be written
(the database is down) keeps the submission from being ranked.

**Across web processes** the database is the shared record. Holdings opened in this
process are known at once; with a shared database (PostgreSQL: ``make cluster``'s web
processes) a watcher reads the holdings the others opened every :data:`POLL_SECONDS`
(new rows by id, one indexed read per table), and checks each against the questions
this process was asked in the last :data:`RECENT_SECONDS`, so a question that came
before this process knew its holding still counts. A submission then waits a poll,
a batch and :data:`SPREAD_MARGIN` before it is judged, the time for any process's mark
to reach the database. At start-up the holdings still open (opened within :data:`KEEP`) are
read once, in chunks.
"""

from __future__ import annotations

import collections
import datetime as dt
import functools
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import select, update

from solver import catalogue
from solver.core.errors import BoardError

from ..storage import Database
from ..storage.models import Attempt, Player, RaceEntry, RatedRace, Run
from .attempts import MAX_SECONDS, attempt_kind
from .challenges import Challenge
from .identity import address_key

log = logging.getLogger(__name__)

#: how long a results request waits for this process's help records still being written
SETTLE_SECONDS = 5.0
#: a mark waits at most this long for the others of its batch
FLUSH_SECONDS = 0.05
#: with a shared database, holdings other processes opened are read this often
POLL_SECONDS = 0.1
#: with a shared database, a submission waits a poll and a batch and this much more:
#: a mark any process made for a question asked before it arrived is written by then
SPREAD_MARGIN = 0.15
#: questions kept for holdings learnt late from other processes
RECENT_SECONDS = 3.0
#: an attempt is watched this long after it opened (longer: never ranked)
KEEP = dt.timedelta(seconds=MAX_SECONDS)
#: holdings held at most (the oldest go first)
MAX_HELD = 200_000
#: positions of a run remembered (its latest)
MAX_SEEN = 64
#: rows read at a time when loading or polling
CHUNK = 2000
#: a failed write of marks is tried again after this long
RETRY_SECONDS = 1.0
#: a poll reads this many ids back: a row inserted before the newest one read may
#: commit after it
LOOKBACK = 64

ATTEMPT, RUN, RACE = "attempt", "run", "race"
#: an attempt's kind (``attempts.kind``): anyone's question about a ladder or a level
#: puzzle's board counts, a daily's only from its holder
DAILY, LEVEL, LADDER = "daily", "level", "ladder"

Key = tuple[str, int]


def position_key(game: str, options_json: str, board: str) -> str:
    """A position's key (a canonical board under its full options), the same text as
    :attr:`webapp.players.challenges.Challenge.key` for a puzzle's start."""
    return hashlib.sha256(f"{game}|{options_json}|{board}".encode()).hexdigest()


def family_of(game: str, options_json: str) -> str:
    """The game and its full options, as a request is matched on (an attempt's ``family``)."""
    return hashlib.sha256(f"{game}|{options_json}".encode()).hexdigest()


@functools.lru_cache(maxsize=4096)
def _full(game: str, options: tuple) -> tuple[str, str] | None:
    """(family, full options as JSON) of a request's options; None when no puzzle has them."""
    try:
        full = catalogue.get(game).full_options(dict(options))
    except (BoardError, KeyError, TypeError, ValueError):
        return None
    text = json.dumps(full, sort_keys=True, separators=(",", ":"))
    return family_of(game, text), text


@functools.lru_cache(maxsize=128)
def _domain(game: str, options: tuple) -> Any:
    return catalogue.get(game).make_domain(**dict(options))


@functools.lru_cache(maxsize=65536)
def _canonical(game: str, options: tuple, board: str) -> str | None:
    """``board`` as the server writes it (pieces named, separators, blanks: one way), so
    a question about a position written another way is about the same position."""
    try:
        domain = _domain(game, options)
        return domain.format(domain.parse(board))
    except Exception:  # noqa: BLE001 - no position: a question about no holding's board
        return None


def _items(options: dict) -> tuple | None:
    try:
        items = tuple(sorted(options.items()))
        hash(items)
    except TypeError:
        return None
    return items


class Holding:
    """One thing a player holds that help unranks: an open attempt, a running run, a
    rated race's entry. ``families`` are what its holder's cookie is matched on,
    ``boards`` the positions whose question from its ``address`` counts (``everyone``:
    from anyone), ``places`` the families whose question from its address counts (a
    race's), ``until`` when it is over (on the players' clock; a question after it is
    no help to it)."""

    __slots__ = (
        "kind",
        "id",
        "token",
        "families",
        "boards",
        "places",
        "address",
        "everyone",
        "until",
    )

    def __init__(
        self,
        kind: str,
        id_: int,
        token: str,
        families: Iterable[str],
        boards: Iterable[str] = (),
        address: str | None = None,
        everyone: bool = False,
        places: Iterable[str] = (),
        until: dt.datetime | None = None,
    ):
        self.kind, self.id, self.token = kind, id_, token
        self.until = until
        self.families = frozenset(families)
        self.boards: list[str] = list(dict.fromkeys(boards))
        self.places = frozenset(places)
        self.address, self.everyone = address, everyone

    @property
    def key(self) -> Key:
        return self.kind, self.id


class HelpLedger:
    """This process's record of help: the holdings it knows, the marks it has to write.

    ``db`` is the players' database (asked when needed), ``spawn(task, *args)`` starts a
    background task (a greenlet under gevent), ``clock`` the players' clock (naive
    UTC). The app's setup gives it the cookie secret (``secret``: an address is kept
    as its keyed hash, :func:`~webapp.players.identity.address_key`) and says whether
    other processes share the database (``shared``)."""

    def __init__(
        self,
        db: Callable[[], Database],
        spawn: Callable[..., object],
        clock: Callable[[], dt.datetime] | None = None,
    ):
        self._db = db
        self._spawn = spawn
        self._now = clock or (lambda: dt.datetime.now(dt.UTC).replace(tzinfo=None))
        self.secret = ""
        self.shared = False
        #: with a shared database, how long a submission waits for the other processes'
        #: marks (a poll, a batch and the margin; a test with one process sets 0)
        self.spread = POLL_SECONDS + FLUSH_SECONDS + SPREAD_MARGIN
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)
        self._wake = threading.Event()
        self._held: collections.OrderedDict[Key, Holding] = collections.OrderedDict()
        self._by_token: dict[str, dict[str, set[Key]]] = {}
        self._by_place: dict[tuple[str, str], set[Key]] = {}  # (board or family, address)
        self._everyone: dict[str, set[Key]] = {}  # board -> holdings anyone's question marks
        self._families: collections.Counter[str] = collections.Counter()  # with boards held
        self._pending: dict[Key, Holding] = {}  # marked, not yet written
        self._writing: collections.Counter[str] = collections.Counter()  # token -> marks
        self._recent: dict[str, collections.deque] = {}  # family -> (when, token, address, ...)
        self._addresses: dict[str, str] = {}  # address -> its keyed hash (bounded)
        self._last = {ATTEMPT: 0, RUN: 0, RACE: 0}  # the newest row id read, per table
        self._running = False
        self._watching = False
        self._loaded = False
        self.marked = 0  # marks written (the figures)

    # -- the question: memory only -------------------------------------------------------
    def asked(
        self, token: str | None, address: str | None, game: str, options: dict, board: str
    ) -> None:
        """Record a question (``analyse``, ``solve``, ``lab_run``, ``/api/graph``) from the
        player ``token`` (None: a socket or request without one) at ``address`` about
        ``board`` under ``options``. In memory: it never waits and never raises; the
        marks it makes are written in the background (:meth:`settle` waits for them)."""
        try:
            self._asked(token, address or "", game, options, board)
        except Exception:  # noqa: BLE001 - a bug here must not cost the player an answer
            log.exception("could not check a question against the record of help")

    def _asked(self, token: str | None, address: str, game: str, options: dict, board: str) -> None:
        items = _items(options)
        if items is None:
            return
        full = _full(game, items)
        if full is None:
            return
        family, options_json = full
        marks: set[Key] = set()
        with self._lock:
            if not self._running:
                self._start_locked()
            if token:
                marks |= self._by_token.get(token, {}).get(family, set())
            checking = self._families[family] > 0
        place = None
        if checking or self.shared:
            canonical = _canonical(game, items, board) if isinstance(board, str) else None
            place = position_key(game, options_json, canonical) if canonical else None
        with self._lock:
            if checking:
                where = self._address_key(address)
                for key in (place, family):
                    if key is not None:
                        marks |= self._by_place.get((key, where), set())
                if place is not None:
                    marks |= self._everyone.get(place, set())
            if self.shared:  # for holdings learnt from other processes after this question
                recent = self._recent.setdefault(family, collections.deque(maxlen=4096))
                recent.append((time.monotonic(), token, address, place))
            self._mark_locked(marks)

    def _address_key(self, address: str) -> str:
        found = self._addresses.get(address)
        if found is None:
            if len(self._addresses) > 8192:
                self._addresses.clear()
            found = self._addresses[address] = address_key(self.secret, address)
        return found

    def holder_address(self, address: str | None) -> str:
        """``address`` as a holding keeps it (a keyed hash, as the database does)."""
        with self._lock:
            return self._address_key(address or "")

    # -- holdings ------------------------------------------------------------------------
    def hold_attempt(
        self, attempt_id: int, token: str, address: str | None, puzzle: Challenge
    ) -> None:
        """The attempt ``attempt_id`` at ``puzzle``, handed to ``token`` at ``address``
        (raw; kept hashed), watched from now on."""
        self.hold(
            Holding(
                ATTEMPT,
                attempt_id,
                token,
                [family_of(puzzle.game, puzzle.options_json)],
                [puzzle.key],
                self.holder_address(address),
                everyone=attempt_kind(puzzle) in (LEVEL, LADDER),
                until=self._now() + KEEP,
            )
        )

    def hold_run(self, run: Run, token: str) -> None:
        """A running streak or storm (a row of ``runs``), as it stands now: its game and
        options, its puzzle's start and the position reached (kept with those seen
        before, so a question about any of them from its address counts)."""
        with self._lock:
            before = self._drop_locked((RUN, run.id))
        if run.assisted or run.ended is not None:
            return
        seen = before.boards if before is not None else []
        boards = [*seen, run.puzzle, position_key(run.game, run.options, run.board)]
        self.hold(
            Holding(
                RUN,
                run.id,
                token,
                [run.family],
                boards[-MAX_SEEN:],
                run.address_key,
                until=run.expires,
            )
        )

    def hold(self, holding: Holding) -> None:
        """Watch ``holding`` from now on (again: nothing changes)."""
        with self._lock:
            if not self._running:
                self._start_locked()
            self._hold_locked(holding)

    def _hold_locked(self, holding: Holding) -> None:
        key = holding.key
        if key in self._held or key in self._pending:
            return
        self._held[key] = holding
        families = self._by_token.setdefault(holding.token, {})
        for family in holding.families:
            families.setdefault(family, set()).add(key)
        if holding.address is not None:
            for place in [*holding.boards, *holding.places]:
                self._by_place.setdefault((place, holding.address), set()).add(key)
        if holding.everyone:
            for board in holding.boards:
                self._everyone.setdefault(board, set()).add(key)
        if holding.boards or holding.places:
            for family in holding.families:
                self._families[family] += 1
        while len(self._held) > MAX_HELD:
            self._drop_locked(next(iter(self._held)))

    def seen(self, kind: str, holding_id: int, board_key: str) -> None:
        """The server saw ``board_key`` in a holding (a run's judged move): a question
        about it from the holder's address counts from now on."""
        with self._lock:
            holding = self._held.get((kind, holding_id))
            if holding is None or holding.address is None or board_key in holding.boards:
                return
            holding.boards.append(board_key)
            self._by_place.setdefault((board_key, holding.address), set()).add(holding.key)
            if len(holding.boards) > MAX_SEEN:
                old = holding.boards.pop(0)
                self._unplace_locked(old, holding)

    def release(self, kind: str, holding_id: int) -> None:
        """The holding ended (its result is on record): forget it."""
        with self._lock:
            self._drop_locked((kind, holding_id))

    def held(self) -> int:
        with self._lock:
            return len(self._held)

    def _unplace_locked(self, place: str, holding: Holding) -> None:
        found = self._by_place.get((place, holding.address or ""))
        if found is not None:
            found.discard(holding.key)
            if not found:
                del self._by_place[(place, holding.address or "")]

    def _drop_locked(self, key: Key) -> Holding | None:
        holding = self._held.pop(key, None)
        if holding is None:
            return None
        families = self._by_token.get(holding.token, {})
        for family in holding.families:
            keys = families.get(family)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del families[family]
        if not families:
            self._by_token.pop(holding.token, None)
        if holding.address is not None:
            for place in [*holding.boards, *holding.places]:
                self._unplace_locked(place, holding)
        for board in holding.boards if holding.everyone else ():
            found = self._everyone.get(board)
            if found is not None:
                found.discard(key)
                if not found:
                    del self._everyone[board]
        if holding.boards or holding.places:
            for family in holding.families:
                self._families[family] -= 1
                if self._families[family] <= 0:
                    del self._families[family]
        return holding

    # -- marks ---------------------------------------------------------------------------
    def _mark_locked(self, keys: Iterable[Key]) -> None:
        """Mark the holdings ``keys`` (each leaves the index; one already over is only
        forgotten) and wake the writer."""
        keys = list(keys)
        if not keys:
            return
        now, marked = self._now(), False
        for key in keys:
            holding = self._drop_locked(key)
            if holding is None or (holding.until is not None and holding.until <= now):
                continue
            self._pending[key] = holding
            self._writing[holding.token] += 1
            marked = True
        if marked:
            self._wake.set()

    def _start_locked(self) -> None:
        if not self._running:
            self._running = True
            self._spawn(self._write_marks)
        if self.shared and not self._watching:
            self._watching = True
            self._spawn(self._watch)

    def _write_marks(self) -> None:
        """The writer: every batch of marks in one transaction, soon after the first."""
        while not self._db().closed:
            if not self._wake.wait(1.0):
                continue
            time.sleep(FLUSH_SECONDS)
            with self._lock:
                self._wake.clear()
                batch = dict(self._pending)
            if not batch:
                continue
            try:
                self._write(batch.values())
            except Exception:  # the database is down: kept, tried again; no rank meanwhile
                log.exception("could not record help for %s holdings; trying again", len(batch))
                time.sleep(RETRY_SECONDS)
                self._wake.set()
                continue
            with self._lock:
                for key, holding in batch.items():
                    if self._pending.pop(key, None) is not None:
                        self._writing[holding.token] -= 1
                        if self._writing[holding.token] <= 0:
                            del self._writing[holding.token]
                self.marked += len(batch)
                self._settled.notify_all()

    def _write(self, holdings: Iterable[Holding]) -> None:
        ids: dict[str, list[int]] = {ATTEMPT: [], RUN: [], RACE: []}
        for holding in holdings:
            ids[holding.kind].append(holding.id)
        with self._db().writing() as session:
            if ids[ATTEMPT]:
                session.execute(
                    update(Attempt)
                    .where(Attempt.id.in_(ids[ATTEMPT]), Attempt.finished.is_(None))
                    .values(assisted=True)
                )
            if ids[RUN]:
                session.execute(
                    update(Run)
                    .where(Run.id.in_(ids[RUN]), Run.ended.is_(None))
                    .values(assisted=True)
                )
            if ids[RACE]:
                session.execute(
                    update(RaceEntry).where(RaceEntry.id.in_(ids[RACE])).values(assisted=True)
                )

    # -- results ---------------------------------------------------------------------------
    def settle(self, token: str | None, timeout: float | None = None) -> bool:
        """Wait until the help asked before now is on record for ``token``'s holdings:
        this process's marks written, and with a shared database :attr:`spread` for the
        other processes'. False when some are still unwritten after ``timeout`` (the
        submission is then judged as helped)."""
        if self.shared and self.spread:
            time.sleep(self.spread)
        if not token:
            return True
        wait = SETTLE_SECONDS if timeout is None else timeout
        with self._settled:
            return self._settled.wait_for(lambda: token not in self._writing, wait)

    # -- what the database knows ----------------------------------------------------------
    def load(self) -> None:
        """Read the holdings still open (attempts opened within :data:`KEEP`, runs and
        race entries not yet over), a chunk at a time: at start-up, once."""
        with self._lock:
            if self._loaded:
                return
            self._loaded = True
            self._start_locked()  # the writer, and with a shared database the watcher
        now = self._now()
        for kind in (ATTEMPT, RUN, RACE):
            while True:
                found, read = self._read(kind, now, self._last[kind])
                for holding in found:
                    self.hold(holding)
                if read < CHUNK:
                    break

    def _watch(self) -> None:
        """With a shared database: the holdings other processes open, every poll; each
        checked against the questions asked here meanwhile."""
        while not self._db().closed:
            time.sleep(POLL_SECONDS)
            try:
                now = self._now()
                for kind in (ATTEMPT, RUN, RACE):
                    found, _read = self._read(kind, now, self._last[kind], lookback=True)
                    for holding in found:
                        self._learn(holding)
            except Exception:  # noqa: BLE001 - the database is away: the next poll tries again
                log.warning("could not read the holdings other processes opened", exc_info=True)
                time.sleep(RETRY_SECONDS)

    def _learn(self, holding: Holding) -> None:
        """A holding another process opened: held, and marked at once when a question
        asked here in the last :data:`RECENT_SECONDS` concerns it."""
        since = time.monotonic() - RECENT_SECONDS
        with self._lock:
            if holding.key in self._held:
                return
            self._hold_locked(holding)
            where = holding.address
            for family in holding.families:
                for when, token, address, place in self._recent.get(family, ()):
                    if when < since:
                        continue
                    by_place = where is not None and self._address_key(address) == where
                    if (
                        token == holding.token
                        or (holding.everyone and place in holding.boards)
                        or (by_place and (place in holding.boards or family in holding.places))
                    ):
                        self._mark_locked([holding.key])
                        return

    def _read(
        self, kind: str, now: dt.datetime, after: int, lookback: bool = False
    ) -> tuple[list[Holding], int]:
        """Open holdings of ``kind`` with an id past ``after`` (less :data:`LOOKBACK` with
        ``lookback``: a row another transaction inserted earlier may commit later), oldest
        first, a chunk: those not held already, and how many rows were read."""
        since = max(0, after - LOOKBACK) if lookback else after
        read = {ATTEMPT: self._attempts, RUN: self._runs, RACE: self._entries}[kind]
        with self._db().session() as session:
            found, ids = read(session, now, since)
        newest = max(ids, default=after)
        with self._lock:
            self._last[kind] = max(self._last[kind], newest)
            fresh = [h for h in found if h.key not in self._held and h.key not in self._pending]
        return fresh, len(ids)

    @staticmethod
    def _attempts(session: Any, now: dt.datetime, since: int) -> tuple[list[Holding], list[int]]:
        rows = session.execute(
            select(
                Attempt.id,
                Player.token,
                Attempt.family,
                Attempt.puzzle,
                Attempt.address_key,
                Attempt.kind,
                Attempt.opened,
            )
            .join(Player, Player.id == Attempt.player_id)
            .where(
                Attempt.id > since,
                Attempt.finished.is_(None),
                Attempt.assisted.is_(False),
                Attempt.opened > now - KEEP,
            )
            .order_by(Attempt.id)
            .limit(CHUNK)
        ).all()
        found = [
            Holding(ATTEMPT, i, t, [f], [p], a, k in (LEVEL, LADDER), until=o + KEEP)
            for i, t, f, p, a, k, o in rows
        ]
        return found, [row[0] for row in rows]

    @staticmethod
    def _runs(session: Any, now: dt.datetime, since: int) -> tuple[list[Holding], list[int]]:
        rows = session.execute(
            select(
                Run.id,
                Player.token,
                Run.family,
                Run.puzzle,
                Run.address_key,
                Run.game,
                Run.options,
                Run.board,
                Run.expires,
            )
            .join(Player, Player.id == Run.player_id)
            .where(
                Run.id > since,
                Run.ended.is_(None),
                Run.assisted.is_(False),
                Run.expires > now,
            )
            .order_by(Run.id)
            .limit(CHUNK)
        ).all()
        found = [
            Holding(RUN, i, t, [f], [p, position_key(g, o, b)], a, until=e)
            for i, t, f, p, a, g, o, b, e in rows
        ]
        return found, [row[0] for row in rows]

    @staticmethod
    def _entries(session: Any, now: dt.datetime, since: int) -> tuple[list[Holding], list[int]]:
        rows = session.execute(
            select(
                RaceEntry.id,
                Player.token,
                RatedRace.families,
                RaceEntry.address_key,
                RaceEntry.ends,
            )
            .join(Player, Player.id == RaceEntry.player_id)
            .join(RatedRace, RatedRace.id == RaceEntry.rated_race)
            .where(
                RaceEntry.id > since,
                RaceEntry.ends > now,
                RaceEntry.assisted.is_(False),
            )
            .order_by(RaceEntry.id)
            .limit(CHUNK)
        ).all()
        found = [
            Holding(RACE, i, t, json.loads(fs), (), a, places=json.loads(fs), until=e)
            for i, t, fs, a, e in rows
        ]
        return found, [row[0] for row in rows]
