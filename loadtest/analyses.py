"""The lookup scenario: players who only ask ``analyse`` for 8-puzzle positions, checked.

Each of ``clients`` players (one websocket each, from 20 loopback addresses) asks for the analysis of an
8-puzzle position, waits for the final answer, thinks 0.3-1 s and asks again,
for ``duration`` seconds. The positions are random walks from the goal whose
distances this process proved beforehand with the solver, so every answer is
checked: its id, its board and its distance. These are table lookups on the
server, the cheapest answer it gives, so the figures measure the serving path
(one process, or a cluster behind its proxy), not the search. Reported:
answers per second, p50/p95/p99 latency, lost (no answer within ``timeout``),
wrong answers and errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter

import aiohttp
import socketio

from harness.loopback import loopback_addresses
from solver.engine import make_domain, solve_board

GOAL = "1 2 3 4 5 6 7 8 0"


def positions(count: int = 200, seed: int = 7) -> dict[str, int]:
    """``count`` distinct 8-puzzle positions (random walks from the goal) and their
    proven distances."""
    rng = random.Random(seed)
    domain = make_domain("npuzzle")
    found: dict[str, int] = {}
    while len(found) < count:
        state = domain.parse(GOAL)
        for _ in range(rng.randint(4, 40)):
            state = rng.choice([nxt for _, nxt in domain.moves(state)])
        board = domain.format(state)
        if board not in found:
            solved = solve_board("npuzzle", board)
            length = solved["length"]
            assert solved["optimal"] and length is not None, board
            found[board] = length
    return found


def _quantile_ms(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def _player(
    url: str,
    session: aiohttp.ClientSession,
    number: int,
    boards: dict[str, int],
    deadline: float,
    think: tuple,
    timeout: float,
    figures: dict,
) -> None:
    rng = random.Random(number)
    await asyncio.sleep(rng.uniform(0, 2.0))  # no thundering herd
    answers: asyncio.Queue = asyncio.Queue()
    sio = socketio.AsyncClient(reconnection=False, http_session=session)

    @sio.on("*")
    async def _any(event, data=None):
        if isinstance(data, dict) and not (event == "analysis" and data.get("final") is False):
            answers.put_nowait((event, data))

    try:
        await sio.connect(url, transports=["websocket"], wait_timeout=10)
    except Exception as err:  # noqa: BLE001 - counted, not raised
        figures["errors"][f"connect: {str(err)[:50]}"] += 1
        return
    choices = list(boards)
    turn = 0
    try:
        while time.monotonic() < deadline:
            turn += 1
            board, job = rng.choice(choices), f"a{turn}"
            started = time.perf_counter()
            await sio.emit("analyse", {"game": "npuzzle", "board": board, "id": job})
            try:
                while True:
                    event, data = await asyncio.wait_for(answers.get(), timeout)
                    if data.get("id") == job:
                        break
            except TimeoutError:
                figures["lost"] += 1
                continue
            seconds = time.perf_counter() - started
            if event != "analysis":
                figures["errors"][str(data.get("message", event))[:60]] += 1
            elif data.get("board") != board or data.get("distance") != boards[board]:
                figures["wrong"] += 1
            else:
                figures["latency"].append(seconds)
            await asyncio.sleep(rng.uniform(*think))
    finally:
        with contextlib.suppress(Exception):
            await sio.disconnect()


async def run_analyses(
    url: str | list[str],
    clients: int = 200,
    duration: float = 30.0,
    think: tuple = (0.3, 1.0),
    timeout: float = 30.0,
    boards: dict[str, int] | None = None,
    addresses: int = 20,
    first_address: str = "127.0.8.1",
) -> dict:
    """``clients`` players from ``addresses`` loopback addresses asking ``analyse``
    against ``url`` for ``duration`` seconds (a list of URLs: player i plays on ``url[i % len]``, for web processes without a proxy)."""
    urls = [url] if isinstance(url, str) else list(url)
    boards = boards or positions()
    # players come from many loopback addresses, as players do (the per-address limit)
    sources = loopback_addresses(max(1, min(addresses, clients)), first_address)
    sessions = [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0), limit=0))
        for source in sources
    ]
    figures: dict = {"latency": [], "lost": 0, "wrong": 0, "errors": Counter()}
    started = time.monotonic()
    deadline = started + duration
    await asyncio.gather(
        *(
            _player(
                urls[i % len(urls)],
                sessions[i % len(sessions)],
                i,
                boards,
                deadline,
                think,
                timeout,
                figures,
            )
            for i in range(clients)
        )
    )
    for session in sessions:
        await session.close()
    elapsed = time.monotonic() - started
    latency = figures["latency"]
    return {
        "url": " ".join(urls),
        "clients": clients,
        "seconds": round(elapsed, 1),
        "answers": len(latency),
        "per_second": round(len(latency) / elapsed, 1),
        "p50_ms": _quantile_ms(latency, 0.5),
        "p95_ms": _quantile_ms(latency, 0.95),
        "p99_ms": _quantile_ms(latency, 0.99),
        "lost": figures["lost"],
        "wrong": figures["wrong"],
        "errors": dict(figures["errors"]),
    }


def print_analyses(report: dict) -> None:
    print(
        f"analyses: {report['clients']} players on {report['url']} for {report['seconds']} s: "
        f"{report['answers']} answers, {report['per_second']}/s, p50 {report['p50_ms']} ms, "
        f"p95 {report['p95_ms']} ms, p99 {report['p99_ms']} ms | lost {report['lost']} "
        f"wrong {report['wrong']} errors {report['errors'] or 0}"
    )
