"""The race stores (:mod:`webapp.races.store`): this process's memory, and Redis as a
cluster's web processes share it (a real redis-server on a loopback port; ``make test``
installs it). Both keep the same promises: no change is lost when several write one
race at once, a change that raises stores nothing, each clock transition goes to one
caller, the lobby is one race, races under way are capped and finished ones expire;
a hung Redis is a 503 within seconds, never a hang.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import threading
import time

import pytest

from harness.loopback import free_port
from webapp.players.challenges import Challenge
from webapp.puzzle_request import RequestRefused
from webapp.races import store as stores
from webapp.races.model import FINISHED, RACING, Race, Racer, new_id
from webapp.races.store import FINISHED_NOW, RACING_NOW, MemoryRaceStore, RedisRaceStore


@pytest.fixture(scope="module")
def redis_url():
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is missing: bash scripts/ensure-redis.sh installs it")
    port = free_port()
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL
    )
    url = f"redis://127.0.0.1:{port}/0"
    import redis

    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    yield url, server
    server.terminate()
    server.wait(10)


@pytest.fixture(params=["memory", "redis"])
def make_store(request):
    """A factory of stores: each call one process's view (Redis: all share the server)."""
    if request.param == "memory":
        only = MemoryRaceStore()
        return lambda: only
    url, _ = request.getfixturevalue("redis_url")
    import redis

    redis.Redis.from_url(url).flushdb()
    return lambda: RedisRaceStore(url)


def a_race(**fields) -> Race:
    puzzle = Challenge("npuzzle", "1 2 3 4 5 6 7 0 8", {"size": 3}, 1, None)
    race = Race(new_id(), False, "p:owner", [puzzle], **fields)
    race.racers["p:owner"] = Racer("p:owner", "Ann", "sid-a", 0, puzzle.board)
    return race


def test_writers_at_once_lose_no_change(make_store):
    """Four writers (threads; with Redis, four clients as four processes would be) add one
    point each, 25 times, to one race: every change that was acknowledged is in it."""
    race = a_race()
    make_store().add(race, time.time())
    acknowledged = []

    def writer() -> None:
        store = make_store()
        for _ in range(25):

            def score(r: Race) -> None:
                r.racers["p:owner"].score += 1

            try:
                store.change(race.id, score, time.time())
                acknowledged.append(1)
            except RequestRefused as err:  # busy: retried too often, and then nothing stored
                assert err.status == 503

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    stored = make_store().load(race.id)
    assert stored is not None and len(acknowledged) >= 50
    assert stored.racers["p:owner"].score == len(acknowledged) == stored.version


def test_a_change_that_raises_stores_nothing(make_store):
    store = make_store()
    race = a_race()
    store.add(race, time.time())

    def half_then_refuse(r: Race) -> None:
        r.racers["p:owner"].score = 99
        raise RequestRefused("no")

    with pytest.raises(RequestRefused):
        store.change(race.id, half_then_refuse, time.time())
    stored = store.load(race.id)
    assert stored is not None and stored.racers["p:owner"].score == 0 and stored.version == 0
    with pytest.raises(RequestRefused) as missing:
        store.change("no-such-race", half_then_refuse, time.time())
    assert missing.value.status == 404


def test_each_transition_goes_to_one_process(make_store):
    """The change that starts the clock schedules racing and finished; when they are due,
    two processes asking at once get each exactly once between them."""
    processes = [make_store(), make_store()]
    race = a_race()
    processes[0].add(race, time.time())
    now = time.time()
    started, _ = processes[0].change(race.id, lambda r: r.start(now, 0.2, 0.3), now)
    assert started.status(now) == "countdown" and processes[1].due(now) == []
    time.sleep(0.6)
    handed: list = []
    barrier = threading.Barrier(2)

    def ask(store) -> None:
        barrier.wait()
        handed.extend(store.due(time.time()))

    threads = [threading.Thread(target=ask, args=(p,)) for p in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(handed) == sorted([(race.id, RACING_NOW), (race.id, FINISHED_NOW)])
    assert processes[0].due(time.time()) == processes[1].due(time.time()) == []
    assert processes[1].load(race.id).status(time.time()) == FINISHED
    assert started.status(now + 0.25) == RACING


def test_the_lobby_is_one_race_and_closes_only_for_itself(make_store):
    first, second = make_store(), make_store()
    one, two = a_race(), a_race()
    assert first.open_lobby(one.id) and not second.open_lobby(two.id)
    assert second.lobby() == one.id
    second.close_lobby(two.id)  # not the lobby: nothing happens
    assert first.lobby() == one.id
    second.close_lobby(one.id)
    assert first.lobby() is None and first.open_lobby(two.id)


def test_a_dropped_race_is_gone(make_store):
    store = make_store()
    race = a_race()
    store.add(race, time.time())

    def drop(r: Race) -> None:
        r.dropped = True

    store.change(race.id, drop, time.time())
    assert store.load(race.id) is None


def test_races_under_way_are_capped_and_finished_ones_free_their_slot(make_store, monkeypatch):
    monkeypatch.setattr(stores, "MAX_RACES", 2)
    store = make_store()
    now = time.time()
    store.add(a_race(), now)
    finishing = a_race()
    store.add(finishing, now)
    with pytest.raises(RequestRefused) as full:
        store.add(a_race(), now)
    assert full.value.status == 503
    store.change(finishing.id, lambda r: r.start(now - 10, 1, 1), now)  # ended 8 s ago
    store.add(a_race(), time.time())  # its slot is free; its results are still kept
    assert store.load(finishing.id).status(time.time()) == FINISHED


def test_redis_keeps_a_finished_race_for_a_while_only(redis_url):
    url, _ = redis_url
    store = RedisRaceStore(url)
    race = a_race()
    now = time.time()
    store.add(race, now)
    waiting_ttl = store.redis.ttl(store.RACE.format(id=race.id))
    assert stores.WAITING_KEEP - 5 <= waiting_ttl <= stores.WAITING_KEEP + 2
    store.change(race.id, lambda r: r.start(now, 1, 2), now)
    ttl = store.redis.ttl(store.RACE.format(id=race.id))
    assert stores.FINISHED_KEEP <= ttl <= stores.FINISHED_KEEP + 5  # its end and 10 min


def test_a_hung_redis_is_a_503_within_seconds(redis_url):
    url, server = redis_url
    store = RedisRaceStore(url)
    race = a_race()
    store.add(race, time.time())
    server.send_signal(signal.SIGSTOP)
    try:
        began = time.monotonic()
        with pytest.raises(RequestRefused) as hung:
            store.load(race.id)
        assert hung.value.status == 503 and time.monotonic() - began < 5
    finally:
        server.send_signal(signal.SIGCONT)
    time.sleep(0.2)
    assert RedisRaceStore(url).load(race.id) is not None  # back
