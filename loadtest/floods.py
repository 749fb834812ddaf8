"""Flood scenarios for the load test: hostile and greedy clients while a canary plays.

Each scenario runs for a few seconds against a running server while a *canary*
player asks for a hint (an 8-puzzle ``analyse``) every 100 ms and, every tenth
time, a quick solve (an 8-puzzle position 20 moves from solved). Their latency
is the figure that matters: the canary's p95 should stay under 200 ms whatever
the others do. The scenarios replay an attack run's findings:

* ``hard-solves``: 20 clients each asking for a hard 15-puzzle solve, again as
  soon as one is answered (or refused as busy);
* ``cancel-storm``: 20 clients starting and cancelling long solves in a loop;
* ``generators``: 16 requests at a time for generated levels that need a search
  (14-colour water sort, 15-puzzles 80 moves from solved);
* ``rate-flood``: clients sending events as fast as they can, with an event
  named ``disconnect`` among them (it used to reset the rate limit);
* ``malformed``: truncated packets, invalid Engine.IO frames, extra arguments;
* ``attachments``: a binary-attachment header announcing 99,999,999 attachments,
  then 15 KB binary frames until the server closes the connection.

The web process's memory (gunicorn's arbiter and worker, not the solver
workers) is sampled through each scenario when its pid is known.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import aiohttp
import socketio

import solver.npuzzle

EIGHT_HINT = "1 2 3 4 5 6 7 0 8"
EIGHT_QUICK_SOLVE = "8 6 7 2 5 4 3 0 1"
LONG_KLOTSKI = "BAACxy/BAACzw/DEEF12/DGHF34/I....J/KLMNOP"
GENERATED = [
    "/play/watersort?colours=14&capacity=6&empty=1&seed={seed}",
    "/play/npuzzle?size=4&distance=80&seed={seed}",
]


def korf_boards(count: int = 20) -> list[str]:
    """The first ``count`` of Korf's 100 random 15-puzzles (hard to solve optimally)."""
    path = Path(solver.npuzzle.__file__).with_name("korf100.json")
    return [item["board"] for item in json.loads(path.read_text())["instances"][:count]]


class Asker:
    """A Socket.IO client that sends a request and waits for the answer with its id;
    ``source`` is the local address to connect from (another player's address)."""

    def __init__(self, url: str, source: str = ""):
        self.url = url
        session = None
        if source:
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        self.session = session
        self.sio = socketio.AsyncClient(reconnection=False, http_session=session)
        self.waiting: dict[str, asyncio.Future] = {}
        self.count = 0
        self.sio.on("*", self._on_event)

    async def connect(self) -> None:
        await self.sio.connect(self.url, transports=["websocket"], wait_timeout=10)

    async def _on_event(self, event, data=None):
        if event == "progress" or not isinstance(data, dict):
            return
        if event == "analysis" and not data.get("final", True):
            return
        future = self.waiting.pop(data.get("id"), None)
        if future is not None and not future.done():
            future.set_result((event, data))

    async def ask(self, kind: str, payload: dict, stop: asyncio.Event):
        """(event, payload, seconds), or (None, None, seconds) when ``stop`` came first."""
        self.count += 1
        job_id = f"{kind[0]}{self.count}"
        future = asyncio.get_running_loop().create_future()
        self.waiting[job_id] = future
        started = time.perf_counter()
        await self.sio.emit(kind, {**payload, "id": job_id})
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait({future, stopped}, return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if not future.done():
            self.waiting.pop(job_id, None)
            return None, None, time.perf_counter() - started
        event, data = future.result()
        return event, data, time.perf_counter() - started

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone
            await self.sio.disconnect()
        if self.session is not None:
            await self.session.close()


def _record(figures: dict, name: str, answer, wanted: str) -> None:
    """The answer's latency under ``name``; an error, or none before the scenario
    ended, counts as failed (an unanswered request also records how long it waited)."""
    event, _, seconds = answer
    if event == wanted:
        figures[name].append(seconds)
    else:
        figures["failed"].append(event or f"unanswered after {seconds:.1f} s")


async def canary(url: str, stop: asyncio.Event, figures: dict) -> None:
    """A hint every 100 ms and a quick solve every tenth time, timed; on loopback the
    canary connects from 127.0.0.2, another address than the flooding clients."""
    player = Asker(url, source="127.0.0.2" if "//127.0.0.1:" in url else "")
    await player.connect()
    try:
        turn = 0
        while not stop.is_set():
            turn += 1
            _record(
                figures,
                "hint",
                await player.ask("analyse", {"game": "npuzzle", "board": EIGHT_HINT}, stop),
                "analysis",
            )
            if turn % 10 == 0 and not stop.is_set():
                _record(
                    figures,
                    "quick_solve",
                    await player.ask(
                        "solve", {"game": "npuzzle", "board": EIGHT_QUICK_SOLVE}, stop
                    ),
                    "solution",
                )
            await asyncio.sleep(0.1)
    finally:
        await player.close()


async def _each(count: int, stop: asyncio.Event, body: Callable) -> None:
    """``count`` copies of ``body(index, stop)`` until ``stop``."""
    await asyncio.gather(*(body(index, stop) for index in range(count)))


def hard_solves(url: str) -> Callable:
    boards = korf_boards(20)

    async def one(index: int, stop: asyncio.Event) -> None:
        client = Asker(url)
        await client.connect()
        try:
            while not stop.is_set():
                event, _, _ = await client.ask(
                    "solve", {"game": "npuzzle", "board": boards[index]}, stop
                )
                if event == "error":  # busy: ask again in a moment
                    await asyncio.sleep(0.5)
        finally:
            await client.close()

    return lambda stop: _each(len(boards), stop, one)


def cancel_storm(url: str) -> Callable:
    async def one(index: int, stop: asyncio.Event) -> None:
        client = Asker(url)
        await client.connect()
        try:
            turn = 0
            while not stop.is_set():
                turn += 1
                await client.sio.emit(
                    "solve", {"game": "klotski", "board": LONG_KLOTSKI, "id": f"s{turn}"}
                )
                await asyncio.sleep(0.02)
                await client.sio.emit("cancel", {"id": f"s{turn}"})
                await asyncio.sleep(0.02)
        finally:
            await client.close()

    return lambda stop: _each(20, stop, one)


def _fetch(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return 0


def generators(url: str, statuses: dict[int, int]) -> Callable:
    async def one(index: int, stop: asyncio.Event) -> None:
        rng = random.Random(index)
        while not stop.is_set():
            path = GENERATED[index % 2].format(seed=rng.randrange(10**6))
            status = await asyncio.to_thread(_fetch, url + path)
            statuses[status] = statuses.get(status, 0) + 1

    return lambda stop: _each(16, stop, one)


def rate_flood(url: str) -> Callable:
    async def one(index: int, stop: asyncio.Event) -> None:
        client = Asker(url)
        await client.connect()
        try:
            turn = 0
            while not stop.is_set() and client.sio.connected:
                turn += 1
                if turn % 40 == 0:
                    await client.sio.emit("disconnect", "x")
                await client.sio.emit(
                    "analyse", {"game": "npuzzle", "board": EIGHT_HINT, "id": turn}
                )
                await asyncio.sleep(0.001)
        finally:
            await client.close()

    return lambda stop: _each(5, stop, one)


async def _raw_session(session: aiohttp.ClientSession, url: str):
    """A websocket past the Engine.IO and Socket.IO handshakes, or None."""
    address = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
    try:
        ws = await session.ws_connect(address, timeout=10)
        await asyncio.wait_for(ws.receive(), 10)  # Engine.IO open
        await ws.send_str("40")
        await asyncio.wait_for(ws.receive(), 10)  # Socket.IO connect
        return ws
    except (TimeoutError, aiohttp.ClientError, OSError):
        return None


def raw_clients(url: str, count: int, send: Callable, closed: list[int]) -> Callable:
    """``count`` raw websockets running ``send(ws, stop)``; reconnecting when closed."""

    async def one(index: int, stop: asyncio.Event) -> None:
        async with aiohttp.ClientSession() as session:
            while not stop.is_set():
                ws = await _raw_session(session, url)
                if ws is None:
                    await asyncio.sleep(0.2)
                    continue
                try:
                    await send(ws, stop)
                except (aiohttp.ClientError, ConnectionError, RuntimeError):
                    pass
                finally:
                    if ws.closed or not stop.is_set():
                        closed[0] += 1
                    await ws.close()

    return lambda stop: _each(count, stop, one)


async def _malformed(ws, stop: asyncio.Event) -> None:
    frames = [
        '42["analyse",',
        '42["analyse",{"game":"npuzzle","board":"1 2 3"},1,2]',
        "42[1]",
        "xyz",
        "",
    ]
    turn = 0
    while not stop.is_set() and not ws.closed:
        turn += 1
        await ws.send_str(frames[turn % len(frames)])
        await asyncio.sleep(0.002)


async def _attachments(ws, stop: asyncio.Event) -> None:
    await ws.send_str('4599999999-["analyse",{"_placeholder":true,"num":0}]')
    blob = b"x" * 15_000
    sent = 0
    while not stop.is_set() and not ws.closed and sent < 20_000:
        await ws.send_bytes(blob)
        sent += 1
        await asyncio.sleep(0)


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def _row(values: list[float]) -> dict:
    return {
        "count": len(values),
        "p50_ms": _quantile(values, 0.5),
        "p95_ms": _quantile(values, 0.95),
        "max_ms": _quantile(values, 1.0),
    }


async def run_floods(
    url: str, seconds: float = 10.0, memory: Callable | None = None, only: list[str] | None = None
) -> dict:
    """Every scenario for ``seconds`` with the canary playing; returns figures by name.

    ``memory()`` (optional) gives the web process's resident MB, sampled every
    half second through each scenario.
    """
    statuses: dict[int, int] = {}
    closed = [0]
    scenarios = {
        "quiet": lambda stop: stop.wait(),
        "hard-solves": hard_solves(url),
        "cancel-storm": cancel_storm(url),
        "generators": generators(url, statuses),
        "rate-flood": rate_flood(url),
        "malformed": raw_clients(url, 4, _malformed, closed),
        "attachments": raw_clients(url, 4, _attachments, closed),
    }
    report = {}
    for name, flood in scenarios.items():
        if only and name not in only and name != "quiet":
            continue
        statuses.clear()
        closed[0] = 0
        figures: dict[str, list] = {"hint": [], "quick_solve": [], "failed": []}
        samples: list[float] = []
        stop = asyncio.Event()

        async def sample(stop: asyncio.Event = stop, samples: list[float] = samples) -> None:
            while memory is not None and not stop.is_set():
                samples.append(memory())
                await asyncio.sleep(0.5)

        tasks = [asyncio.ensure_future(flood(stop)), asyncio.ensure_future(sample())]
        await asyncio.sleep(1.0)  # the flood is under way
        canary_task = asyncio.ensure_future(canary(url, stop, figures))
        await asyncio.sleep(seconds)
        stop.set()
        with contextlib.suppress(TimeoutError):  # a flood still waiting on the server
            await asyncio.wait_for(asyncio.gather(canary_task, *tasks, return_exceptions=True), 90)
        report[name] = {
            "hint": _row(figures["hint"]),
            "quick_solve": _row(figures["quick_solve"]),
            "failed": len(figures["failed"]),
            "failures": figures["failed"][:5],
            "web_mb": {"first": samples[0], "max": max(samples), "last": samples[-1]}
            if samples
            else None,
        }
        if name == "generators":
            report[name]["http_statuses"] = dict(statuses)
        if name in ("malformed", "attachments"):
            report[name]["connections_closed"] = closed[0]
        await asyncio.sleep(1.0)  # let cancelled work wind down
    return report


def print_floods(report: dict) -> None:
    print("floods (canary: an 8-puzzle hint every 100 ms, a quick solve every tenth):")
    for name, row in report.items():
        hint, quick = row["hint"], row["quick_solve"]
        memory = row["web_mb"]
        extra = {k: v for k, v in row.items() if k in ("http_statuses", "connections_closed")}
        print(
            f"  {name:12s} hint n={hint['count']:4d} p50 {hint['p50_ms']} ms "
            f"p95 {hint['p95_ms']} ms max {hint['max_ms']} ms | quick solve "
            f"n={quick['count']} p95 {quick['p95_ms']} ms max {quick['max_ms']} ms | "
            f"failed {row['failed']} {row['failures'] or ''}"
            + (f" | web {memory['first']:.0f} -> max {memory['max']:.0f} MB" if memory else "")
            + (f" | {extra}" if extra else "")
        )
