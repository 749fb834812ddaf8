"""The race scenario: many races of simulated racers, each race spread over the web processes.

``python -m loadtest --races 100 --racers 5`` (``make races``) starts a fresh
``make cluster`` and runs 100 private races of 5 racers at once on its two web
processes, past the proxy: racer ``j`` of race ``n`` plays on web process
``(n + j) % 2``, so every race has racers on both and each move reaches the
others through Redis. Each racer (a ``socketio.AsyncClient`` from its own
loopback address) makes only legal moves that bring its puzzle one closer: a
shortest line from the loadtest's own solver library (``solve_board``, in a
process pool of the load tool, never the server), one move per ``--think``
seconds after the last was confirmed.

Measured: the latency from a racer sending a move to every other racer of the race
seeing its score go up (each of the others: one sample), and the CPU seconds the
web processes, the RQ workers and Redis spent (their whole process trees) per race.
Checked, so nothing is lost: every racer's final score (as every racer of the race
sees it) equals the moves the server confirmed to it; every other racer saw every
one of those moves; no move went unanswered; and the moves the web processes' replay
lanes judged are the scored ones plus, at most, the ones refused after judging.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
import urllib.request
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import socketio

from harness.cluster import Cluster
from harness.figures import percentile
from harness.loopback import loopback_addresses
from solver.engine import solve_board

#: a race's clock in the scenario's cluster: a short countdown, a race of 30 s
RACE_ENV = {"ARCADE_RACE_COUNTDOWN_SECONDS": "3", "ARCADE_RACE_SECONDS": "30"}
#: seconds the cluster's CPU is sampled idle first (its RQ workers, pools and clocks)
IDLE_SECONDS = 5.0
#: seconds an answer to a move (the racer's own race_state or an error) may take
ANSWER_TIMEOUT = 15.0
#: a racer sends no move in its race's last this many seconds (by the clock it was sent),
#: so a move refused because the race ended is a fault, not the luck of the draw
END_MARGIN = 0.5


def closer_line(game: str, board: str, options_json: str) -> list[str]:
    """A shortest line from ``board`` to solved, ``board`` first: each position is one
    move closer than the one before (the load tool's own search, not the server's)."""
    return solve_board(game, board, **json.loads(options_json))["states"]


class Lines:
    """Shortest lines by puzzle, searched once each in a process pool (off this loop);
    every position of a line found knows its next one."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self.pool = pool
        self.searching: dict[tuple, asyncio.Future] = {}
        self.next: dict[tuple, str] = {}

    async def next_move(self, puzzle: dict) -> str:
        options = json.dumps(puzzle["options"], sort_keys=True)
        key = (puzzle["game"], puzzle["board"], options)
        if key not in self.next:
            if key not in self.searching:
                loop = asyncio.get_running_loop()
                self.searching[key] = loop.run_in_executor(self.pool, closer_line, *key)
            line = await self.searching[key]
            for before, after in zip(line, line[1:], strict=False):
                self.next[(key[0], before, options)] = after
        return self.next[key]


@dataclass
class Figures:
    """What the racers measured and every fault they found."""

    latency: list[float] = field(default_factory=list)
    #: by game: a move to its racer's own race_state (judged, stored, sent back)
    judged_in: dict[str, list[float]] = field(default_factory=dict)
    moves: int = 0
    scored: int = 0
    unanswered: int = 0
    unseen: int = 0
    late: int = 0
    stale: int = 0
    retries: int = 0
    errors: Counter = field(default_factory=Counter)
    faults: list[str] = field(default_factory=list)
    races_run: int = 0
    making: list[float] = field(default_factory=list)  # race_join "new" to its race, s

    def fault(self, text: str) -> None:
        if len(self.faults) < 20:
            self.faults.append(text)


STAGES = ("waiting", "countdown", "racing", "finished")


def _current(state: dict, last: dict | None) -> bool:
    """Whether ``state`` is no older than ``last`` (as the page decides: race-order.js)."""
    if last is None or last["race"] != state["race"]:
        return True
    if state["version"] != last["version"]:
        return state["version"] > last["version"]
    return STAGES.index(state["status"]) >= STAGES.index(last["status"])


class Racer:
    """One simulated racer: its socket, the last ``race_state`` it got, its checks."""

    def __init__(self, name: str, url: str, session, figures: Figures, sent: dict) -> None:
        self.name, self.url, self.figures, self.sent = name, url, figures, sent
        self.sio = socketio.AsyncClient(reconnection=False, http_session=session)
        self.state: dict | None = None
        self.ends_at = float("inf")  # this loop's clock
        self.refused: str | None = None
        self.changed = asyncio.Event()
        self.scored = 0
        self.seen: dict[str, int] = {}
        self.sio.on("race_state", self._on_state)
        self.sio.on("error", self._on_error)

    async def _on_state(self, data: dict) -> None:
        now = time.monotonic()
        for player in data["players"]:
            other = player["name"]
            if other == self.name:
                continue
            before = self.seen.get(other, 0)
            for score in range(before + 1, player["score"] + 1):
                at = self.sent.get(other, {}).get(score)
                if at is None:
                    self.figures.fault(f"{self.name} saw {other} score {score}, never sent")
                else:
                    self.figures.latency.append(now - at)
            self.seen[other] = max(before, player["score"])
        if not _current(data, self.state):
            self.figures.stale += 1  # an older state, delivered after a newer one
            return
        if data["status"] == "racing" and data["ends_in"] is not None:
            self.ends_at = now + data["ends_in"]
        self.state = data
        self.changed.set()

    async def _on_error(self, data: dict) -> None:
        if data.get("event") in ("race_move", "race_join"):
            self.refused = str(data.get("message"))
        else:
            self.figures.fault(f"{self.name}: {data}")
        self.changed.set()

    def my_score(self, state: dict) -> int:
        return next(p["score"] for p in state["players"] if p["name"] == self.name)

    async def until(self, test, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            self.changed.clear()
            if self.state is not None and test(self.state):
                return self.state
            await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.monotonic()))

    async def play(self, lines: Lines, rng: random.Random, think: tuple[float, float]) -> None:
        """Closer moves, one at a time, until the race ends or every puzzle is solved."""
        mine = self.sent.setdefault(self.name, {})
        while self.state and self.state["status"] == "racing" and "puzzle" in self.state:
            if time.monotonic() > self.ends_at - END_MARGIN:
                return
            game = self.state["puzzle"]["game"]
            after = await lines.next_move(self.state["puzzle"])
            wanted = self.scored + 1
            self.refused = None
            mine[wanted] = time.monotonic()
            await self.sio.emit("race_move", {"board": after})
            self.figures.moves += 1
            try:
                state = await self.until(
                    lambda s, w=wanted: (
                        self.my_score(s) >= w
                        or self.refused is not None
                        or s["status"] == "finished"
                    ),
                    ANSWER_TIMEOUT,
                )
            except TimeoutError:
                self.figures.unanswered += 1
                self.figures.fault(f"{self.name}: no answer to a move")
                return
            if self.my_score(state) >= wanted:
                took = time.monotonic() - mine[wanted]
                self.figures.judged_in.setdefault(game, []).append(took)
                self.scored = wanted
                self.figures.scored += 1
            elif self.refused is not None:
                self.figures.errors[self.refused[:60]] += 1
                if "ended" in self.refused:
                    self.figures.late += 1
            else:
                self.figures.late += 1  # the race ended while the move was judged
            await asyncio.sleep(rng.uniform(*think))


async def one_race(
    number: int, urls: list[str], sessions: list, figures: Figures, lines: Lines, options: dict
) -> None:
    """Race ``number``: its owner makes it and the others join; once every race is made
    (``options["made"]``), the owner starts it, within ``ramp`` seconds of the others;
    all race."""
    rng = random.Random(number)
    size = options["racers"]
    await asyncio.sleep(number * options["ramp"] / max(1, options["races"]))
    sent: dict = {}
    racers = [
        Racer(
            f"R{number}-{j}",
            urls[(number + j) % len(urls)],
            sessions[(number * size + j) % len(sessions)],
            figures,
            sent,
        )
        for j in range(size)
    ]
    try:
        try:
            await asyncio.gather(
                *(r.sio.connect(r.url, transports=["websocket"], wait_timeout=10) for r in racers)
            )
            owner = racers[0]
            began = time.monotonic()
            race = await _make_race(owner, figures)
            figures.making.append(time.monotonic() - began)
            for racer in racers[1:]:
                await racer.sio.emit("race_join", {"race": race, "name": racer.name})
            await owner.until(lambda s: len(s["players"]) == size, 30)
        finally:
            options["made"].append(number)
            if len(options["made"]) == options["races"]:
                options["all_made"].set()
        await options["all_made"].wait()
        await asyncio.sleep(rng.uniform(0, options["ramp"]))
        await owner.sio.emit("race_start", {})
        await asyncio.gather(*(r.until(lambda s: s["status"] == "racing", 60) for r in racers))
        await asyncio.gather(*(r.play(lines, rng, options["think"]) for r in racers))
        finals = await asyncio.gather(
            *(r.until(lambda s: s["status"] == "finished", 120) for r in racers)
        )
    except Exception as err:  # noqa: BLE001 - counted, not raised: the other races go on
        figures.fault(f"race {number}: {type(err).__name__} {err}")
        return
    finally:
        await asyncio.gather(*(r.sio.disconnect() for r in racers), return_exceptions=True)
    figures.races_run += 1
    _check(number, racers, finals, figures)


async def _make_race(owner: Racer, figures: Figures) -> str:
    """The owner's new race, asked again after a pause while the server is busy making
    puzzles (a fresh cluster generates them: its pool of puzzles is empty)."""
    for _ in range(30):
        owner.refused = None
        await owner.sio.emit("race_join", {"race": "new", "name": owner.name})
        deadline = time.monotonic() + 30
        while owner.refused is None and (owner.state is None or owner.state["status"] != "waiting"):
            owner.changed.clear()
            await asyncio.wait_for(owner.changed.wait(), max(0.0, deadline - time.monotonic()))
        if owner.refused is None and owner.state is not None:
            return owner.state["race"]
        figures.retries += 1
        await asyncio.sleep(2.0)
    raise RuntimeError("the server made no race in 30 tries")


def _check(number: int, racers: list[Racer], finals: list[dict], figures: Figures) -> None:
    """Every racer's final score is the moves confirmed to it, as everyone sees it, and
    everyone saw each of those moves."""
    confirmed = {r.name: r.scored for r in racers}
    for racer, final in zip(racers, finals, strict=True):
        shown = {p["name"]: p["score"] for p in final["players"]}
        if shown != confirmed:
            figures.fault(f"race {number}: {racer.name} sees {shown}, confirmed {confirmed}")
        for other, score in confirmed.items():
            if other != racer.name and racer.seen.get(other, 0) != score:
                figures.unseen += score - racer.seen.get(other, 0)


def _judged(urls: list[str]) -> int:
    """Moves the web processes' replay lanes judged so far (their ``/readyz``)."""
    total = 0
    for url in urls:
        with urllib.request.urlopen(f"{url}/readyz", timeout=5) as reply:
            total += json.load(reply)["lanes"]["replay"]["completed"]
    return total


def cpu_seconds(pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds (user + system) so far of each named process and every process below
    it; a web process's (``web...``) split into its loop (gunicorn's arbiter and its
    gevent worker) and its solver processes (below the worker)."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
            times[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    found: dict[str, float] = {}
    for name, top in pids.items():
        todo = [(top, 0)]
        while todo:
            pid, depth = todo.pop()
            part = name
            if name.startswith("web"):
                part = "web loops" if depth <= 1 else "web solver processes"
            found[part] = found.get(part, 0.0) + times.get(pid, 0.0)
            todo.extend((child, depth + 1) for child in children.get(pid, []))
    return found


def cpu_pressure() -> float | None:
    """Seconds so far in which some runnable task of this machine waited for a CPU
    (Linux's pressure stall information; None where the kernel keeps none)."""
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()
    except OSError:
        return None
    return int(some[-1].split("=")[1]) / 1e6


def _spent(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {part: round(after[part] - before.get(part, 0.0), 1) for part in after}


async def run_races(
    urls: list[str],
    races: int = 100,
    racers: int = 5,
    think: tuple[float, float] = (0.5, 1.5),
    ramp: float = 5.0,
    pids: dict[str, int] | None = None,
    first_address: str = "127.0.9.1",
    idle_seconds: float = IDLE_SECONDS,
) -> dict:
    """``races`` races of ``racers`` racers over the web processes at ``urls`` (CPU
    sampled below ``pids``); the report of :func:`summary`."""
    figures = Figures()
    sessions = [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0), limit=0))
        for source in loopback_addresses(races * racers, first_address)
    ]
    options = {
        "races": races,
        "racers": racers,
        "think": think,
        "ramp": ramp,
        "made": [],
        "all_made": asyncio.Event(),
    }
    judged_before = _judged(urls)
    idle_from = cpu_seconds(pids or {})
    await asyncio.sleep(idle_seconds)  # the cluster's own CPU with nobody on it
    cpu_before = cpu_seconds(pids or {})
    idle = sum(_spent(cpu_before, idle_from).values()) / idle_seconds
    tool_before = os.times()
    pressure_before = cpu_pressure()
    started = time.monotonic()
    try:
        with ProcessPoolExecutor(1) as pool:
            lines = Lines(pool)
            await asyncio.gather(
                *(one_race(n, urls, sessions, figures, lines, options) for n in range(races))
            )
    finally:
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
    seconds = time.monotonic() - started
    parts = _spent(cpu_seconds(pids or {}), cpu_before)
    cpu = sum(parts.values())
    tool = os.times()
    pressure = cpu_pressure()
    tool_cpu = sum(tool[:4]) - sum(tool_before[:4])  # this process and its search pool
    await asyncio.sleep(1.0)  # a last late judgement's count
    report = summary(
        figures, races, racers, seconds, cpu if pids else None, _judged(urls) - judged_before
    )
    report["load_tool_cpu_seconds"] = round(tool_cpu, 1)
    if pressure is not None and pressure_before is not None:
        report["cpu_pressure"] = round((pressure - pressure_before) / seconds, 2)
    if pids:
        report["cpu_parts"] = parts
        report["idle_cpu_per_s"] = round(idle, 3)
        report["busy_cpu_per_race"] = round((cpu - idle * seconds) / races, 3)
    return report


def summary(
    figures: Figures, races: int, racers: int, seconds: float, cpu: float | None, judged: int
) -> dict:
    def ms(q: float) -> float | None:
        value = percentile(figures.latency, q)
        return None if value is None else round(value * 1000, 1)

    refused = sum(figures.errors.values())
    if not figures.scored <= judged <= figures.scored + refused + figures.late:
        figures.fault(f"judged {judged} moves, scored {figures.scored}, refused {refused}")
    return {
        "races": races,
        "racers": racers,
        "races_run": figures.races_run,
        "seconds": round(seconds, 1),
        "moves": figures.moves,
        "scored": figures.scored,
        "judged": judged,
        "seen": len(figures.latency),
        "p50_ms": ms(50),
        "p95_ms": ms(95),
        "p99_ms": ms(99),
        "max_ms": ms(100),
        "making_p95_ms": round(1000 * (percentile(figures.making, 95) or 0), 1),
        "own_ms": {
            game: {
                "count": len(values),
                "p50": round(1000 * (percentile(values, 50) or 0), 1),
                "p95": round(1000 * (percentile(values, 95) or 0), 1),
            }
            for game, values in sorted(figures.judged_in.items())
        },
        "cpu_seconds": None if cpu is None else round(cpu, 1),
        "cpu_per_race": None if cpu is None else round(cpu / races, 3),
        "unanswered": figures.unanswered,
        "unseen": figures.unseen,
        "late": figures.late,
        "stale": figures.stale,
        "retries": figures.retries,
        "errors": dict(figures.errors),
        "faults": figures.faults,
    }


def print_races(report: dict) -> None:
    print(
        f"{report['races_run']}/{report['races']} races of {report['racers']} racers in "
        f"{report['seconds']} s: {report['moves']} moves sent, {report['scored']} scored, "
        f"{report['judged']} judged by the server"
    )
    print(
        f"  a move to every other racer seeing it (n={report['seen']}): p50 {report['p50_ms']} "
        f"ms, p95 {report['p95_ms']} ms, p99 {report['p99_ms']} ms, max {report['max_ms']} ms"
    )
    print(f"  making a race (race_join new to its state): p95 {report['making_p95_ms']} ms")
    print(
        "  a move to its racer's own state, by game: "
        + ", ".join(f"{g} p50 {v['p50']} ms p95 {v['p95']} ms" for g, v in report["own_ms"].items())
    )
    if report["cpu_seconds"] is not None:
        print(
            f"  CPU of the web processes, workers and Redis: {report['cpu_seconds']} s, "
            f"{report['cpu_per_race']} s per race; above its idle "
            f"{report.get('idle_cpu_per_s')} CPU s per s: {report.get('busy_cpu_per_race')} s per race"
        )
        print(f"  CPU seconds by part: {report.get('cpu_parts')}")
    print(
        f"  CPU seconds of the load tool itself: {report['load_tool_cpu_seconds']}; share of "
        f"the time some task waited for a CPU: {report.get('cpu_pressure')}"
    )
    print(
        f"  unanswered {report['unanswered']}  unseen {report['unseen']}  late {report['late']}  "
        f"stale states dropped {report['stale']}  races asked again {report['retries']}  "
        f"errors {report['errors'] or 0}"
    )
    for fault in report["faults"]:
        print(f"  fault: {fault}")


def lost(report: dict) -> int:
    """Everything that counts as lost or wrong (0 for a clean run)."""
    return (
        report["unanswered"]
        + report["unseen"]
        + len(report["faults"])
        + (report["races"] - report["races_run"])
    )


def cluster_pids(cluster: Cluster) -> dict[str, int]:
    """The web processes, the RQ worker pool and Redis of ``cluster``, by name."""
    programs = [f"web:web{i}" for i in range(cluster.web)] + ["workers", "redis"]
    return {name.split(":")[-1]: cluster.pid(name) for name in programs if cluster.pid(name)}


def run_race_scenario(args) -> int:
    """``python -m loadtest --races N``: on ``--url`` web processes, else a fresh cluster."""
    think = (args.think * 0.5, args.think * 1.5)

    def race(urls: list[str], pids: dict[str, int]) -> dict:
        return asyncio.run(run_races(urls, args.races, args.racers, think, pids=pids))

    if args.url:
        report = race(args.url, {f"web{i}": pid for i, pid in enumerate(args.pid)})
    else:
        print("starting the cluster (make cluster) and warming it...", flush=True)
        folder = Path(tempfile.mkdtemp(prefix="arcade-races-"))
        env = {**RACE_ENV, "ARCADE_LOG_LEVEL": "WARNING"}
        if args.race_seconds:
            env["ARCADE_RACE_SECONDS"] = str(args.race_seconds)
        cluster = Cluster(folder / "cluster.log", env)
        try:
            cluster.wait_ready(180)
            report = race(cluster.web_urls, cluster_pids(cluster))
        finally:
            with contextlib.suppress(AssertionError):
                cluster.stop()
    print_races(report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 1 if lost(report) else 0
