"""The load tool's single-purpose scenarios: capacity (idle players) and lookups (analyses).

``python -m loadtest --capacity 3000 [--addresses 60]`` holds idle players on a
server (a fresh one, or ``--url``) and times a canary; ``python -m loadtest
--analyses [--clients 200] [--duration 60]`` runs the lookup scenario, and with
``--compare`` runs it against a fresh single server and then a fresh ``make
cluster`` (through its proxy, one address), and prints them side by side with
the cluster's ratios (the serving table in docs/performance.rst).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from harness.cluster import Cluster
from harness.loopback import raise_open_files
from harness.server import start_server

from .analyses import positions, print_analyses, run_analyses
from .capacity import print_capacity, run_capacity


def _one_server(scenario, url=None):
    """``scenario(url, pid)`` on ``url``, or on a fresh server started for it."""
    if url:
        return scenario(url, 0)
    print("starting the server and warming its workers...", flush=True)
    process, url = start_server()
    try:
        return scenario(url, process.pid)
    finally:
        process.terminate()
        process.wait(30)


def _on_cluster(scenario):
    """``scenario(url, 0)`` on a fresh cluster (``make cluster``), through its proxy."""
    print("starting the cluster (make cluster) and warming it...", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="arcade-cluster-"))
    cluster = Cluster(folder / "cluster.log", {"ARCADE_LOG_LEVEL": "WARNING"})
    try:
        cluster.wait_ready(180)
        return scenario(cluster.url, 0)
    finally:
        cluster.stop()


def run_scenario(args) -> int:
    raise_open_files()
    url = args.url[0] if args.url else None
    report: dict = {}
    if args.capacity:

        def capacity(url, pid):
            return asyncio.run(run_capacity(url, args.capacity, args.addresses, server_pid=pid))

        report = _one_server(capacity, url)
        print_capacity(report)
        bad = report["failed"] + report["canary"].get("wrong", 1)
    else:
        boards = positions()

        def analyses(url, _pid):
            warm = asyncio.run(run_analyses(url, clients=4, duration=5, boards=boards))
            print(f"  (warm-up: {warm['answers']} answers)")
            found = asyncio.run(
                run_analyses(url, clients=args.clients, duration=args.duration, boards=boards)
            )
            print_analyses(found)
            return found

        report = {"one_server": _one_server(analyses, url)}
        if args.compare:
            report["cluster"] = _on_cluster(analyses)
            one, many = report["one_server"], report["cluster"]
            report["cluster_ratio"] = {
                "per_second": round(many["per_second"] / max(one["per_second"], 1e-9), 2),
                "p95": round((many["p95_ms"] or 0) / max(one["p95_ms"] or 1e-9, 1e-9), 2),
            }
            print(
                f"cluster / one server: {report['cluster_ratio']['per_second']}x the answers "
                f"per second, p95 {report['cluster_ratio']['p95']}x"
            )
        bad = sum(
            run["lost"] + run["wrong"] for key, run in report.items() if key != "cluster_ratio"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 1 if bad else 0
