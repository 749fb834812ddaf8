"""One production server (``python -m webapp``) on a free loopback port."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request

from .loopback import free_port


def readyz(url: str) -> dict:
    """What ``/readyz`` says (a 503 while the solver warms raises: not ready yet)."""
    with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
        return json.load(response)


def start_server(
    env: dict | None = None, ready_timeout: float = 180.0, wait_for_workers: bool = True
) -> tuple[subprocess.Popen, str]:
    """``python -m webapp`` on a free loopback port; returns (process, url) once it
    answers and (``wait_for_workers``) every worker has warmed its tables."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "webapp", "--port", str(port)],
        env={**os.environ, "ARCADE_LOG_LEVEL": "WARNING", **(env or {})},
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + ready_timeout
    while True:
        try:
            found = readyz(url)["lanes"]
            if not wait_for_workers or all(p["ready"] == p["size"] for p in found.values()):
                return process, url
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("the server did not get ready")
        time.sleep(0.5)
