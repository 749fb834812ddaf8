"""The capacity tests' tools: a production server, and an event loop that holds a crowd.

The crowd (:class:`loadtest.capacity.Crowd`) lives on an asyncio loop in a thread
of its own, so idle players stay connected across tests while each test runs
coroutines on that loop with :meth:`CrowdLoop.run`.
"""

import asyncio
import json
import threading
import time
import urllib.request

from harness.loopback import raise_open_files
from harness.server import start_server


class CrowdLoop:
    """An event loop running in a daemon thread."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 120.0):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def ready(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/readyz", timeout=5) as response:
        return json.load(response)


def wait_for_players(url: str, count: int, timeout: float = 60.0) -> dict:
    """``/readyz`` once it reports ``count`` players held."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            figures = ready(url)
        except OSError:  # busy letting thousands go at once on a crowded machine
            figures = {"players": "?"}
        if figures["players"] == count:
            return figures
        assert time.monotonic() < deadline, f"{figures['players']} players held, not {count}"
        time.sleep(0.1)


def capacity_server(env: dict):
    """``python -m webapp`` (gunicorn, gevent) with small pools and the given settings;
    returns (process, url) once it answers and the canary's table is warm."""
    raise_open_files()
    process, url = start_server(
        {
            "ARCADE_PREBUILD_TABLES": "0",
            "ARCADE_QUICK_WORKERS": "1",
            "ARCADE_LONG_WORKERS": "1",
            **env,
        },
        ready_timeout=60,
        wait_for_workers=False,
    )
    return process, url
