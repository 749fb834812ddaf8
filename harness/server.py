"""One production server (``python -m webapp``) on a free loopback port."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path

from .loopback import free_port


def readyz(url: str, timeout: float = 5.0) -> dict:
    """What ``/readyz`` says (a 503 while the solver warms raises: not ready yet)."""
    with urllib.request.urlopen(f"{url}/readyz", timeout=timeout) as response:
        return json.load(response)


def all_warm(said: dict, lanes: Iterable[str] | None = None) -> bool:
    """Whether ``/readyz``'s answer ``said`` has every process of ``lanes`` (default:
    all) ready with its tables loaded, and no table building: a build or a load would
    take a core from what is measured. A server without the ``warm`` count (an older
    checkout) is warm once ready."""
    found = said["lanes"]
    return not said.get("building_tables") and all(
        found[name]["ready"] == found[name].get("warm", found[name]["ready"]) == found[name]["size"]
        for name in (found if lanes is None else lanes)
    )


def start_server(
    env: dict | None = None,
    ready_timeout: float = 180.0,
    wait_for_workers: bool = True,
    cwd: str | None = None,
    log: Path | None = None,
) -> tuple[subprocess.Popen, str]:
    """``python -m webapp`` on a free loopback port; returns (process, url) once it
    answers and (``wait_for_workers``) every worker has warmed its tables and the
    server has built every table. From ``cwd``
    the checkout there serves (``-m`` puts it first on the path): another version of the
    code, measured with the same tool. With ``log`` its output goes to that file."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    output = open(log, "wb") if log is not None else None  # noqa: SIM115 - the server's
    process = subprocess.Popen(
        [sys.executable, "-m", "webapp", "--port", str(port)],
        env={**os.environ, "ARCADE_LOG_LEVEL": "WARNING", **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
        cwd=cwd,
    )
    if output is not None:
        output.close()  # the server holds its own copy
    deadline = time.monotonic() + ready_timeout
    while True:
        try:
            said = readyz(url)
            if not wait_for_workers or all_warm(said):
                return process, url
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("the server did not get ready")
        time.sleep(0.5)
