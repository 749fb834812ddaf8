"""``make audit``: Lighthouse on the lobby, a play page and an editor (the first game's),
phone and desktop.

Starts a fresh production server (``python -m webapp``, gunicorn) on a free loopback
port, or audits ``--url`` if given, runs Lighthouse from node_modules with Debian's
Chromium (``CHROME_PATH``, headless, no sandbox) on each page in its mobile and its
desktop preset, and prints one line of category scores (0-100) per page and preset.
Exits 1 if any score is under ``--min`` (default 95). Not part of ``make test``: a
Lighthouse run takes tens of seconds and its performance score depends on the load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
sys.path.insert(0, str(ROOT))
from harness.loopback import free_port  # noqa: E402  (the checkout's)
from solver import catalogue  # noqa: E402  (the checkout's solver)

FIRST = next(iter(catalogue.games()))  # the lobby's first game
PAGES = ("/", f"/play/{FIRST}", f"/editor/{FIRST}")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PRESETS = ("mobile", "desktop")


def start_server(port: int) -> subprocess.Popen:
    """The production server, ready to answer (its solver tables prebuilt off)."""
    env = dict(os.environ, ARCADE_PREBUILD_TABLES="0")
    server = subprocess.Popen(
        [sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
            return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("the server did not start within 60 s")


@contextlib.contextmanager
def served(url: str | None) -> Iterator[str]:
    """The base URL of ``url``'s server, or of a fresh production server started for
    the ``with`` block (and stopped after it)."""
    if url is not None:
        yield url.rstrip("/")
        return
    port = free_port()
    server = start_server(port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(30)


def lighthouse(url: str, preset: str) -> tuple[dict[str, int], list[str]]:
    """Category scores (0-100) of one Lighthouse run, and the titles of the audits
    that keep a category under 100."""
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            f"--only-categories={','.join(CATEGORIES)}",
            "--chrome-flags=--headless --no-sandbox --disable-gpu",
        ]
        if preset == "desktop":
            command.append("--preset=desktop")
        subprocess.run(command, check=True, env=dict(os.environ, CHROME_PATH=chrome))
        data = json.loads(report.read_text())
    scores = {name: round(100 * (data["categories"][name]["score"] or 0)) for name in CATEGORIES}
    failed = {
        data["audits"][ref["id"]]["title"]
        for name in CATEGORIES
        if scores[name] < 100
        for ref in data["categories"][name]["auditRefs"]
        if ref.get("weight")
        and (data["audits"][ref["id"]].get("score") or 0) < 0.9
        and data["audits"][ref["id"]].get("scoreDisplayMode") in ("binary", "numeric")
    }
    return scores, sorted(failed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="audit this running server instead of starting one")
    parser.add_argument("--min", type=int, default=95, help="lowest score accepted")
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is missing: make node_modules/.installed")
    low = []
    with served(args.url) as base:
        print(f"{'page':<18} {'preset':<8} " + " ".join(f"{c:>14}" for c in CATEGORIES))
        for path in PAGES:
            for preset in PRESETS:
                scores, failed = lighthouse(base + path, preset)
                print(
                    f"{path:<18} {preset:<8} " + " ".join(f"{scores[c]:>14}" for c in CATEGORIES),
                    flush=True,
                )
                for title in failed:  # what keeps a category under 100
                    print(f"    - {title}")
                low += [(path, preset, c, s) for c, s in scores.items() if s < args.min]
    for path, preset, category, score in low:
        print(f"under {args.min}: {path} {preset} {category} {score}")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
