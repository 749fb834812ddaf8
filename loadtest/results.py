"""The ``results`` flood: players solving the daily and submitting their lines.

Each of 200 players (each from its own loopback address, 127.0.1.x, with its own
cookie) fetches today's 3x3 daily, then submits a line every few seconds: the
shortest one with a random detour or two (a move there and back), so each line
is new and the server replays, stores and ranks it. Figures: submissions stored
per second, the answers' latency and every status other than 201 (or 200, a
line the player sent before).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable

import aiohttp

from solver.engine import solve_board

PLAYERS = 200
EVERY_SECONDS = 3.0  # one player's pace: 20 a minute, under the per-player limit


def _address(index: int, url: str) -> str | None:
    return f"127.0.{1 + index // 250}.{1 + index % 250}" if "//127.0.0.1:" in url else None


def _line(states: list[str], rng: random.Random) -> list[str]:
    """The shortest line with 1 or 2 detours: a move made, taken back, made again."""
    line = list(states)
    for _ in range(rng.randint(1, 2)):
        at = rng.randrange(len(line) - 1)
        line[at + 1 : at + 1] = [line[at + 1], line[at]]
    return line


def submissions(url: str, figures: dict, players: int = PLAYERS) -> Callable:
    """The flood of ``players`` players; ``figures`` gains ``stored`` (count), ``submitters``
    (the players with a line stored), ``latency`` (seconds) and ``statuses`` (other answers
    by status)."""
    figures.update(stored=0, submitters=set(), latency=[], statuses={}, started=None, ended=None)

    async def one(index: int, stop: asyncio.Event, states: list[str], daily: dict) -> None:
        rng = random.Random(index)
        source = _address(index, url)
        # a fresh connection each time: the server closes idle keep-alive ones after 2 s
        connector = aiohttp.TCPConnector(
            local_addr=(source, 0) if source else None, force_close=True
        )
        # the player's cookie (an IP address's, which aiohttp keeps only when told to)
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(connector=connector, cookie_jar=jar) as session:
            await asyncio.sleep(rng.uniform(0, EVERY_SECONDS))
            # as a browser does: the daily handed to this player opens its ranked attempt
            async with session.get(f"{url}/api/daily/npuzzle") as reply:
                await reply.read()
                if reply.status != 200 or not len(session.cookie_jar):
                    key = f"daily {reply.status}" + (
                        "" if len(session.cookie_jar) else ", no cookie"
                    )
                    figures["statuses"][key] = figures["statuses"].get(key, 0) + 1
            while not stop.is_set():
                body = {
                    "game": "npuzzle",
                    "board": daily["board"],
                    "options": daily["options"],
                    "states": _line(states, rng),
                    "seconds": round(rng.uniform(20, 200), 2),
                    "assisted": False,
                }
                began = time.monotonic()
                try:
                    async with session.post(f"{url}/api/results", json=body) as reply:
                        await reply.read()
                        status = reply.status
                except aiohttp.ClientError:
                    status = 0
                if status in (200, 201):  # 200: the same line again, stored once
                    figures["stored"] += 1
                    figures["submitters"].add(index)
                    figures["latency"].append(time.monotonic() - began)
                else:
                    figures["statuses"][status] = figures["statuses"].get(status, 0) + 1
                with_rest = EVERY_SECONDS - (time.monotonic() - began)
                if with_rest > 0:
                    with contextlib.suppress(TimeoutError):  # the pause, unless stopped
                        await asyncio.wait_for(stop.wait(), with_rest)

    async def flood(stop: asyncio.Event) -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{url}/api/daily/npuzzle") as reply,
        ):
            daily = await reply.json()
        states = solve_board("npuzzle", daily["board"])["states"]
        figures["started"] = time.monotonic()
        await asyncio.gather(*(one(i, stop, states, daily) for i in range(players)))
        figures["ended"] = time.monotonic()

    return flood
