"""Reads at scale: the daily's leaderboard with many ranked players, and "players chose".

``python -m loadtest.leaderboard [--players 50000] [--database sqlite|postgresql]``
(``make leaderboard-bench`` runs both databases). It seeds a fresh database at the
schema before the read tables (revision 0002) in bulk: PLAYERS players, each with
one to three ranked results on today's 3x3 daily; then migrates it (the migration
fills the read tables from those rows: its time is reported) and starts the
production server (``python -m webapp``: gevent) on it. Reported:

- ``leaderboard``: p50/p95/max of ``GET /api/leaderboard/npuzzle`` over REQUESTS
  sequential requests, as a ranked player (so ``me``, ``beat`` and ``streak`` are
  computed too);
- ``healthz``: the worst ``/healthz`` latency while 16 clients read the leaderboard
  at once (the event loop must stay free);
- ``choices``: with ``--long-lines 120``, that many long unassisted lines of 4,000
  positions are seeded too; the first ``GET /api/choices`` and one after a new result,
  and the server's memory before and after.

PostgreSQL runs in a throwaway cluster on loopback (``scripts/ensure-postgres.sh``
installs the server). Targets: leaderboard p95 <= 100 ms, healthz < 100 ms.
"""

from __future__ import annotations

import argparse
import datetime as dt
import glob
import json
import multiprocessing
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
from sqlalchemy import insert, text

from harness.figures import percentile
from harness.loopback import free_port
from harness.server import start_server
from solver import catalogue
from solver.core.seeds import daily_seed
from solver.engine import solve_board
from webapp.players.challenges import daily_challenge
from webapp.players.identity import signer
from webapp.storage import Database
from webapp.storage.models import Player, Result

from .players import rss_mb

GAME = "npuzzle"
BEFORE_READ_TABLES = "0002"  # the schema whose rows the read tables are filled from
BATCH = 5000


def _daily(game: str, day: dt.date) -> dict:
    return catalogue.get(game).generate({}, daily_seed(game, day), True)


def _walk(board: str, steps: int, rng: random.Random) -> list[str]:
    """A random walk of ``steps`` moves from ``board``, then the shortest way home."""
    domain = catalogue.get(GAME).make_domain()
    state = domain.parse(board)
    line = [domain.format(state)]
    for _ in range(steps):
        _move, state = rng.choice(list(domain.legal_moves(state)))
        line.append(domain.format(state))
    return line + solve_board(GAME, line[-1])["states"][1:]


def seed(url: str, players: int, long_lines: int, day: dt.date) -> dict:
    """Players and their ranked results, bulk-inserted at the schema before the read tables."""
    db = Database(url)
    db.upgrade(BEFORE_READ_TABLES)
    puzzle = daily_challenge(catalogue.get(GAME), day, _daily)
    states = solve_board(GAME, puzzle.board)["states"]
    line, shortest = "\n".join(states), len(states) - 1
    rng = random.Random(7)
    now = dt.datetime.combine(day, dt.time(12))
    started = time.perf_counter()
    common = dict(
        game=GAME,
        puzzle=puzzle.key,
        board=puzzle.board,
        options=puzzle.options_json,
        day=day,
        shortest=shortest,
        created=now,
    )
    with db.writing() as session:
        for first in range(1, players + 1, BATCH):
            ids = range(first, min(first + BATCH, players + 1))
            session.execute(
                insert(Player),
                [
                    {"id": i, "token": f"bench{i:027d}", "name": f"P{i}", "created": now}
                    for i in ids
                ],
            )
            rows = []
            for i in ids:
                for attempt in range(rng.randint(1, 3)):
                    detours = min(int(rng.expovariate(1.0)), 5)
                    rows.append(
                        {
                            **common,
                            "player_id": i,
                            "length": shortest + 2 * detours,
                            "seconds": round(rng.uniform(15, 600), 2),
                            "assisted": False,
                            "ranked": True,
                            "line_hash": f"{attempt:064d}",
                            "line": line,
                        }
                    )
            session.execute(insert(Result), rows)
        walks = [_walk(puzzle.board, 4000, rng) for _ in range(long_lines)]
        if walks:
            session.execute(
                insert(Result),
                [
                    {
                        **common,
                        "player_id": 1 + n,
                        "length": len(walk) - 1,
                        "seconds": 999.0,
                        "assisted": False,
                        "ranked": False,
                        "line_hash": f"walk{n:060d}",
                        "line": "\n".join(walk),
                    }
                    for n, walk in enumerate(walks)
                ],
            )
        if db.dialect == "postgresql":  # new players get ids after the seeded ones
            session.execute(
                text("SELECT setval(pg_get_serial_sequence('players', 'id'), :last)"),
                {"last": players},
            )
    seeded = time.perf_counter() - started
    started = time.perf_counter()
    db.upgrade()
    migrated = time.perf_counter() - started
    db.close()
    return {"seed_s": round(seeded, 1), "migrate_s": round(migrated, 1), "puzzle": puzzle}


def _cookie(secret: str, player_id: int) -> dict:
    """The signed cookie of seeded player ``player_id``."""
    return {"arcade_player": signer(secret).dumps(f"bench{player_id:027d}")}


def _timed(session: requests.Session, url: str, **kwargs) -> float:
    started = time.perf_counter()
    reply = session.get(url, timeout=60, **kwargs)
    took = time.perf_counter() - started
    if reply.status_code != 200:
        raise RuntimeError(f"{url}: {reply.status_code} {reply.text[:200]}")
    return took


#: how long the sixteen readers read while ``/healthz`` is probed
READ_SECONDS = 10.0


def read_for(board_url: str, cookies: list[dict], seconds: float) -> tuple[int, list[str]]:
    """One reader thread per cookie reads ``board_url`` over and over for ``seconds``
    (in the readers' process); returns the reads made and the failures seen."""
    stop = threading.Event()
    reads = [0]
    failures: list[str] = []

    def reader(cookie: dict) -> None:
        session = requests.Session()
        session.cookies.update(cookie)
        while not stop.is_set():
            try:
                _timed(session, board_url)
            except (OSError, RuntimeError) as err:
                failures.append(f"leaderboard: {str(err)[:80]}")
            reads[0] += 1

    threads = [threading.Thread(target=reader, args=(cookie,)) for cookie in cookies]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return reads[0], failures


def measure(url: str, pid: int, secret: str, puzzle, requests_count: int, long_lines: int) -> dict:
    board_url = f"{url}/api/leaderboard/{GAME}"
    me = requests.Session()
    me.cookies.update(_cookie(secret, 2))
    first = me.get(board_url, timeout=120).json()
    assert first["players"] > 0 and first["me"]["rank"] is not None, first
    times = [_timed(me, board_url) for _ in range(requests_count)]

    def ms(q: float) -> float:
        return round(1000 * (percentile(times, q) or 0.0), 1)

    figures = {
        "players": first["players"],
        "leaderboard_ms": {
            "p50": ms(50),
            "p95": ms(95),
            "max": round(1000 * max(times), 1),
        },
    }
    # the readers run in a process of their own: sixteen threads sharing the prober's
    # GIL delayed its requests by tens of milliseconds the server never spent
    readers = multiprocessing.get_context("spawn").Pool(1)
    readers.apply(read_for, (board_url, [], 0.0))  # started and imported before the probe
    stop = threading.Event()
    gaps: list[float] = []
    failures: list[str] = []

    def prober() -> None:
        session = requests.Session()
        while not stop.is_set():
            started = time.perf_counter()
            try:
                _timed(session, f"{url}/healthz")
            except (OSError, RuntimeError) as err:
                failures.append(f"healthz: {str(err)[:80]}")
            gaps.append(time.perf_counter() - started)  # a failure counts with its time
            time.sleep(0.02)

    thread = threading.Thread(target=prober)
    thread.start()
    read = readers.apply_async(
        read_for, (board_url, [_cookie(secret, 10 + n) for n in range(16)], READ_SECONDS)
    )
    reads, failed = read.get(timeout=READ_SECONDS + 120)
    stop.set()
    thread.join()
    readers.close()
    readers.join()
    failures.extend(failed)
    figures["healthz_worst_ms"] = round(1000 * max(gaps), 1)
    # the worst is one sample of a few hundred; the spread says whether it is the rule
    figures["healthz_ms"] = {
        "p50": round(1000 * (percentile(gaps, 50) or 0.0), 1),
        "p95": round(1000 * (percentile(gaps, 95) or 0.0), 1),
        "samples": len(gaps),
    }
    figures["reads_in_10_s"] = reads
    figures["failed_requests"] = len(failures)
    if failures:
        figures["first_failure"] = failures[0]
    if long_lines:
        figures["choices"] = _choices(url, pid, puzzle)
    return figures


def _choices(url: str, pid: int, puzzle) -> dict:
    query = {"board": puzzle.board}
    session = requests.Session()
    before = rss_mb(pid)
    first = _timed(session, f"{url}/api/choices/{GAME}", params=query)
    after = rss_mb(pid)
    # a new unassisted result: the old code rebuilt its index on the next question
    states = solve_board(GAME, puzzle.board)["states"]
    body = {"game": GAME, "board": puzzle.board, "options": puzzle.options, "states": states}
    started = time.perf_counter()
    posted = session.post(f"{url}/api/results", json={**body, "seconds": 30}, timeout=60)
    post_s = time.perf_counter() - started
    assert posted.status_code in (200, 201), posted.text
    again = _timed(session, f"{url}/api/choices/{GAME}", params=query)
    return {
        "first_ms": round(1000 * first, 1),
        "after_a_result_ms": round(1000 * again, 1),
        "submit_ms": round(1000 * post_s, 1),
        "rss_growth_mb": round(after - before, 1),
    }


class _Postgres:
    """A throwaway PostgreSQL cluster on loopback (as ``postgres`` when run as root)."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="arcade-bench-pg-"))
        self.port = free_port()
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not found:
            raise RuntimeError("PostgreSQL is missing: run scripts/ensure-postgres.sh")
        self.bin = Path(found[-1])

    def _run(self, *argv: str) -> None:
        owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*owner, *argv], check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        data = str(self.folder / "data")
        self._run(str(self.bin / "initdb"), "-D", data, "-A", "trust", "-U", "postgres")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "log")
        self._run(str(self.bin / "pg_ctl"), "-D", data, "-w", "-l", log, "-o", options, "start")
        self._run(
            str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
            "bench",
        )  # fmt: skip
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/bench"

    def stop(self) -> None:
        data = str(self.folder / "data")
        subprocess.run(
            [
                *(["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []),
                str(self.bin / "pg_ctl"),
                "-D",
                data,
                "-m",
                "immediate",
                "stop",
            ],  # fmt: skip
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def run(database: str, players: int, requests_count: int, long_lines: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="arcade-bench-"))
    postgres = _Postgres() if database == "postgresql" else None
    url = postgres.start() if postgres else f"sqlite:///{folder / 'arcade.sqlite3'}"
    try:
        day = dt.datetime.now(dt.UTC).date()
        report = {"database": database, **seed(url, players, long_lines, day)}
        puzzle = report.pop("puzzle")
        secret = secrets.token_hex(32)  # the server signs with it, the readers' cookies too
        env = {
            "ARCADE_SECRET_KEY": secret,
            "ARCADE_DATABASE_URL": url,
            "ARCADE_DATA_DIR": str(folder),
            "ARCADE_WRITES_PER_ADDRESS": "0",
            "ARCADE_WRITES_PER_PLAYER": "0",
        }
        process, server = start_server(env)
        try:
            report.update(measure(server, process.pid, secret, puzzle, requests_count, long_lines))
        finally:
            process.terminate()
            process.wait(30)
        return report
    finally:
        if postgres:
            postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest.leaderboard", description=__doc__)
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--long-lines", type=int, default=120)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args(argv)
    kinds = ("sqlite", "postgresql") if args.database == "both" else (args.database,)
    for kind in kinds:
        print(json.dumps(run(kind, args.players, args.requests, args.long_lines)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
