"""The serving bench (``make serving``): the arcade's quick answers against a bare Flask-SocketIO app.

One run, the same client for every row: ``clients`` Socket.IO players (websocket,
from 20 loopback addresses) with no think time ask ``analyse`` for 8-puzzle positions
for ``duration`` seconds, each player waiting for its answer before the next request:

* against the bare app (:mod:`loadtest.bare`: a fixed payload, no work, under the
  arcade's gunicorn gevent worker), the yardstick of each row;
* against a fresh production server (``python -m webapp``), for 2,000 random
  positions and for 200 popular ones (the same positions asked again and again, as a
  daily's are), each player carrying the cookie of a daily's play page it opened first;
* against a fresh ``make cluster`` through its proxy, both position sets again.

Each arcade row is measured right after its own bare row (so each ratio is between
two programs measured one after the other), every answer is checked against the
distance this process proved beforehand, and the load average is printed with each
row. The arcade's rate limit is raised out of the way for the bench (players with no
think time are a flood to it), but its check still runs for every event.

``--profile DIR`` also samples the single server's web process with py-spy while its
rows run (``DIR/<n>-random/serving.folded``, folded stacks, and a table of what each stage of
an answer costs, :func:`stage_table`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from harness.cluster import Cluster
from harness.loopback import free_port
from harness.server import start_server

from .analyses import positions, run_analyses
from .races import cluster_pids, cpu_seconds

#: the arcade's rate limit, out of the way of players with no think time (still checked)
BENCH_ENV = {"ARCADE_RATE_LIMIT": "1000000", "ARCADE_RATE_BURST": "1000000"}
#: the daily's play page each arcade player opens first (its cookie: a ranked attempt)
DAILY_PAGE = "/play/npuzzle?daily=1"
WARM_SECONDS = 3.0


def position_sets(random_count: int = 2000, popular_count: int = 200) -> dict[str, dict]:
    """``random`` and ``popular`` 8-puzzle positions with their proven distances, disjoint;
    and a few ``warm`` ones (warming each server's code, never the measured positions)."""
    chosen = positions(random_count + popular_count + 50, seed=7)
    boards = list(chosen.items())
    return {
        "random": dict(boards[:random_count]),
        "popular": dict(boards[random_count : random_count + popular_count]),
        "warm": dict(boards[random_count + popular_count :]),
    }


def start_bare(ready_timeout: float = 60.0):
    """``python -m loadtest.bare`` on a free port; (process, url) once it answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "loadtest.bare", "--port", str(port)], stdin=subprocess.DEVNULL
    )
    deadline = time.monotonic() + ready_timeout
    while True:
        try:
            urllib.request.urlopen(f"{url}/healthz", timeout=1).close()
            return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the bare app did not start") from None
            time.sleep(0.2)


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _readyz(url: str) -> dict:
    try:
        with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
            return json.load(response)
    except OSError:
        return {}


def measure(
    url: str,
    boards: dict,
    clients: int,
    duration: float,
    arcade: bool,
    pids: dict | None = None,
    page: str | None = DAILY_PAGE,
) -> dict:
    """One row: ``clients`` players with no think time on ``url`` for ``duration`` s; with
    ``pids`` (name -> a web process's gunicorn arbiter, or others) the CPU time each
    spent per answer (the web processes' loops apart from their solver processes)."""
    load_before = _load()
    cpu_before = cpu_seconds(pids) if pids else {}
    row = asyncio.run(
        run_analyses(
            url,
            clients=clients,
            duration=duration,
            think=(0.0, 0.0),
            timeout=10.0,
            boards=boards,
            stagger=0.5,
            verify=arcade,
            page=page if arcade else None,
        )
    )
    row["load"] = (load_before, _load())
    if pids:
        used = cpu_seconds(pids)
        row["cpu_us_per_answer"] = {
            name: round(1e6 * (used[name] - cpu_before.get(name, 0.0)) / max(row["answers"], 1))
            for name in used
        }
    return row


def warm(url: str, boards: dict, arcade: bool) -> None:
    asyncio.run(
        run_analyses(
            url,
            clients=4,
            duration=WARM_SECONDS,
            think=(0.0, 0.0),
            boards=boards,
            stagger=0.2,
            verify=arcade,
        )
    )


def _round(bare, targets, boards, clients, duration, name, warm_boards, page) -> dict:
    """The bare app's row (``bare``: its url and pid), then each arcade's on the same
    positions, right after it: ``targets`` are (label, url, pids, spy), ``spy`` (pid,
    folder) to sample that web process."""
    bare_url, bare_pid = bare
    warm(bare_url, warm_boards, arcade=False)
    bare = measure(bare_url, boards, clients, duration, arcade=False, pids={"web": bare_pid})
    row: dict = {"name": name, "bare": bare, "arcades": []}
    print_side("bare Flask-SocketIO app", bare)
    for label, url, pids, spy in targets:
        warm(url, warm_boards, arcade=True)
        sampling = _start_spy(spy[0], spy[1], duration) if spy else None
        found = measure(url, boards, clients, duration, arcade=True, pids=pids, page=page)
        found["ratio"] = round(found["per_second"] / max(bare["per_second"], 1e-9), 2)
        found["label"] = label
        if sampling is not None:
            found["profile"] = _finish_spy(sampling, spy[1], found)
        row["arcades"].append(found)
        print_side(label, found)
    return row


def web_worker_pid(arbiter: int) -> int:
    """gunicorn's worker: the arbiter's child that is not a solver process (it has children)."""
    children = subprocess.run(
        ["pgrep", "-P", str(arbiter)], capture_output=True, text=True, check=False
    ).stdout.split()
    return int(children[0]) if children else arbiter


def run_serving(
    clients: int = 20,
    duration: float = 20.0,
    cluster: bool = True,
    profile: str | None = None,
    sets: dict[str, dict] | None = None,
    other: str | None = None,
    page: str | None = DAILY_PAGE,
) -> dict:
    """Every row of the table (see the module's docstring); ``other``: a checkout whose
    server is measured too, in each round right before this one's (before and after);
    ``page`` None: the players open no page first (no cookie, so no ranked attempt)."""
    sets = sets or position_sets()
    report: dict = {"clients": clients, "duration": duration, "rounds": []}
    data = Path(tempfile.mkdtemp(prefix="arcade-serving-"))
    bare, bare_url = start_bare()
    servers: list[subprocess.Popen] = []
    try:
        print("starting the server(s) and warming their workers...", flush=True)
        targets = []
        for label, cwd in ((f"the arcade at {other}", other), ("the arcade", None)):
            if label != "the arcade" and not other:
                continue
            env = {**BENCH_ENV, "ARCADE_DATA_DIR": str(data / f"one{len(servers)}")}
            server, url = start_server(env, cwd=cwd)
            servers.append(server)
            spy = (
                (web_worker_pid(server.pid), str(Path(profile) / f"{len(servers)}"))
                if profile
                else None
            )
            targets.append((label, url, {"web": server.pid}, spy))
        for name in ("random", "popular"):
            print(f"{name} positions:", flush=True)
            chosen = [(*t[:3], (t[3][0], f"{t[3][1]}-{name}") if t[3] else None) for t in targets]
            row = _round(
                (bare_url, bare.pid),
                chosen,
                sets[name],
                clients,
                duration,
                name,
                sets["warm"],
                page,
            )
            report["rounds"].append(row)
        report["readyz"] = [_readyz(target[1]) for target in targets]
        for server in servers:
            server.terminate()
            server.wait(30)
        servers = []
        if cluster:
            print("starting the cluster (make cluster) and warming it...", flush=True)
            started = Cluster(data / "cluster.log", {**BENCH_ENV, "ARCADE_LOG_LEVEL": "WARNING"})
            try:
                started.wait_ready(180)
                for name in ("random", "popular"):
                    print(f"cluster, {name} positions:", flush=True)
                    pids = {k: v for k, v in cluster_pids(started).items() if k != "redis"}
                    pids["redis"] = started.pid("redis")
                    targets = [("the cluster", started.url, pids, None)]
                    row = _round(
                        (bare_url, bare.pid),
                        targets,
                        sets[name],
                        clients,
                        duration,
                        f"cluster {name}",
                        sets["warm"],
                        page,
                    )
                    report["rounds"].append(row)
                report["cluster_readyz"] = [_readyz(u) for u in started.web_urls]
            finally:
                started.stop()
    finally:
        for server in servers:
            server.terminate()
            server.wait(30)
        bare.terminate()
        bare.wait(30)
        shutil.rmtree(data, ignore_errors=True)
    return report


# -- the profile ----------------------------------------------------------------------

#: a sampled stack's stage: the first of these whose pattern is in one of its frames,
#: read from the innermost frame out (so a stage's own callees count as that stage only
#: when no inner stage claims them)
STAGES = [
    (
        "the pipe to the solver process and back",
        ("multiprocessing/connection", "pickle", "jobs/pipe.py"),
    ),
    ("the encode (JSON, Socket.IO and Engine.IO packets)", ("encode (", "dumps (")),
    ("the Socket.IO decode (JSON and packets)", ("decode (", "loads (")),
    ("the help record", ("webapp/players/helps.py", "players/attempts.py")),
    ("fair shares", ("webapp/jobs/fairness.py",)),
    ("the analysis cache", ("webapp/jobs/recent.py",)),
    ("the job core and the lanes", ("webapp/jobs/",)),
    ("the guard (frames, rate limit)", ("webapp/guard/",)),
    ("the handlers and the payload checks", ("webapp/live/", "webapp/puzzle_request.py")),
    ("the websocket (frames in and out)", ("simple_websocket", "wsproto", "_websocket")),
    ("Socket.IO and Engine.IO (the rest)", ("socketio/", "engineio/", "flask_socketio/")),
    ("gevent's hub (switching, sockets)", ("gevent/",)),
]
IDLE = ("the hub waiting (idle)", ("wait (gevent/_gevent_c_hub_loop", "run (gevent/hub.py"))


def _start_spy(pid: int, folder: str, duration: float):
    Path(folder).mkdir(parents=True, exist_ok=True)
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    seconds = max(1, int(duration - 2))
    common = [spy, "record", "--pid", str(pid), "--rate", "200", "--duration", str(seconds)]
    common += ["--nonblocking", "--idle"]
    raw = subprocess.Popen(
        [*common, "--format", "raw", "-o", str(Path(folder) / "serving.folded")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return raw, seconds


def _finish_spy(spy, folder: str, row: dict) -> dict | None:
    process, seconds = spy
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(seconds + 30)
    folded = Path(folder) / "serving.folded"
    if not folded.exists():
        return None
    # the answers in the profiled window, at the row's steady rate
    answers = row["per_second"] * seconds
    cpu = row.get("cpu_us_per_answer", {}).get("web loops")
    return stage_table(folded.read_text(), 200, answers, cpu)


def stage_table(folded: str, rate: float, answers: float, cpu_us: float | None = None) -> dict:
    """Microseconds of the web process's one thread per answer, by stage, from py-spy's
    folded stacks (``rate`` samples a second over the window of ``answers`` answers).

    py-spy samples the wall clock: on a busy machine a thread waiting for a core is
    sampled where it waits, so the shares are what carries meaning; with ``cpu_us``
    (the CPU time the process spent per answer, measured apart) each busy stage's share
    of the busy samples is also given as CPU microseconds (``cpu_us_per_answer``)."""
    counts: collections.Counter = collections.Counter()
    total = 0
    for line in folded.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        samples = int(count)
        total += samples
        frames = stack.split(";")
        counts[_stage(frames)] += samples
    per = 1e6 / rate / max(answers, 1)
    busy = total - counts[IDLE[0]]
    shares = {
        name: round(count / max(busy, 1), 3)
        for name, count in counts.most_common()
        if name != IDLE[0]
    }
    table: dict = {
        "samples": total,
        "answers": round(answers),
        "us_per_answer": {name: round(count * per, 1) for name, count in counts.most_common()},
        "share_of_busy": shares,
    }
    if cpu_us is not None:
        table["cpu_us"] = cpu_us
        table["cpu_us_per_answer"] = {
            name: round(share * cpu_us, 1) for name, share in shares.items()
        }
    return table


#: frames that stand for their caller: a socket's system call is the pipe's or the
#: websocket's, whichever made it
TRANSPARENT = ("gevent/_socketcommon", "gevent/_socket3", "lib/python3.11/socket.py")


def _stage(frames: list[str]) -> str:
    if any(pattern in frames[-1] for pattern in IDLE[1]) or "epoll" in frames[-1]:
        return IDLE[0]
    for frame in reversed(frames):
        if any(pattern in frame for pattern in TRANSPARENT):
            continue
        for name, patterns in STAGES:
            if any(pattern in frame for pattern in patterns):
                return name
    return "other (Flask's context, the interpreter)"


# -- the printout ---------------------------------------------------------------------


def _cell(row: dict) -> str:
    cpu = row.get("cpu_us_per_answer") or {}
    spent = ", ".join(f"{name} {micros} us" for name, micros in cpu.items())
    return (
        f"{row['per_second']:,.0f}/s, p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms "
        f"(load {row['load'][0]}-{row['load'][1]}; CPU per answer: {spent or '-'})"
    )


def print_side(label: str, row: dict) -> None:
    ratio = f": {row['ratio']}x" if "ratio" in row else ""
    bad = f" | lost {row['lost']} wrong {row['wrong']} errors {row['errors'] or 0}"
    print(f"  {label:<40} {_cell(row)}{ratio}{bad}", flush=True)


def print_serving(report: dict) -> None:
    print(
        f"\n{report['clients']} players with no think time, {report['duration']:g} s a row "
        "(each arcade row right after its own bare row):"
    )
    print("| | answers/s | p95 | ratio | load | CPU us/answer (web loops, solver processes) |")
    print("|---|---|---|---|---|---|")
    for row in report["rounds"]:
        sides = [("bare Flask-SocketIO app", row["bare"])]
        sides += [(f"{side['label']}, {row['name']} positions", side) for side in row["arcades"]]
        for label, side in sides:
            ratio = side.get("ratio", 1)
            load = f"{side['load'][0]}-{side['load'][1]}"
            cpu = side.get("cpu_us_per_answer") or {}
            spent = f"{cpu.get('web loops', '-')}, {cpu.get('web solver processes', '-')}"
            print(
                f"| {label} | {side['per_second']:,.0f} | {side['p95_ms']} ms | {ratio}x | {load} "
                f"| {spent} |"
            )
    for row in report["rounds"]:
        for side in row["arcades"]:
            profile = side.get("profile")
            if not profile:
                continue
            print(
                f"\n{side['label']}: the web process's thread per answer, by stage "
                f"({profile['samples']} samples, {profile['answers']} answers):"
            )
            cpu = profile.get("cpu_us_per_answer", {})
            for name, micros in profile["us_per_answer"].items():
                share = profile["share_of_busy"].get(name)
                busy = f"{100 * share:5.1f} % of busy" if share is not None else " " * 14
                spent = f", {cpu[name]:7.1f} us CPU" if name in cpu else ""
                print(f"  {micros:8.1f} us sampled {busy}{spent}  {name}")
