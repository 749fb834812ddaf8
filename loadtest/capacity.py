"""The capacity scenario: thousands of idle players from many addresses, and a timed canary.

Idle players connect over websocket from many loopback addresses (every
127.x.y.z is this machine, so a per-address limit sees many clients), a few
hundred at a time, and then only answer the server's pings. With them held,
a *canary* from an address of its own times a trivial ``analyse`` (an 8-puzzle
one move from solved) and page loads (``/``); the server's web process is
measured too: its threads, and its memory per idle player.

A refused player counts as *told* when the server's ``connect_error`` names
a reason within :data:`TOLD_WITHIN` seconds; a player neither admitted nor
told counts as *failed* (left hanging). :func:`run_capacity` is what ``python
-m loadtest --capacity N`` and the capacity tests run.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from dataclasses import dataclass, field

import aiohttp
import socketio

from harness.loopback import loopback_addresses, raise_open_files

from .players import children

EIGHT_ONE_MOVE = "1 2 3 4 5 6 7 0 8"
#: a refusal slower than this leaves the player hanging
TOLD_WITHIN = 5.0
#: a player neither admitted nor told by then gives up: it was left hanging
GIVE_UP_AFTER = 30.0
#: players connecting at once
CONNECTING_AT_ONCE = 100


@dataclass
class Outcome:
    """One player's arrival: ``admitted``, ``told`` (refused with ``reason``) or ``failed``."""

    kind: str
    seconds: float
    reason: str = ""


@dataclass
class Crowd:
    """Idle players on one server, one aiohttp session (bound to its address) per address."""

    url: str
    sessions: dict[str, aiohttp.ClientSession] = field(default_factory=dict)
    players: list[socketio.AsyncClient] = field(default_factory=list)

    def session(self, address: str) -> aiohttp.ClientSession:
        if address not in self.sessions:
            connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0)
            self.sessions[address] = aiohttp.ClientSession(connector=connector)
        return self.sessions[address]

    async def arrive(self, address: str) -> Outcome:
        """One player connects from ``address``; kept in :attr:`players` when admitted."""
        player = socketio.AsyncClient(reconnection=False, http_session=self.session(address))
        refusal: list[str] = []

        @player.on("connect_error")
        async def _refused(data=None):
            # the server's refusal is {"message": ...}; a failed transport gives text
            if isinstance(data, dict):
                refusal.append(str(data.get("message", "")))

        started = time.perf_counter()
        try:
            await asyncio.wait_for(
                player.connect(
                    self.url, transports=["websocket"], wait_timeout=TOLD_WITHIN, retry=False
                ),
                GIVE_UP_AFTER,
            )
        except TimeoutError:
            with contextlib.suppress(Exception):
                await player.disconnect()
            return Outcome("failed", time.perf_counter() - started, "no answer (hanging)")
        except (socketio.exceptions.ConnectionError, OSError, aiohttp.ClientError) as err:
            seconds = time.perf_counter() - started
            with contextlib.suppress(Exception):
                await player.disconnect()
            if refusal and refusal[0] and seconds <= TOLD_WITHIN:
                return Outcome("told", seconds, refusal[0])
            return Outcome("failed", seconds, str(err)[:80])
        self.players.append(player)
        return Outcome("admitted", time.perf_counter() - started)

    async def arrive_all(self, addresses: list[str], at_once: int = CONNECTING_AT_ONCE) -> list:
        """One player per entry of ``addresses``, ``at_once`` connecting at a time."""
        gate = asyncio.Semaphore(at_once)

        async def one(address: str) -> Outcome:
            async with gate:
                return await self.arrive(address)

        return await asyncio.gather(*(one(address) for address in addresses))

    def connected(self) -> int:
        return sum(player.connected for player in self.players)

    async def leave(self, count: int | None = None) -> None:
        """``count`` players (default all) disconnect."""
        count = len(self.players) if count is None else count
        leaving, self.players = self.players[:count], self.players[count:]
        await asyncio.gather(*(player.disconnect() for player in leaving), return_exceptions=True)

    async def close(self) -> None:
        await self.leave()
        for session in self.sessions.values():
            await session.close()
        self.sessions.clear()


def tally(outcomes: list[Outcome]) -> dict:
    """Counts by kind, the slowest refusal, the reasons given and a few failures."""
    told = [o for o in outcomes if o.kind == "told"]
    admitted = [o.seconds for o in outcomes if o.kind == "admitted"]
    return {
        "admitted": len(admitted),
        "told": len(told),
        "failed": sum(o.kind == "failed" for o in outcomes),
        "reasons": sorted({o.reason for o in told}),
        "slowest_refusal_s": round(max((o.seconds for o in told), default=0.0), 2),
        "admit_p50_ms": round(1000 * statistics.median(admitted), 1) if admitted else None,
        "failures": [o.reason for o in outcomes if o.kind == "failed"][:3],
    }


async def time_canary(url: str, address: str, rounds: int = 20) -> dict:
    """A fresh player from ``address`` times ``rounds`` analyses and page loads of ``/``
    (and one ``/healthz``); returns medians and maxima in ms."""
    crowd = Crowd(url)
    try:
        outcome = await crowd.arrive(address)
        if outcome.kind != "admitted":
            return {"connected": False, "reason": outcome.reason}
        player = crowd.players[0]
        answers: asyncio.Queue = asyncio.Queue()
        player.on("analysis", lambda data: answers.put_nowait(data))
        player.on("error", lambda data: answers.put_nowait(data))
        analyse, pages, wrong = [], [], 0
        session = crowd.session(address)
        for turn in range(rounds):
            started = time.perf_counter()
            await player.emit(
                "analyse", {"game": "npuzzle", "board": EIGHT_ONE_MOVE, "id": f"c{turn}"}
            )
            reply = await asyncio.wait_for(answers.get(), 30)
            analyse.append(time.perf_counter() - started)
            wrong += reply.get("id") != f"c{turn}" or reply.get("distance") != 1
            started = time.perf_counter()
            async with session.get(url + "/") as response:
                await response.read()
                wrong += response.status != 200
            pages.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
        started = time.perf_counter()
        async with session.get(url + "/healthz") as response:
            healthz_ok = response.status == 200
        healthz = time.perf_counter() - started
    finally:
        await crowd.close()
    return {
        "connected": True,
        "admit_ms": round(1000 * outcome.seconds, 1),
        "analyse_p50_ms": round(1000 * statistics.median(analyse), 1),
        "analyse_max_ms": round(1000 * max(analyse), 1),
        "page_p50_ms": round(1000 * statistics.median(pages), 1),
        "page_max_ms": round(1000 * max(pages), 1),
        "healthz_ms": round(1000 * healthz, 1),
        "healthz_ok": healthz_ok,
        "wrong": wrong,
    }


def web_process(pid: int) -> int:
    """The process that holds the players: gunicorn's worker below the arbiter ``pid``
    (``pid`` itself when it has no child)."""
    return min(children(pid), default=pid)


def process_figures(pid: int) -> dict:
    """Threads and resident KB of ``pid``."""
    figures = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name == "Threads":
                figures["threads"] = int(value)
            elif name == "VmRSS":
                figures["rss_kb"] = int(value.split()[0])
    return figures


async def run_capacity(
    url: str,
    players: int = 3000,
    addresses: int = 60,
    server_pid: int = 0,
    first_address: str = "127.0.5.1",
    canary_rounds: int = 20,
) -> dict:
    """Hold ``players`` idle players from ``addresses`` loopback addresses (round robin),
    time the canary from one more address, measure the web process, then let go.

    ``server_pid``: the server's (arbiter's) pid, for threads and memory per player.
    """
    raise_open_files()
    pool = loopback_addresses(addresses + 1, first_address)
    canary_address, pool = pool[-1], pool[:-1]
    worker = web_process(server_pid) if server_pid else 0
    before = process_figures(worker) if worker else {}
    crowd = Crowd(url)
    try:
        started = time.perf_counter()
        outcomes = await crowd.arrive_all([pool[i % len(pool)] for i in range(players)])
        arrival = time.perf_counter() - started
        await asyncio.sleep(1.0)  # let the server settle after the rush
        held = process_figures(worker) if worker else {}
        canary = await time_canary(url, canary_address, canary_rounds)
        still = crowd.connected()
    finally:
        await crowd.close()
    report = {
        "players": players,
        "addresses": addresses,
        "arrival_s": round(arrival, 1),
        **tally(outcomes),
        "still_connected": still,
        "canary": canary,
    }
    if worker:
        admitted = max(1, report["admitted"])
        report["web"] = {
            "threads_before": before.get("threads"),
            "threads_held": held.get("threads"),
            "rss_mb_before": round(before.get("rss_kb", 0) / 1024, 1),
            "rss_mb_held": round(held.get("rss_kb", 0) / 1024, 1),
            "kb_per_player": round((held.get("rss_kb", 0) - before.get("rss_kb", 0)) / admitted, 1),
        }
    return report


def print_capacity(report: dict) -> None:
    canary, web = report["canary"], report.get("web")
    print(
        f"capacity: {report['players']} idle players from {report['addresses']} addresses "
        f"in {report['arrival_s']} s: {report['admitted']} held, {report['told']} told "
        f"{report['reasons'] or ''}, {report['failed']} failed {report['failures'] or ''}; "
        f"{report['still_connected']} still connected"
    )
    if canary.get("connected"):
        print(
            f"  canary: analyse p50 {canary['analyse_p50_ms']} ms max {canary['analyse_max_ms']} "
            f"ms | / p50 {canary['page_p50_ms']} ms max {canary['page_max_ms']} ms | "
            f"/healthz {canary['healthz_ms']} ms | wrong {canary['wrong']}"
        )
    else:
        print(f"  canary refused: {canary.get('reason')}")
    if web:
        print(
            f"  web process: threads {web['threads_before']} -> {web['threads_held']}, "
            f"memory {web['rss_mb_before']} -> {web['rss_mb_held']} MB "
            f"({web['kb_per_player']} KB per idle player)"
        )
