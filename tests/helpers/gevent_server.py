"""The production server (``python -m webapp``: gunicorn's gevent worker) with gevent's
monitor thread watching its one event loop.

With ``GEVENT_MONITOR_THREAD_ENABLE=true`` and ``GEVENT_MAX_BLOCKING_TIME=0.1`` the
monitor prints the stack of any greenlet that holds the loop for over 0.1 s to
stderr, which this helper sends to a file and reads back: :meth:`GeventServer.blocks`
lists the reports since a mark, and :meth:`GeventServer.assert_no_block` fails a
test that caused one. The ``gevent_server`` fixture (``tests/conftest.py``) starts
one per test session.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from harness.loopback import free_port
from harness.server import all_warm, readyz

#: the monitor's own words (gevent/_tracer.py) opening each report
BLOCKED = "appears to be blocked"
#: what the tests hold the loop to, in seconds (the design's "max_blocking_time 0.1 s")
MAX_BLOCKING_TIME = 0.1
#: the server's scheduling priority (nice) where the tests may raise it: on a shared
#: two-core machine with ten runnable processes, a process at the default priority
#: waits for the CPU for longer than 0.1 s, and the monitor then reports the scheduler,
#: not the loop. Its solver processes inherit it (their own niceness stays relative).
SERVER_NICE = -10


def raise_priority(who: int = 0) -> None:
    """Run process or thread ``who`` (0: this one) at :data:`SERVER_NICE`, when allowed."""
    with contextlib.suppress(OSError):  # not root: the default priority (a quiet machine)
        os.setpriority(os.PRIO_PROCESS, who, SERVER_NICE)


class GeventServer:
    """A running ``python -m webapp`` whose stderr is kept in ``log``."""

    def __init__(self, folder: Path, env: dict | None = None, ready_timeout: float = 180.0):
        self.folder = folder
        self.log = folder / "server.stderr"
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self._err = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "webapp", "--port", str(port)],
            env={
                **os.environ,
                "ARCADE_LOG_LEVEL": "WARNING",
                "ARCADE_DATA_DIR": str(folder / "data"),
                "GEVENT_MONITOR_THREAD_ENABLE": "true",
                "GEVENT_MAX_BLOCKING_TIME": str(MAX_BLOCKING_TIME),
                **(env or {}),
            },
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._err,
            preexec_fn=raise_priority,
        )
        self._wait_ready(ready_timeout)
        # start-up (migrations, spawning the solver processes) may hold the loop before
        # the first player is served: the tests judge only what happens after it
        self.started = self.mark()

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if all_warm(readyz(self.url)):  # not a core taken from the loop timed
                    return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not get ready:\n{self.text()[-3000:]}")
            time.sleep(0.3)

    def text(self, since: int = 0) -> str:
        with self.log.open("rb") as stream:
            stream.seek(since)
            return stream.read().decode(errors="replace")

    def mark(self) -> int:
        """A point in the server's stderr: :meth:`blocks` counts from here."""
        return self.log.stat().st_size

    def blocks(self, since: int | None = None) -> list[str]:
        """The monitor's reports (each with its stack) since ``since`` (default: start-up)
        about the server's loop, not about gevent's own monitor threads."""
        monitors = {_greenlet(h) for h, stack in _reports(self.text(0)) if _about_a_monitor(stack)}
        reports = []
        for head, stack in _reports(self.text(self.started if since is None else since)):
            if _about_a_monitor(stack) or _greenlet(head) in monitors:
                # a monitor thread's own hub, "blocked" by the monitor sleeping or writing
                # a report; under load reports interleave, so a header whose stack went
                # elsewhere is known by its greenlet, seen in the monitor's other reports
                continue
            # the header and the blocked greenlet's stack, innermost frames last
            lines = stack.splitlines()
            own = [line for line in lines if "/webapp/" in line or "/solver/" in line]
            reports.append("\n".join([head, *own[-8:], "...", *lines[-12:]]))
        return reports

    def assert_no_block(self, since: int | None = None) -> None:
        """Fail with the monitor's first report when the loop was blocked since ``since``."""
        time.sleep(MAX_BLOCKING_TIME * 3)  # the monitor checks every max_blocking_time
        reports = self.blocks(since)
        assert not reports, (
            f"gevent's monitor saw the event loop blocked {len(reports)} time(s):\n{reports[0]}"
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._err.close()


def _reports(text: str) -> list[tuple[str, str]]:
    """(header line, blocked stack) of each of the monitor's reports in ``text``."""
    starts = [text.rfind("\n", 0, m.start()) + 1 for m in re.finditer(BLOCKED, text)]
    found = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        report = text[start:end]
        stack = report.partition("Blocked Stack")[2].partition("\n\n")[0]
        found.append((report.partition("\n")[0], stack))
    return found


def _about_a_monitor(stack: str) -> bool:
    return "gevent/_monitor.py" in stack


def _greenlet(head: str) -> str:
    """The blocked greenlet's address in a report's header."""
    match = re.search(r"greenlet object at (0x[0-9a-f]+)", head)
    return match.group(1) if match else head
