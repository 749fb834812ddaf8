"""A race's clock: a greenlet in each web process that asks the store for the transitions due.

A race's clock is two stored deadlines (:class:`~webapp.races.model.Race`'s ``starts``
and ``ends``); the store hands each transition due to exactly one caller
(:meth:`RaceStore.due <webapp.races.store.RaceStore.due>`), and the process handed it
broadcasts it: at a race's start its rating opens first (:func:`webapp.races.rating.open_race`:
help is on record from then), at its end it ends (:func:`webapp.races.ending.end_race`),
both off the ticker. The ticker outlives a store out of reach (Redis down), saying so
once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from flask import Flask
from flask_socketio import SocketIO

from ..puzzle_request import RequestRefused
from . import rating
from .ending import end_race
from .model import Race
from .store import FINISHED_NOW, RaceStore

log = logging.getLogger(__name__)

#: how often each web process asks the store for the clock's transitions due
TICK_SECONDS = 0.1


class RaceClock:
    """This process's ticker over ``store``; ``broadcast(race)`` tells a race's change."""

    def __init__(self, socketio: SocketIO, broadcast: Callable[[Race], None]) -> None:
        self._socketio = socketio
        self._broadcast = broadcast

    def start(self, app: Flask, store: RaceStore) -> None:
        """Start the ticker (once per store: the caller makes the store once)."""
        self._socketio.start_background_task(self._tick, app, store)

    def _tick(self, app: Flask, store: RaceStore) -> None:
        """Each transition due, broadcast by the one process handed it."""
        failing = False
        players = app.extensions["players"]
        with app.app_context():
            while True:
                self._socketio.sleep(TICK_SECONDS)  # type: ignore[arg-type]  # any seconds
                try:
                    for race_id, what in store.due(time.time()):
                        race = store.load(race_id)
                        if race is None:
                            continue
                        if what == FINISHED_NOW:
                            self._broadcast(race)
                            self._socketio.start_background_task(self._ended, app, store, race_id)
                        else:
                            self._socketio.start_background_task(self._begun, players, race)
                except Exception as err:  # noqa: BLE001 - the clock outlives a Redis outage
                    if not failing:
                        log.warning("the races' clock cannot reach its store: %s", err)
                    failing = True
                    continue
                if failing:
                    log.warning("the races' clock reaches its store again")
                failing = False

    def _begun(self, players: rating.Players, race: Race) -> None:
        """The race is on: its rating opened (help is on record from here), then told."""
        if race.starts is not None and race.ends is not None:
            rating.open_race(players, race, race.ends - race.starts)
        self._broadcast(race)

    def _ended(self, app: Flask, store: RaceStore, race_id: str) -> None:
        """The race's end, once; its ratings, if any, follow the results in a second
        ``race_state``."""
        with app.app_context():
            try:
                rated = end_race(store, app.extensions["players"], race_id)
            except RequestRefused as err:  # the store out of reach: the results stand unrated
                log.warning("race %s could not be finished: %s", race_id, err)
                return
            if rated is not None:
                self._broadcast(rated)
