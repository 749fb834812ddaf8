"""A process of its own polling ``/healthz``: the largest gap between two answers.

``python -m loadtest.probe URL [--source ADDRESS] [--every 0.05]`` asks ``URL/healthz``
every ``--every`` seconds over one keep-alive connection from ``ADDRESS`` (another
loopback address than the load's), prints ``ready`` once the first answer came, and
when its standard input closes (or a line arrives) prints its figures as one JSON line:
``answers``, ``failed``, ``max_gap_ms`` (the longest time between two answers, the
figure a stalled event loop shows), ``p50_gap_ms`` and ``max_latency_ms``. Standard
library only, so it starts in a moment; a process, not a thread of the load tool, so
the load tool's own work never shows as the server's gap. It runs at a raised
priority where allowed, as the timed tests' server does (tests/helpers/gevent_server.py).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import sys
import threading
import time
from urllib.parse import urlsplit

#: the probe's scheduling priority where it may raise it: a busy two-core machine must
#: not make the probe itself the one waiting
PROBE_NICE = -10


def _poll(url: str, source: str | None, every: float, stop: threading.Event, found: dict):
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    connection: http.client.HTTPConnection | None = None
    last = None
    while not stop.is_set():
        began = time.perf_counter()
        try:
            if connection is None:
                connection = http.client.HTTPConnection(
                    host, port, timeout=10, source_address=(source, 0) if source else None
                )
            connection.request("GET", "/healthz")
            reply = connection.getresponse()
            reply.read()
            ok = reply.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
            with contextlib.suppress(Exception):
                connection.close()  # type: ignore[union-attr]
            connection = None
        now = time.perf_counter()
        if ok:
            found["answers"] += 1
            found["latencies"].append(now - began)
            if last is not None:
                found["gaps"].append(now - last)
            last = now
            found["ready"].set()
        else:
            found["failed"] += 1
        rest = every - (time.perf_counter() - began)
        if rest > 0:
            stop.wait(rest)


def summary(found: dict) -> dict:
    gaps, latencies = sorted(found["gaps"]), found["latencies"]
    return {
        "answers": found["answers"],
        "failed": found["failed"],
        "max_gap_ms": round(1000 * gaps[-1], 1) if gaps else None,
        "p50_gap_ms": round(1000 * gaps[len(gaps) // 2], 1) if gaps else None,
        "max_latency_ms": round(1000 * max(latencies), 1) if latencies else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest.probe")
    parser.add_argument("url")
    parser.add_argument("--source", help="the local address to ask from")
    parser.add_argument("--every", type=float, default=0.05, help="seconds between asks")
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):  # not allowed: the default priority
        os.setpriority(os.PRIO_PROCESS, 0, PROBE_NICE)
    found: dict = {
        "answers": 0,
        "failed": 0,
        "gaps": [],
        "latencies": [],
        "ready": threading.Event(),
    }
    stop = threading.Event()
    poller = threading.Thread(
        target=_poll, args=(args.url, args.source, args.every, stop, found), daemon=True
    )
    poller.start()
    if not found["ready"].wait(30):
        print(json.dumps({"error": "no answer from /healthz in 30 s"}), flush=True)
        return 1
    print("ready", flush=True)
    sys.stdin.readline()  # a line, or the end of the input: stop
    stop.set()
    poller.join(15)
    print(json.dumps(summary(found)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
