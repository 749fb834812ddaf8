"""A crowd behind one address: does a trivial search wait behind the crowd's long ones?

Twelve players share one address (a NAT, a school, a reverse proxy) and each asks
for an optimal solve of a hard 15-puzzle (the twelve of Korf's instances this
solver takes longest over, each from 0.1 to 0.9 s alone). A thirteenth player
on the same address then asks for a two-colour water-sort solve, which takes the
solver milliseconds. The figure is how long that player waits for its
``solution``: fair shares per player, and a quick lane no long search can fill,
keep it under a second.

``python -m loadtest --crowd`` runs it against a fresh server (or ``--url``);
``tests/test_crowd.py`` runs it against one server and against the cluster.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

from .floods import Asker, korf_boards

TWO_COLOURS = {"game": "watersort", "board": "AABB,BBAA,,"}
PLAYERS = 12
#: Korf's instances (0-based) the compiled 15-puzzle search takes longest over
HARDEST_KORF = (21, 59, 81, 2, 87, 14, 31, 65, 90, 62, 25, 48)


def hard_boards(count: int = PLAYERS) -> list[str]:
    boards = korf_boards(100)
    return [boards[index] for index in HARDEST_KORF[:count]]


async def crowd(url: str, players: int = PLAYERS, patience: float = 30.0) -> dict:
    """Start ``players`` hard solves from one address, then time a trivial solve from
    the same address; returns {seconds, event, hard} (``hard``: how the hard solves
    had been answered by then, by event)."""
    everyone = [Asker(url) for _ in range(players + 1)]
    stop_hard, stop_trivial = asyncio.Event(), asyncio.Event()
    try:
        await asyncio.gather(*(asker.connect() for asker in everyone))
        hard = [
            asyncio.ensure_future(
                asker.ask("solve", {"game": "npuzzle", "board": board}, stop_hard)
            )
            for asker, board in zip(everyone[:-1], hard_boards(players), strict=True)
        ]
        await asyncio.sleep(0.5)  # every hard solve has reached the server
        timer = asyncio.get_running_loop().call_later(patience, stop_trivial.set)
        started = time.perf_counter()
        event, data, _ = await everyone[-1].ask("solve", TWO_COLOURS, stop_trivial)
        seconds = time.perf_counter() - started
        timer.cancel()
        answered: dict[str, int] = {}
        for future in hard:
            name = future.result()[0] if future.done() else None
            answered[name or "waiting"] = answered.get(name or "waiting", 0) + 1
        stop_hard.set()
        await asyncio.gather(*hard, return_exceptions=True)
        return {
            "seconds": round(seconds, 3),
            "event": event,
            "length": (data or {}).get("length"),
            "hard": answered,
        }
    finally:
        await asyncio.gather(*(asker.close() for asker in everyone), return_exceptions=True)


def run_crowd(url: str, players: int = PLAYERS) -> dict:
    """:func:`crowd` on an event loop of its own thread (callers may run a loop already)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, crowd(url, players)).result()


def print_crowd(report: dict) -> None:
    print(
        f"crowd behind one address: {PLAYERS} hard 15-puzzle solves, then a two-colour "
        f"water sort answered '{report['event']}' after {report['seconds']:.3f} s "
        f"(hard solves by then: {report['hard']})"
    )
