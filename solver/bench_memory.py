"""``python -m solver bench --memory``: the warm production server's proportional memory.

Starts ``python -m webapp`` (gunicorn and its solver worker processes; each
worker warms every game's tables before it reports ready) on a free loopback
port, waits until every pool is ready, asks each game for work over Socket.IO
(a 15-puzzle solve, a 5x5 analysis, Klotski analyses on a 4x5 and a 6x6 level,
water sort, jugs), then sums the proportional set size (PSS: a page shared by
k processes counts 1/k in each) of the server and all its workers from
``/proc/PID/smaps_rollup``. Tables are mapped from their files, so a table
read by every worker is paid for once; the ratio printed is PSS over the sum
of resident sizes (what the processes would hold if nothing were shared).
The target is 1,000 MB with the 15-puzzle's 6-6-3 databases and 1,500 MB once
the 7-8 ones or the 24-puzzle's 6-6-6-6 ones are built; a few solves touch only
part of those tables, so the bench also prints the sum with every page of them
resident (the worst case a
long-running server reaches), and holds that to the target.

Only the standard library talks to the server (Engine.IO long-polling by
hand), so the bench needs nothing beyond ``make run``'s install; it imports no
web code either (the solver never imports the web app).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

#: (event, payload) a player might send: each game's tables get read
REQUESTS = [
    (
        "solve",
        {"game": "npuzzle", "board": "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"},  # Korf #1: 57
    ),
    (
        "analyse",
        {
            "game": "npuzzle",
            "board": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 0 23 24",
        },
    ),
    ("analyse", {"game": "klotski", "board": "BAAC/BAAC/DEEF/DGHF/I..J"}),
    ("analyse", {"game": "klotski", "board": "CFFBMG/CNDBEG/C.DHEG/IAAHJL/IAAHJL/IKKOJ."}),
    ("analyse", {"game": "watersort", "board": "ABAB,BABA,,"}),
    ("analyse", {"game": "jugs", "board": "0/3,0/5,8/8", "goal": "0,4,4"}),
]
#: the most the warm server may hold, by the 15-puzzle database set it uses
TARGET_MB = {"6-6-3": 1000, "7-8": 1500}


class Polling:
    """A Socket.IO client over Engine.IO v4 long-polling, standard library only."""

    def __init__(self, base: str):
        self.base = base
        handshake = self._get(f"{base}/socket.io/?EIO=4&transport=polling")
        self.sid = json.loads(handshake[1:])["sid"]
        self.url = f"{base}/socket.io/?EIO=4&transport=polling&sid={self.sid}"
        self._post("40")
        self.pending: list[str] = []

    def _get(self, url: str) -> str:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.read().decode()

    def _post(self, body: str) -> None:
        request = urllib.request.Request(self.url, data=body.encode(), method="POST")
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()

    def emit(self, event: str, payload: dict) -> None:
        self._post("42" + json.dumps([event, payload]))

    def events(self):
        """Events as (name, payload), answering the server's pings."""
        while True:
            for packet in self._get(self.url).split("\x1e"):
                if packet == "2":
                    self._post("3")
                elif packet.startswith("42"):
                    name, payload = json.loads(packet[2:])[:2]
                    yield name, payload


def ask(client: Polling, event: str, payload: dict, seconds: float = 120.0) -> str:
    """Send one request and wait for its final answer; returns what ended it."""
    client.emit(event, payload)
    deadline = time.monotonic() + seconds
    for name, answer in client.events():
        if name in ("solution", "unsolvable", "error"):
            return name
        if name == "analysis" and answer.get("final", True):
            return name
        if time.monotonic() > deadline:
            return "timed out"
    return "closed"


def process_tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo += children.get(pid, [])
    return tree


def memory_of(pid: int) -> dict[str, int]:
    """Rss and Pss of one process in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        parts = line.split()
        if parts and parts[0] in ("Rss:", "Pss:"):
            found[parts[0][:-1]] = int(parts[1])
    return found


def mapped_pss(pid: int, fragment: str) -> int:
    """Pss in KiB of the mappings of one process whose file name contains ``fragment``."""
    total, inside = 0, False
    try:
        lines = Path(f"/proc/{pid}/smaps").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        parts = line.split()
        if parts and "-" in parts[0] and len(parts) >= 5:  # a mapping's header line
            inside = len(parts) >= 6 and fragment in parts[-1]
        elif inside and parts and parts[0] == "Pss:":
            total += int(parts[1])
    return total


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(base: str, server: subprocess.Popen, seconds: float) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=5) as answer:
                health = json.loads(answer.read())
            lanes = health.get("lanes", {}).values()
            if lanes and all(p["ready"] == p["size"] for p in lanes):
                return health
        except OSError:
            pass
        time.sleep(1)
    raise RuntimeError(f"the server was not ready within {seconds:g} s")


def bench_memory(args) -> int:
    """Print the warm server's memory; exit 1 when it is over the target."""
    if not Path("/proc/self/smaps_rollup").exists():
        print("memory: /proc/PID/smaps_rollup is not available here; no figure")
        return 0
    from .npuzzle import anytime, pdb  # which N-puzzle databases the server will use

    databases = pdb.chosen().name
    packed_file = pdb.PACKED_STORE.path(pdb.PACKED_NAME)
    six = anytime.six_ready()
    six_file = anytime.SIX_STORE.path(anytime.SIX_NAME)
    # the big tables' target holds once either big set is built
    target = TARGET_MB["7-8"] if six else TARGET_MB[databases]
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bench-server-") as folder:
        env = dict(
            os.environ, ARCADE_DATABASE_URL=f"sqlite:///{folder}/arcade.db", PYTHONUNBUFFERED="1"
        )
        started = time.perf_counter()
        server = subprocess.Popen(
            [sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_ready(base, server, 900)
            ready = time.perf_counter() - started
            client = Polling(base)
            answers = [ask(client, event, payload) for event, payload in REQUESTS]
            tree = process_tree(server.pid)
            rows = [(pid, memory_of(pid)) for pid in tree]
            touched = sum(mapped_pss(pid, packed_file.name) for pid in tree) / 1024
            six_touched = sum(mapped_pss(pid, six_file.name) for pid in tree) / 1024
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    pss = sum(m["Pss"] for _pid, m in rows) / 1024
    rss = sum(m["Rss"] for _pid, m in rows) / 1024
    worst = pss
    if databases == "7-8":
        worst = worst - touched + packed_file.stat().st_size / 2**20
    if six:
        worst = worst - six_touched + six_file.stat().st_size / 2**20
    print(
        f"warm production server with the 15-puzzle's {databases} databases (ready in "
        f"{ready:.1f} s; answers: {', '.join(answers)}): {len(rows)} processes, proportional "
        f"memory (PSS) {pss:,.0f} MB in all (target under {target:,} MB), resident sizes "
        f"summed {rss:,.0f} MB: PSS is {pss / max(rss, 1e-9):.2f}x that (tables mapped once "
        f"for all workers)"
    )
    if databases == "7-8" or six:
        print(
            f"  of which the 15-puzzle's 7-8 tables' pages touched so far: {touched:,.0f} MB, "
            f"the 24-puzzle's 6-6-6-6 ones' {six_touched:,.0f} MB"
            + ("" if six else " (6-6-6-6 not built)")
            + f"; with every page of them resident: {worst:,.0f} MB (target under {target:,} MB)"
        )
    for pid, m in rows:
        print(f"  pid {pid}: PSS {m['Pss'] / 1024:,.0f} MB, RSS {m['Rss'] / 1024:,.0f} MB")
    return 0 if worst < target else 1
