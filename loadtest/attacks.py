"""The attacks of issue 46, each replayed for a few seconds against a running server.

``python -m loadtest --attacks`` (or ``--attack NAME``, repeated) starts a fresh
server (or uses ``--url``) and runs each scenario in turn while a probe
(:mod:`loadtest.probe`, a process of its own on another loopback address) asks
``/healthz`` every 50 ms: the largest gap between two of its answers is the
figure that says the web process's one event loop never stalled (at most
:data:`MAX_GAP_MS`). Each scenario says what held, from figures it measured:

* ``second-socket``: a bot opens its ladder puzzle with its cookie, a second,
  cookie-less socket on its address asks ``solve`` for exactly that board, the bot
  submits the solver's line at a human's pace: assisted, not ranked, its rating
  does not jump (a control bot without help, on another address, is ranked);
* ``oscillating-racer``: a racer stepping closer and back again scores at most 1
  on its puzzle, then the straight line home scores the puzzle's whole distance;
* ``race-cap``: one address opens private races until refused (after
  :data:`RACES_PER_ADDRESS`), another address still opens one;
* ``restore-flood``: 60 cookie-less ``POST /api/player/restore`` of one code
  leave at most 20 sessions, listed (``GET /api/player/sessions``) while flooding;
* ``graph-flood``: 10 clients of one address (more than the page lane's 8 places)
  asking the classic Klotski state graph (``/api/graph``) over and over; at least 4 of
  5 page tasks (the editor's check) from another address are answered;
* ``lab-noise``: ``lab_run`` floods the long lane refuses write at most a few
  log lines (one a minute per client address; read from the server's log);
* ``long-lines``: free-play results with 5,000-position lines back and forth are
  stored without their positions (at most 4 x shortest + 100 are kept), an
  honest line whole;
* ``ladder-get``: 150 ``GET /api/ladder/<game>`` change nothing: the same open
  puzzle, the rating unchanged, the pool of puzzles not grown (counted in the
  server's SQLite file when it is known).

``tests/test_attacks.py`` runs them all at this scale in ``make test``; the
figures of a run are in docs/performance.rst ("Attacks").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from harness.loopback import loopback_addresses, raise_open_files
from harness.server import start_server
from solver.engine import solve_board

from .floods import LONG_KLOTSKI, Asker
from .races import Figures, Racer, closer_line

#: the most a /healthz probe may wait between two answers (it asks every 50 ms)
MAX_GAP_MS = 150.0
PROBE_EVERY = 0.05
#: the server's defaults these scenarios check (webapp/config.py): the human floor,
#: the races one address may hold, the sessions a player keeps
HUMAN_SECONDS_PER_MOVE = 0.1
RACES_PER_ADDRESS = 3
SESSIONS_KEPT = 20
#: free play keeps a line of at most this many positions (SLACK_FACTOR x shortest + SLACK)
SLACK_FACTOR, SLACK_POSITIONS = 4, 100
#: the state graph of the classic Klotski level (横刀立马): 25,955 positions, 2.7 s of a
#: page worker on a quiet machine
CLASSIC_GRAPH = "/api/graph/klotski?board=BAAC/BAAC/DEEF/DGHF/I..J"
#: a page task another address asks during the graph flood: the editor's check
HONEST_CHECK: dict[str, Any] = {
    "game": "jugs",
    "board": "0/3,0/5,8/8",
    "options": {"goal": "*,4,4"},
}
#: a free-play board (no daily, no level): its lines are never ranked
FREE_JUGS: dict[str, Any] = {"game": "jugs", "board": "0/3,0/5,8/8", "options": {"goal": "*,*,4"}}
#: what a fresh server for the attacks is started with: short races
SERVER_ENV = {
    "ARCADE_RACE_COUNTDOWN_SECONDS": "1",
    "ARCADE_RACE_SECONDS": "20",
    "ARCADE_RACE_PUZZLES": "2",
}
#: seconds one scenario may take at most before it counts as failed
SCENARIO_TIMEOUT = 120.0


@dataclass
class Target:
    """The server under attack: its URL, its log file and SQLite file when known, the
    seconds each flood lasts, and the loopback addresses handed out to the attackers."""

    url: str
    log: Path | None = None
    database: Path | None = None
    seconds: float = 3.0
    first_address: str = "127.0.30.1"
    #: the graph the graph flood asks for (a smaller one: a shorter run)
    graph: str = CLASSIC_GRAPH
    _addresses: Iterator[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._addresses = iter(loopback_addresses(2000, self.first_address))

    @property
    def loopback(self) -> bool:
        return "//127.0.0.1:" in self.url

    def address(self) -> str | None:
        """A loopback address no other attacker of this run uses (None: not on loopback)."""
        return next(self._addresses) if self.loopback else None


def http(source: str | None, cookies: bool = True, **options: Any) -> aiohttp.ClientSession:
    """A client from ``source`` (a fresh connection each request: the server closes idle
    ones after 2 s) keeping its player cookie, or none (``cookies`` False)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0) if source else None, force_close=True)
    jar = aiohttp.CookieJar(unsafe=True) if cookies else aiohttp.DummyCookieJar()
    return aiohttp.ClientSession(connector=connector, cookie_jar=jar, **options)


async def call(session: aiohttp.ClientSession, method: str, url: str, body: Any = None):
    """(status, JSON answer or None) of one request; a refused connection is status 0."""
    try:
        async with session.request(method, url, json=body) as reply:
            data = await reply.read()
            status = reply.status
    except (aiohttp.ClientError, OSError):
        return 0, None
    try:
        return status, json.loads(data)
    except ValueError:
        return status, None


def _given(options: dict) -> dict:
    return {k: v for k, v in options.items() if v is not None}


def _result(puzzle: dict, states: list[str]) -> dict:
    return {
        "game": puzzle["game"],
        "board": puzzle["board"],
        "options": puzzle["options"],
        "states": states,
        "seconds": 30,
        "assisted": False,
    }


def _held(held: bool, says: str, **figures: Any) -> dict:
    return {"held": bool(held), "says": says, "figures": figures}


# -- second-socket -----------------------------------------------------------------------


async def _ladder_puzzle(session: aiohttp.ClientSession, url: str) -> dict:
    status, puzzle = await call(session, "POST", f"{url}/api/ladder/npuzzle", {})
    if status != 200:
        raise RuntimeError(f"the ladder answered {status}: {puzzle}")
    return puzzle


async def _at_human_pace(opened: float, puzzle: dict) -> None:
    """Until a person could have solved ``puzzle``: the human floor must not be what
    unranks a line."""
    slowest = puzzle["shortest"] * HUMAN_SECONDS_PER_MOVE + 0.5
    await asyncio.sleep(max(0.0, slowest - (time.monotonic() - opened)))


async def second_socket(target: Target) -> dict:
    url = target.url
    control_at, bot_at = target.address(), target.address()
    async with http(control_at) as control, http(bot_at) as bot:
        # the control first, alone (a ladder board asked about by anyone unranks whoever
        # holds it, and two new players are served the same board): no help, ranked
        honest = await _ladder_puzzle(control, url)
        opened = time.monotonic()
        honest_line = await asyncio.to_thread(
            lambda: solve_board("npuzzle", honest["board"], **_given(honest["options"]))["states"]
        )
        await _at_human_pace(opened, honest)
        _, fair = await call(control, "POST", f"{url}/api/results", _result(honest, honest_line))
        # the bot: its puzzle, and a cookie-less socket on its address solving that board
        puzzle = await _ladder_puzzle(bot, url)
        opened = time.monotonic()
        helper = Asker(url, source=bot_at or "")
        await helper.connect()
        try:
            ask = {"game": puzzle["game"], "board": puzzle["board"], **_given(puzzle["options"])}
            event, answer, _ = await asyncio.wait_for(helper.ask("solve", ask, asyncio.Event()), 60)
        finally:
            await helper.close()
        if event != "solution":
            raise RuntimeError(f"the second socket's solve answered {event}: {answer}")
        await _at_human_pace(opened, puzzle)
        _, got = await call(bot, "POST", f"{url}/api/results", _result(puzzle, answer["states"]))
    fair_rating, bot_rating = (fair or {}).get("rating") or {}, (got or {}).get("rating") or {}
    rose = fair_rating.get("after", 0) > fair_rating.get("before", 0)
    control_ranked = bool(fair and fair["ranked"]) and rose
    unranked = bool(got) and got["ranked"] is False and got["assisted"] is True
    no_jump = bot_rating.get("after", 1e9) <= bot_rating.get("before", 0)
    return _held(
        control_ranked and unranked and no_jump,
        f"helped line: ranked {got and got['ranked']}, assisted {got and got['assisted']}, "
        f"rating {bot_rating.get('before')} -> {bot_rating.get('after')}; control without "
        f"help: ranked {fair and fair['ranked']}, rating {fair_rating.get('before')} -> "
        f"{fair_rating.get('after')}",
        moves=len(answer["states"]) - 1,
        boards=[puzzle["board"], honest["board"]],
        why=[got and got.get("why"), fair and fair.get("why")],
        helped_ranked=got and got["ranked"],
        helped_assisted=got and got["assisted"],
        helped_rating=[bot_rating.get("before"), bot_rating.get("after")],
        control_ranked=fair and fair["ranked"],
        control_rating=[fair_rating.get("before"), fair_rating.get("after")],
    )


# -- races -------------------------------------------------------------------------------


def _racer(url: str, name: str, source: str | None, figures: Figures) -> tuple[Racer, Any]:
    session = http(source, cookies=False)
    return Racer(name, url, session, figures, {}), session


async def _open_race(racer: Racer, timeout: float = 30.0) -> str | None:
    """A private race of ``racer``'s (its id), or None when the server refused it."""
    racer.refused = None
    await racer.sio.emit("race_join", {"race": "new"})
    deadline = time.monotonic() + timeout
    while racer.refused is None and (racer.state is None or racer.state["status"] != "waiting"):
        racer.changed.clear()
        await asyncio.wait_for(racer.changed.wait(), max(0.0, deadline - time.monotonic()))
    return None if racer.refused is not None or racer.state is None else racer.state["race"]


async def _connect(racer: Racer) -> None:
    await racer.sio.connect(racer.url, transports=["websocket"], wait_timeout=10)


def _solved(racer: Racer, state: dict) -> int:
    return next(p["solved"] for p in state["players"] if p["name"] == racer.name)


async def _move(racer: Racer, board: str) -> int:
    """The racer's score once the server confirmed its move to ``board`` (or, a move that
    solved the puzzle, moved the racer on to the next one)."""
    racer.refused = None
    solved = _solved(racer, racer.state) if racer.state is not None else 0
    await racer.sio.emit("race_move", {"board": board})
    state = await racer.until(
        lambda s: (
            racer.refused is not None
            or s.get("puzzle", {}).get("board") == board
            or _solved(racer, s) > solved
        ),
        15,
    )
    if racer.refused is not None:
        raise RuntimeError(f"the move was refused: {racer.refused}")
    return racer.my_score(state)


async def oscillating_racer(target: Target, swings: int = 40) -> dict:
    racer, session = _racer(target.url, "Osc", target.address(), Figures())
    try:
        await _connect(racer)
        if await _open_race(racer) is None:
            raise RuntimeError(f"no race opened: {racer.refused}")
        await racer.sio.emit("race_start", {})
        racing = await racer.until(lambda s: s["status"] == "racing" and "puzzle" in s, 60)
        puzzle = racing["puzzle"]
        start = puzzle["board"]
        line = await asyncio.to_thread(
            closer_line, puzzle["game"], start, json.dumps(_given(puzzle["options"]))
        )
        scores = [await _move(racer, line[1] if turn % 2 == 0 else start) for turn in range(swings)]
        oscillated = max(scores)
        final = oscillated
        for board in line[2:] if swings % 2 == 1 else line[1:]:  # then straight home
            final = await _move(racer, board)
    finally:
        with contextlib.suppress(Exception):
            await racer.sio.disconnect()
        await session.close()
    distance = len(line) - 1
    return _held(
        oscillated <= 1 and final == distance,
        f"{swings} moves back and forth scored {oscillated}; the straight line home then "
        f"scored {final} of the puzzle's {distance}",
        game=puzzle["game"],
        swings=swings,
        oscillating_score=oscillated,
        final_score=final,
        distance=distance,
    )


async def race_cap(target: Target, tries: int = 6) -> dict:
    flooder_at, other_at = target.address(), target.address()
    figures = Figures()
    racers = [_racer(target.url, f"F{n}", flooder_at, figures) for n in range(tries)]
    other = _racer(target.url, "Other", other_at, figures)
    opened, refusal, took = 0, None, []
    try:
        for racer, _ in racers:  # one socket a race: a socket opening another leaves its own
            await _connect(racer)
            began = time.monotonic()
            race = await _open_race(racer)
            took.append(time.monotonic() - began)
            if race is None:
                refusal = racer.refused
                break
            opened += 1
        await _connect(other[0])
        elsewhere = await _open_race(other[0])
    finally:
        for racer, session in [*racers, other]:
            with contextlib.suppress(Exception):
                await racer.sio.disconnect()
            await session.close()
    return _held(
        opened == RACES_PER_ADDRESS and refusal is not None and elsewhere is not None,
        f"one address opened {opened} races, then: {refusal!r}; another address "
        + ("opened one" if elsewhere else f"was refused: {other[0].refused!r}"),
        opened=opened,
        refused=refusal,
        other_address_opened=elsewhere is not None,
        slowest_open_ms=round(1000 * max(took), 1) if took else None,
    )


# -- restore-flood -----------------------------------------------------------------------


async def restore_flood(target: Target, restores: int = 60, at_once: int = 2) -> dict:
    url, address = target.url, target.address()
    name = "R" + secrets.token_hex(5)
    async with http(address) as owner:
        status, named = await call(owner, "POST", f"{url}/api/player", {"name": name})
        if status != 200:
            raise RuntimeError(f"naming the player answered {status}: {named}")
        code = named["code"]
        statuses: Counter = Counter()
        listing: list[float] = []
        listed: Counter = Counter()
        done = asyncio.Event()

        async def restore(count: int) -> None:
            async with http(address, cookies=False) as nobody:
                for _ in range(count):
                    got, _ = await call(nobody, "POST", f"{url}/api/player/restore", {"code": code})
                    statuses[got] += 1

        async def lister() -> None:  # the owner's browser lists its sessions meanwhile
            while not done.is_set():
                began = time.monotonic()
                got, _ = await call(owner, "GET", f"{url}/api/player/sessions")
                listing.append(time.monotonic() - began)
                listed[got] += 1
                await asyncio.sleep(0.05)

        listing_task = asyncio.ensure_future(lister())
        began = time.monotonic()
        await asyncio.gather(
            *(restore(restores // at_once + (i < restores % at_once)) for i in range(at_once))
        )
        flood_seconds = time.monotonic() - began
        done.set()
        await listing_task
    async with http(address) as witness:  # a browser restoring last, then listing
        await call(witness, "POST", f"{url}/api/player/restore", {"code": code})
        _, mine = await call(witness, "GET", f"{url}/api/player/sessions")
        _, me = await call(witness, "GET", f"{url}/api/player")
    sessions = len((mine or {}).get("sessions", []))
    return _held(
        statuses == Counter({200: restores})
        and 1 <= sessions <= SESSIONS_KEPT
        and (me or {}).get("name") == name,
        f"{restores} restores ({at_once} at once) answered {dict(statuses)} in {flood_seconds:.1f} s, "
        f"{sessions} sessions left (the last browser plays as the player: "
        f"{(me or {}).get('name') == name}); listed {sum(listed.values())} times meanwhile, "
        f"slowest {1000 * max(listing, default=0):.0f} ms",
        restores=restores,
        statuses=dict(statuses),
        sessions=sessions,
        listings=sum(listed.values()),
        listing_statuses=dict(listed),
        slowest_listing_ms=round(1000 * max(listing, default=0), 1),
    )


# -- graph-flood -------------------------------------------------------------------------


async def graph_flood(target: Target, clients: int = 10, tasks: int = 5) -> dict:
    url, flooder_at, honest_at = target.url, target.address(), target.address()
    graph = url + target.graph
    stop = asyncio.Event()
    flood: Counter = Counter()

    async def flooder() -> None:
        # the graph arrives compressed and is thrown away unread: the client's CPU is not
        # what is measured
        async with http(flooder_at, cookies=False, auto_decompress=False) as session:
            while not stop.is_set():
                try:
                    async with session.get(graph) as reply:
                        await reply.read()
                        flood[reply.status] += 1
                except (aiohttp.ClientError, OSError):
                    flood[0] += 1

    floods = [asyncio.ensure_future(flooder()) for _ in range(clients)]
    codes: list[int] = []
    took: list[float] = []
    try:
        deadline = time.monotonic() + 30
        while not flood[503] and time.monotonic() < deadline:  # the flood fills its share
            await asyncio.sleep(0.05)
        async with http(honest_at) as honest:
            for _ in range(tasks):
                began = time.monotonic()
                status, _ = await call(honest, "POST", f"{url}/api/check", HONEST_CHECK)
                took.append(time.monotonic() - began)
                codes.append(status)
                await asyncio.sleep(0.05)
    finally:
        stop.set()
        for each in floods:  # not waiting for the graphs still queued (12 s at most)
            each.cancel()
        await asyncio.gather(*floods, return_exceptions=True)
    answered = codes.count(200)
    return _held(
        answered >= tasks - 1 and flood[503] > 0,
        f"{clients} clients of one address asked the graph {sum(flood.values())} times "
        f"({dict(flood)}); another address's {tasks} checks answered {codes}, in "
        f"{', '.join(f'{t:.1f}' for t in took)} s",
        graph_statuses=dict(flood),
        checks=codes,
        check_seconds=[round(t, 2) for t in took],
    )


# -- lab-noise ---------------------------------------------------------------------------

#: the log line of a job a lane refused (webapp/jobs/core.py), for a comparison
LAB_REFUSED = re.compile(r"lab_run rejected by the \w+ lane")


async def lab_noise(target: Target, sockets: int = 10, every: float = 0.05) -> dict:
    if target.log is None:
        raise RuntimeError("lab-noise reads the server's log: start the server here")
    address = target.address()
    since = target.log.stat().st_size
    clients = [Asker(target.url, source=address or "") for _ in range(sockets)]
    answers: Counter = Counter()
    sent = [0]

    async def flood(client: Asker, stop: asyncio.Event) -> None:
        client.sio.on("error", lambda data: answers.update([str(data.get("message"))[:40]]))
        turn = 0
        while not stop.is_set() and client.sio.connected:
            turn += 1
            run = {"game": "klotski", "board": LONG_KLOTSKI, "algorithms": ["bfs", "dfs"]}
            await client.sio.emit("lab_run", {**run, "id": turn})
            sent[0] += 1
            await asyncio.sleep(every)

    stop = asyncio.Event()
    try:
        await asyncio.gather(*(client.connect() for client in clients))
        tasks = [asyncio.ensure_future(flood(client, stop)) for client in clients]
        await asyncio.sleep(target.seconds)
        stop.set()
        await asyncio.gather(*tasks)
    finally:
        await asyncio.gather(*(client.close() for client in clients))
    await asyncio.sleep(0.5)  # the server's last lines written
    with target.log.open("rb") as log:
        log.seek(since)
        written = log.read().decode(errors="replace")
    lines = [line for line in written.splitlines() if LAB_REFUSED.search(line)]
    refused = sum(n for message, n in answers.items() if "busy" in message)
    return _held(
        refused >= sockets and len(lines) <= 3,
        f"{sent[0]} comparisons from {sockets} sockets of one address, {refused} refused as "
        f"busy; the log has {len(lines)} line(s) of them",
        sent=sent[0],
        refused=refused,
        errors=dict(answers),
        log_lines=len(lines),
        log_bytes=len(written),
    )


# -- long-lines --------------------------------------------------------------------------


def _back_and_forth(states: list[str], positions: int) -> list[str]:
    """A line of ``positions`` positions: the first move made and taken back over and
    over, then the shortest line."""
    wobble = (positions - len(states)) // 2
    return [states[0], *[states[1], states[0]] * wobble, *states[1:]]


async def long_lines(
    target: Target, players: int = 4, each: int = 2, positions: int = 5000
) -> dict:
    url = target.url
    states = (await asyncio.to_thread(solve_board, "jugs", FREE_JUGS["board"], goal="*,*,4"))[
        "states"
    ]
    cap = SLACK_FACTOR * (len(states) - 1) + SLACK_POSITIONS
    long = _back_and_forth(states, positions)
    results = f"{url}/api/results"
    stored: list[int] = []
    statuses: Counter = Counter()

    async def one(source: str | None, index: int) -> int | None:
        async with http(source) as player:
            honest = None
            for _ in range(each):
                status, got = await call(player, "POST", results, _result(FREE_JUGS, long))
                statuses[status] += 1
                if status in (200, 201):
                    stored.append(await _kept(player, url, got["id"]))
            if index == 0:  # and an honest line, kept whole
                status, got = await call(player, "POST", results, _result(FREE_JUGS, states))
                honest = await _kept(player, url, got["id"]) if status in (200, 201) else -1
            return honest

    honest = await asyncio.gather(*(one(target.address(), i) for i in range(players)))
    kept_honest = honest[0]
    return _held(
        bool(stored) and max(stored) <= cap and kept_honest == len(states),
        f"{sum(statuses.values())} free-play lines of {len(long)} positions ({dict(statuses)}): "
        f"at most {max(stored, default=0)} positions kept of each (the cap is {cap}); an "
        f"honest line of {len(states)} kept {kept_honest}",
        positions=len(long),
        statuses=dict(statuses),
        most_kept=max(stored, default=None),
        cap=cap,
        honest_kept=kept_honest,
    )


async def _kept(session: aiohttp.ClientSession, url: str, result_id: int) -> int:
    """How many positions of a result's line the server kept (0: the result, no line)."""
    status, found = await call(session, "GET", f"{url}/api/player/results/{result_id}")
    return len(found["states"]) if status == 200 and found else 0


# -- ladder-get --------------------------------------------------------------------------


def ladder_pool(database: Path | None) -> int | None:
    """The ladder's puzzles in the server's SQLite file (None: not known)."""
    if database is None or not database.exists():
        return None
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return db.execute("SELECT count(*) FROM ladder_puzzles").fetchone()[0]


async def ladder_get(target: Target, gets: int = 150, at_once: int = 4) -> dict:
    url = target.url
    async with http(target.address()) as player:
        served = await _ladder_puzzle(player, url)
        _, before = await call(player, "GET", f"{url}/api/player")
        pool_before = await asyncio.to_thread(ladder_pool, target.database)
        answers: list = []

        async def reader(count: int) -> None:
            for _ in range(count):
                answers.append(await call(player, "GET", f"{url}/api/ladder/npuzzle"))

        await asyncio.gather(
            *(reader(gets // at_once + (i < gets % at_once)) for i in range(at_once))
        )
        _, after = await call(player, "GET", f"{url}/api/player")
        pool_after = await asyncio.to_thread(ladder_pool, target.database)
    same = sum(1 for status, got in answers if status == 200 and got == served)
    ratings = ((before or {}).get("ratings"), (after or {}).get("ratings"))
    return _held(
        same == gets and ratings[0] == ratings[1] and pool_before == pool_after,
        f"{gets} GETs ({at_once} at once): {same} answered the same open puzzle; ratings {ratings[0]} -> "
        f"{ratings[1]}; ladder pool {pool_before} -> {pool_after}",
        gets=gets,
        same_puzzle=same,
        ratings=list(ratings),
        pool=[pool_before, pool_after],
    )


#: every scenario by name, in the order they run
SCENARIOS: dict[str, Callable[[Target], Awaitable[dict]]] = {
    "second-socket": second_socket,
    "oscillating-racer": oscillating_racer,
    "race-cap": race_cap,
    "restore-flood": restore_flood,
    "graph-flood": graph_flood,
    "lab-noise": lab_noise,
    "long-lines": long_lines,
    "ladder-get": ladder_get,
}


class Probe:
    """:mod:`loadtest.probe` in a process of its own, from ``source``."""

    def __init__(self, url: str, source: str | None):
        command = [sys.executable, "-m", "loadtest.probe", url, "--every", str(PROBE_EVERY)]
        self.process = subprocess.Popen(
            [*command, *(["--source", source] if source else [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parent.parent,
        )

    async def ready(self) -> None:
        line = await asyncio.to_thread(self.process.stdout.readline)  # type: ignore[union-attr]
        if line.strip() != "ready":
            raise RuntimeError(f"the /healthz probe did not start: {line.strip()}")

    async def stop(self) -> dict:
        def finish() -> dict:
            found, _ = self.process.communicate("stop\n", timeout=30)
            return json.loads(found.strip().splitlines()[-1])

        return await asyncio.to_thread(finish)


async def run_attacks(target: Target, names: list[str] | None = None) -> dict:
    """Each scenario named (default: all) with the /healthz probe; figures by name."""
    report = {}
    probe_at = target.address()
    for name in names or list(SCENARIOS):
        probe = Probe(target.url, probe_at)
        began = time.monotonic()
        try:
            await probe.ready()
            outcome = await asyncio.wait_for(SCENARIOS[name](target), SCENARIO_TIMEOUT)
            # the probe watches for ``seconds`` at least: the refused work winding down too
            await asyncio.sleep(max(0.0, target.seconds - (time.monotonic() - began)))
        except Exception as err:  # noqa: BLE001 - a scenario that failed is a defence not shown
            outcome = _held(False, f"the scenario failed: {type(err).__name__}: {err}")
        finally:
            health = await probe.stop()
        gap = health.get("max_gap_ms")
        outcome.update(
            seconds=round(time.monotonic() - began, 1),
            healthz=health,
            healthz_held=gap is not None and gap <= MAX_GAP_MS and not health.get("failed"),
        )
        report[name] = outcome
    return report


def print_attacks(report: dict) -> None:
    print(f"attacks (/healthz asked every {1000 * PROBE_EVERY:.0f} ms from another address):")
    print(f"  {'scenario':18s} {'held':5s} {'gap ms':>7s} {'s':>5s}  what held")
    for name, row in report.items():
        gap = row["healthz"].get("max_gap_ms")
        held = "yes" if row["held"] and row["healthz_held"] else "NO"
        print(f"  {name:18s} {held:5s} {gap!s:>7s} {row['seconds']:5.1f}  {row['says']}")


def run_attack_scenario(args) -> int:
    """``python -m loadtest --attacks``: on ``--url``, else on a fresh server whose log
    and SQLite file the scenarios read; 1 when a defence did not hold."""
    raise_open_files()
    names = args.attack or None
    seconds = args.flood_seconds or 3.0
    if args.url:
        report = asyncio.run(run_attacks(Target(args.url[0], seconds=seconds), names))
    else:
        print("starting the server and warming its workers...", flush=True)
        folder = Path(tempfile.mkdtemp(prefix="arcade-attacks-"))
        env = {**SERVER_ENV, "ARCADE_DATA_DIR": str(folder / "data")}
        process, url = start_server(env, log=folder / "server.log")
        try:
            target = Target(url, folder / "server.log", folder / "data" / "arcade.sqlite3", seconds)
            report = asyncio.run(run_attacks(target, names))
        finally:
            process.terminate()
            process.wait(30)
    print_attacks(report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if all(row["held"] and row["healthz_held"] for row in report.values()) else 1
