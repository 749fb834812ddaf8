"""Help on record: which of a player's open ranked attempts their sockets asked about.

The rule (see :mod:`webapp.players.attempts`): an ``analyse`` or ``solve`` from the
player's socket whose game and full options are those of one of the player's open
attempts marks that attempt assisted, whatever the board; the same for a streak or
storm still running (:mod:`webapp.players.runs`), and for a rated race under way
(:mod:`webapp.races.rating`: one of its puzzles' game and options). The socket handlers
(:mod:`webapp.live.events`) hand every such request to :meth:`HelpLedger.route` with the
socket's player (:class:`webapp.live.connections.Connections` knows whose each socket is).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
from collections.abc import Callable

from sqlalchemy import select, update

from ..storage import Database
from ..storage.models import Attempt, Player, RaceEntry, RatedRace, Run
from .attempts import request_family

log = logging.getLogger(__name__)

#: how long a results request waits for this process's help records still being written
SETTLE_SECONDS = 5.0


class HelpLedger:
    """Records, for the players' sockets, which open attempts they asked help about.

    :meth:`route` is called by the ``analyse``/``solve`` handler with the job's
    ``submit``: a request that matches none of the player's open, unassisted attempts
    is submitted at once (one indexed read). One that matches is submitted only
    after the mark is written, in a background task, so the answer never reaches a
    client before its help is on record; the socket's later requests queue behind
    it, so they still run in the order sent. A results request waits (up to
    :data:`SETTLE_SECONDS`) for this process's marks of its player still being
    written, so a submission sent right after a question is judged with it.
    """

    def __init__(
        self,
        db: Callable[[], Database],
        spawn: Callable[..., object],
        clock: Callable[[], dt.datetime] | None = None,
    ):
        self._db = db
        self._spawn = spawn
        self._now = clock or (lambda: dt.datetime.now(dt.UTC).replace(tzinfo=None))
        self._lock = threading.Lock()
        # sid -> requests (submit, refuse) waiting behind a mark being written
        self._queued: dict[str, list[tuple[Callable[[], None], Callable[[str], None]]]] = {}
        self._writing: dict[str, int] = {}  # token -> marks being written
        self._settled = threading.Condition(self._lock)

    # -- sockets ---------------------------------------------------------------
    def route(
        self,
        sid: str,
        token: str | None,
        game: str,
        options: dict,
        submit: Callable[[], None],
        refuse: Callable[[str], None],
    ) -> None:
        """Submit socket ``sid``'s request, after recording it as help when it is help
        (``token``: the socket's player, :class:`webapp.live.connections.Connections`)."""
        with self._lock:
            queue = self._queued.get(sid)
            if queue is not None:
                queue.append((submit, refuse))
                return
        key = request_family(game, options) if token else None
        ids, runs, races = self._open_unassisted(token, key) if token and key else ([], [], [])
        if not ids and not runs and not races:
            submit()
            return
        assert token is not None
        with self._lock:
            self._queued[sid] = [(submit, refuse)]
            self._writing[token] = self._writing.get(token, 0) + 1
        self._spawn(self._mark, sid, token, ids, runs, races)

    def _open_unassisted(self, token: str, key: str) -> tuple[list[int], list[int], list[int]]:
        """The player's open, unassisted attempts, running runs and rated races under
        way (their entries) of ``key``."""
        with self._db().session() as session:
            attempts = session.scalars(
                select(Attempt.id)
                .join(Player, Player.id == Attempt.player_id)
                .where(
                    Player.token == token,
                    Attempt.family == key,
                    Attempt.finished.is_(None),
                    Attempt.assisted.is_(False),
                )
            )
            runs = session.scalars(
                select(Run.id)
                .join(Player, Player.id == Run.player_id)
                .where(
                    Player.token == token,
                    Run.family == key,
                    Run.ended.is_(None),
                    Run.expires > self._now(),
                    Run.assisted.is_(False),
                )
            )
            entries = session.execute(
                select(RaceEntry.id, RatedRace.families)
                .join(Player, Player.id == RaceEntry.player_id)
                .join(RatedRace, RatedRace.id == RaceEntry.rated_race)
                .where(
                    Player.token == token,
                    RaceEntry.ends > self._now(),
                    RaceEntry.assisted.is_(False),
                )
            ).all()
            races = [entry for entry, families in entries if key in json.loads(families)]
            return list(attempts), list(runs), races

    def _mark(
        self, sid: str, token: str, ids: list[int], runs: list[int], races: list[int]
    ) -> None:
        ok = True
        try:
            with self._db().writing() as session:
                if ids:
                    session.execute(
                        update(Attempt)
                        .where(Attempt.id.in_(ids), Attempt.finished.is_(None))
                        .values(assisted=True)
                    )
                if runs:
                    session.execute(
                        update(Run)
                        .where(Run.id.in_(runs), Run.ended.is_(None))
                        .values(assisted=True)
                    )
                if races:
                    session.execute(
                        update(RaceEntry).where(RaceEntry.id.in_(races)).values(assisted=True)
                    )
        except Exception:  # the database is down: give no help that is not on record
            log.exception(
                "could not record help for attempts %s, runs %s, race entries %s", ids, runs, races
            )
            ok = False
        with self._lock:
            self._writing[token] -= 1
            if not self._writing[token]:
                del self._writing[token]
            self._settled.notify_all()
        while True:
            with self._lock:
                waiting = self._queued.get(sid) or []
                if not waiting:
                    self._queued.pop(sid, None)
                    return
                self._queued[sid] = []
            for submit, refuse in waiting:
                if ok:
                    submit()
                else:
                    refuse("could not record this request; try again")

    # -- results ---------------------------------------------------------------
    def settle(self, token: str | None, timeout: float = SETTLE_SECONDS) -> None:
        """Wait until this process has written every help mark of ``token``'s sockets."""
        if not token:
            return
        with self._settled:
            self._settled.wait_for(lambda: token not in self._writing, timeout)
