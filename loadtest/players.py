"""Load test: N simulated players on loopback, measured, checked answer by answer.

``python -m loadtest [--clients 200] [--duration 60] [--url URL ...] [--pid PID ...]``
(``make load``). Without ``--url`` it starts the production server (``python -m
webapp``: gunicorn) on a free loopback port, waits until its workers are ready
and samples the memory of the server and its workers throughout (a soak is
``--duration 300``). With ``--url`` it plays against servers already running
(several: the players are spread over them, e.g. a cluster's web processes),
sampling the memory of the process trees ``--pid`` names.

Each simulated player (one ``socketio.AsyncClient`` over websocket) plays short
sessions: a Klotski level or an 8-puzzle position, a random legal move at a
time, ``analyse`` after each move, and now and then a ``solve`` that it waits
for, a long ``solve`` that it cancels, or a long one it walks away from by
disconnecting mid-search (then it reconnects as a new player). Every answer
is checked: the id and board must be the ones asked about, a solution must
start at the board and be as long as the analysed distance, a cancelled job
must never answer. Reported: p50/p95/p99 latency of ``analysis`` (until the
final one) and ``solution``, lost answers (none within ``--timeout``),
mismatches, errors by message, throughput, and memory over time.

Then, with ``--flood-seconds`` (``make load`` gives 10), the flood scenarios of
:mod:`loadtest.floods` run one after another while a canary player measures how
fast hints and quick solves still come (``--floods-only`` skips the players).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import socketio

from harness.figures import percentile
from harness.server import readyz, start_server
from solver.engine import make_domain
from solver.klotski import levels as solver_levels

from .crowd import crowd, print_crowd
from .floods import print_floods, run_floods

#: a 6x6 Klotski board whose breadth-first search runs for seconds: the long solve
#: that players cancel or walk away from
LONG_BOARD = "BAACxy/BAACzw/DEEF12/DGHF34/I....J/KLMNOP"
EIGHT_START = "1 2 3 4 5 6 7 8 0"


@dataclass
class Tally:
    """Everything the players measured and every fault they found."""

    latency: dict[str, list[float]] = field(
        default_factory=lambda: {"analysis": [], "solution": []}
    )
    answers: int = 0
    lost: int = 0
    mismatched: int = 0
    stale: int = 0
    errors: Counter = field(default_factory=Counter)
    faults: list[str] = field(default_factory=list)
    sessions: int = 0
    cancels: int = 0
    walkaways: int = 0
    connect_failures: int = 0

    def fault(self, kind: str, text: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.faults) < 20:
            self.faults.append(f"{kind}: {text}")


class Player:
    """One simulated player: a socket, the request it awaits, and its checks."""

    def __init__(self, url: str, tally: Tally, rng: random.Random, timeout: float):
        self.url, self.tally, self.rng, self.timeout = url, tally, rng, timeout
        self.sio = socketio.AsyncClient(reconnection=False)
        self.waiting: dict[object, asyncio.Future] = {}
        self.cancelled: set = set()
        self.counter = 0
        self.sio.on("*", self._on_event)

    async def connect(self) -> bool:
        try:
            await self.sio.connect(self.url, transports=["websocket"], wait_timeout=10)
            return True
        except Exception as err:  # noqa: BLE001 - reported, not raised
            self.tally.connect_failures += 1
            self.tally.faults.append(f"connect: {err}") if len(self.tally.faults) < 20 else None
            return False

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone
            await self.sio.disconnect()

    async def _on_event(self, event, data=None):
        if event == "progress" or not isinstance(data, dict):
            return
        job_id = data.get("id")
        if event == "error" and data.get("event") == "cancel":
            self.tally.errors["cancel: " + data.get("message", "?")[:50]] += 1
            return
        if job_id in self.cancelled:
            self.tally.fault("stale", f"{event} for cancelled job {job_id}")
            return
        if event == "analysis" and not data.get("final", True):
            return  # an interim hint; the final one follows
        future = self.waiting.pop(job_id, None)
        if future is None:
            self.tally.fault("mismatched", f"{event} for {job_id!r}, which nobody awaits")
        elif not future.done():
            future.set_result((event, data))

    def _next_id(self, kind: str) -> str:
        self.counter += 1
        return f"{kind[0]}{self.counter}"

    async def ask(self, kind: str, payload: dict):
        """Send one request and wait for its answer; None when lost."""
        job_id = self._next_id(kind)
        future = asyncio.get_running_loop().create_future()
        self.waiting[job_id] = future
        started = time.perf_counter()
        await self.sio.emit(kind, {**payload, "id": job_id})
        try:
            event, data = await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            self.waiting.pop(job_id, None)
            self.tally.fault("lost", f"{kind} {payload.get('board')} got no answer")
            return None
        self.tally.answers += 1
        if event == "error":
            self.tally.errors[data.get("message", "?")[:60]] += 1
            return None
        name = "analysis" if kind == "analyse" else "solution"
        self.tally.latency[name].append(time.perf_counter() - started)
        if data.get("board") != payload["board"]:
            self.tally.fault(
                "mismatched", f"{kind} of {payload['board']} answered for {data.get('board')}"
            )
        return event, data

    async def abandon_long_solve(self, walk_away: bool) -> bool:
        """Start a long solve, then cancel it (or disconnect); False when disconnected."""
        job_id = self._next_id("solve")
        await self.sio.emit("solve", {"game": "klotski", "board": LONG_BOARD, "id": job_id})
        await asyncio.sleep(self.rng.uniform(0.05, 0.3))
        if walk_away:
            self.tally.walkaways += 1
            await self.close()
            return False
        self.tally.cancels += 1
        self.cancelled.add(job_id)
        await self.sio.emit("cancel", {"id": job_id})
        return True


def klotski_levels(count: int | None = None) -> list[str]:
    """The classic levels' boards (the first ``count`` of them)."""
    boards = [level["board"] for level in solver_levels.load("klotski-classic")["levels"]]
    return boards[:count] if count else boards


async def play_session(
    player: Player, rng: random.Random, deadline: float, think: tuple, levels: list[str]
) -> bool:
    """One short game; returns False when the player walked away (disconnected)."""
    tally = player.tally
    tally.sessions += 1
    if rng.random() < 0.7:
        game, board = "klotski", rng.choice(levels)
    else:
        game, board = "npuzzle", EIGHT_START
    domain = make_domain(game)
    state = domain.parse(board)
    for _ in range(rng.randint(5, 15)):
        if time.monotonic() > deadline:
            return True
        state = rng.choice([nxt for _, nxt in domain.moves(state)])
        board = domain.format(state)
        answer = await player.ask("analyse", {"game": game, "board": board})
        distance = answer[1]["distance"] if answer else None
        roll = rng.random()
        if roll < 0.06 and distance is not None:
            solved = await player.ask("solve", {"game": game, "board": board})
            if (
                solved
                and solved[0] == "solution"
                and (solved[1]["length"] != distance or solved[1]["states"][0] != board)
            ):
                tally.fault(
                    "mismatched",
                    f"solution of {board} has {solved[1]['length']} "
                    f"moves, analysis said {distance}",
                )
        elif roll < 0.08 and not await player.abandon_long_solve(walk_away=rng.random() < 0.4):
            return False
        await asyncio.sleep(rng.uniform(*think))
    return True


async def run_player(
    number: int,
    url: str,
    tally: Tally,
    deadline: float,
    seed: int,
    timeout: float,
    think: tuple,
    ramp: float,
    levels: list[str],
) -> None:
    rng = random.Random(seed * 100_003 + number)
    await asyncio.sleep(rng.uniform(0, ramp))  # no thundering herd at start
    while time.monotonic() < deadline:
        player = Player(url, tally, rng, timeout)
        if not await player.connect():
            await asyncio.sleep(1.0)
            continue
        stayed = True
        while stayed and time.monotonic() < deadline:
            stayed = await play_session(player, rng, deadline, think, levels)
        if stayed:
            await player.close()


def rss_mb(pid: int, descendants: bool = True) -> float:
    """Resident memory of ``pid`` and (``descendants``) all its children's, in MB."""
    total, todo = 0, [pid]
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    while todo:
        current = todo.pop()
        if descendants:
            todo.extend(children.get(current, []))
        try:
            with open(f"/proc/{current}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def web_rss_mb(pids: list[int]) -> float:
    """Resident MB of the web server alone: each pid and its direct children."""
    return round(
        sum(rss_mb(p, descendants=False) for pid in pids for p in [pid] + children(pid)), 1
    )


async def sample_memory(pids: list[int], samples: list, every: float, deadline: float) -> None:
    """(seconds, MB of every process below ``pids``, MB of the web server alone: each
    pid and its direct children, i.e. gunicorn's arbiter and its worker, not the
    solver workers the app started)."""
    started = time.monotonic()
    while time.monotonic() < deadline:
        total = sum(rss_mb(pid) for pid in pids)
        samples.append((round(time.monotonic() - started, 1), round(total, 1), web_rss_mb(pids)))
        await asyncio.sleep(every)


async def run_load(
    url,
    clients: int = 200,
    duration: float = 60.0,
    seed: int = 1,
    timeout: float = 30.0,
    think: tuple = (0.3, 1.0),
    server_pid=0,
    memory_every: float = 5.0,
    levels: int | None = None,
) -> dict:
    """Run the players against ``url`` (or a list of URLs: player i plays on
    ``url[i % len]``) and return the report (see :func:`summary`); memory is sampled
    below ``server_pid`` (a pid or a list)."""
    urls = [url] if isinstance(url, str) else list(url)
    pids = [server_pid] if isinstance(server_pid, int) else list(server_pid)
    pids = [pid for pid in pids if pid]
    tally = Tally()
    started = time.monotonic()
    deadline = started + duration
    memory: list = []
    boards = klotski_levels(levels)
    tasks = [
        run_player(
            i,
            urls[i % len(urls)],
            tally,
            deadline,
            seed,
            timeout,
            think,
            ramp=min(5.0, duration / 4),
            levels=boards,
        )
        for i in range(clients)
    ]
    if pids:
        tasks.append(sample_memory(pids, memory, memory_every, deadline))
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    await asyncio.sleep(1.0)  # let cancelled and abandoned jobs wind down
    report = summary(tally, elapsed, clients)
    report["memory_mb"] = memory
    after = {}
    for one in urls:
        try:
            after[one] = {k: v for k, v in readyz(one).items() if k != "lanes"}
        except OSError as err:
            after[one] = {"unreachable": str(err)}
    report["server_after"] = after[urls[0]] if len(urls) == 1 else after
    return report


def summary(tally: Tally, elapsed: float, clients: int) -> dict:
    def ms(values, q):
        value = percentile(values, q)
        return None if value is None else round(value * 1000, 1)

    latency = {
        name: {
            "count": len(values),
            "p50_ms": ms(values, 50),
            "p95_ms": ms(values, 95),
            "p99_ms": ms(values, 99),
            "max_ms": ms(values, 100),
        }
        for name, values in tally.latency.items()
    }
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "latency": latency,
        "answers": tally.answers,
        "throughput_per_s": round(tally.answers / elapsed, 1),
        "lost": tally.lost,
        "mismatched": tally.mismatched,
        "stale": tally.stale,
        "errors": dict(tally.errors),
        "error_count": sum(tally.errors.values()),
        "sessions": tally.sessions,
        "cancels": tally.cancels,
        "walkaways": tally.walkaways,
        "connect_failures": tally.connect_failures,
        "faults": tally.faults,
    }


def print_report(report: dict) -> None:
    print(
        f"{report['clients']} clients for {report['seconds']} s: {report['answers']} answers, "
        f"{report['throughput_per_s']}/s"
    )
    for name, row in report["latency"].items():
        print(
            f"  {name:9s} n={row['count']:6d}  p50 {row['p50_ms']} ms  p95 {row['p95_ms']} ms  "
            f"p99 {row['p99_ms']} ms  max {row['max_ms']} ms"
        )
    print(
        f"  lost {report['lost']}  mismatched {report['mismatched']}  stale {report['stale']}  "
        f"errors {report['error_count']} {report['errors'] or ''}"
    )
    print(
        f"  sessions {report['sessions']}  cancels {report['cancels']}  "
        f"walk-aways {report['walkaways']}  connect failures {report['connect_failures']}"
    )
    if report["memory_mb"]:
        values = [sample[1] for sample in report["memory_mb"]]
        web = [sample[2] for sample in report["memory_mb"]]
        print(
            f"  server memory (web + workers): first {values[0]} MB, last {values[-1]} MB, "
            f"max {max(values)} MB over {len(values)} samples; web server alone "
            f"(gunicorn's arbiter + worker) first {web[0]} MB, last {web[-1]} MB"
        )
        print(
            "  at "
            + ", ".join(
                f"{t:.0f} s: {total} MB (web {w} MB)"
                for t, total, w in [s for s in report["memory_mb"] if int(s[0]) % 50 < 5]
            )
        )
    print(f"  server after: {report['server_after']}")
    for fault in report["faults"]:
        print(f"  fault: {fault}")


def build_parser() -> argparse.ArgumentParser:
    """The load tool's command line (``python -m loadtest``)."""
    parser = argparse.ArgumentParser(prog="python -m loadtest", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument(
        "--url",
        action="append",
        help="an already running server (else one is started); repeat it "
        "to spread the players over several",
    )
    parser.add_argument(
        "--pid",
        type=int,
        action="append",
        default=[],
        help="with --url: sample the memory of this process and all below it",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds before an answer counts as lost"
    )
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument(
        "--flood-seconds",
        type=float,
        default=0.0,
        help="then run each flood scenario this long, timing a canary player (0: no floods)",
    )
    parser.add_argument(
        "--floods-only", action="store_true", help="only the flood scenarios, no simulated players"
    )
    parser.add_argument(
        "--flood", action="append", help="run only this flood scenario (repeat for several)"
    )
    parser.add_argument(
        "--crowd",
        action="store_true",
        help="only the crowd scenario: 12 hard solves and a trivial one from one address",
    )
    parser.add_argument(
        "--capacity",
        type=int,
        metavar="N",
        help="instead: hold N idle players (from --addresses loopback addresses) and time "
        "a canary (loadtest.capacity)",
    )
    parser.add_argument("--addresses", type=int, default=60, help="with --capacity")
    parser.add_argument(
        "--analyses",
        action="store_true",
        help="instead: --clients players asking only analyse for 8-puzzle positions "
        "(loadtest.analyses)",
    )
    parser.add_argument(
        "--races",
        type=int,
        metavar="N",
        help="instead: N races of --racers simulated racers over a fresh make cluster's two "
        "web processes (or the --url ones; CPU below --pid) (loadtest.races)",
    )
    parser.add_argument("--racers", type=int, default=5, help="with --races: racers per race")
    parser.add_argument(
        "--think", type=float, default=1.0, help="with --races: a racer's mean pause between moves"
    )
    parser.add_argument(
        "--race-seconds",
        type=float,
        help="with --races: how long a race lasts (default: loadtest.races.RACE_ENV's)",
    )
    parser.add_argument(
        "--serving",
        action="store_true",
        help="instead: the serving bench, the arcade's quick answers against a bare "
        "Flask-SocketIO app, one server and a cluster (loadtest.serving; --clients, "
        "--duration per row)",
    )
    parser.add_argument(
        "--no-cluster", action="store_true", help="with --serving: the single server's rows only"
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="with --serving: sample the web process with py-spy during the random row",
    )
    parser.add_argument(
        "--no-page",
        action="store_true",
        help="with --serving: players open no daily page first (no cookie, no attempt)",
    )
    parser.add_argument(
        "--other",
        metavar="CHECKOUT",
        help="with --serving: also measure the server of this checkout (before and after)",
    )
    parser.add_argument(
        "--attacks",
        action="store_true",
        help="instead: each attack of issue 46 for a few seconds (--flood-seconds, default "
        "3) while /healthz is polled every 50 ms; a table of what held (loadtest.attacks)",
    )
    parser.add_argument(
        "--attack", action="append", help="run only this attack scenario (repeat for several)"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="with --analyses: one fresh server, then a fresh make cluster behind its proxy, "
        "side by side",
    )
    return parser


def main(argv=None) -> int:
    """Simulated players, then the floods (``--capacity`` and ``--analyses`` are
    :mod:`loadtest.scenarios`, dispatched by ``python -m loadtest``)."""
    args = build_parser().parse_args(argv)
    process = None
    url, pid = args.url, args.pid
    if url is None:
        print("starting the server and warming its workers...", flush=True)
        process, url = start_server()
        pid = [process.pid]
    report: dict = {}
    try:
        if args.crowd:
            report["crowd"] = asyncio.run(crowd(url if isinstance(url, str) else url[0]))
            print_crowd(report["crowd"])
        elif not args.floods_only:
            report = asyncio.run(
                run_load(url, args.clients, args.duration, args.seed, args.timeout, server_pid=pid)
            )
            print_report(report)
        if not args.crowd and (args.flood_seconds > 0 or args.floods_only):
            pids = [pid] if isinstance(pid, int) else list(pid)
            report["floods"] = asyncio.run(
                run_floods(
                    url if isinstance(url, str) else url[0],
                    args.flood_seconds or 10.0,
                    memory=(lambda: web_rss_mb(pids)) if pids else None,
                    only=args.flood,
                )
            )
            print_floods(report["floods"])
    finally:
        if process is not None:
            process.terminate()
            process.wait(30)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    bad = sum(report.get(key, 0) for key in ("lost", "mismatched", "stale", "connect_failures"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
