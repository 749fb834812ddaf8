"""Frames per second of the solver lab's state graph at a classic Klotski group's size.

Starts a fresh production server (as ``scripts/audit.py`` does) unless ``--url`` names
one, opens ``/lab`` on the classic Klotski layout (25,955 positions, 94,302 moves) in
headless Chromium, waits until the graph is drawn, then drags it around in circles
and zooms for a few seconds, as a person exploring it would, counting the frames the
page renders (``requestAnimationFrame`` callbacks: a slow redraw delays the next
one), with the replay paused; then plays the replay of breadth-first search's
visiting order (1,000 positions a second) for as long, counting again. Prints one
line for each: positions, moves, frames per second, the slowest frame.

Not a test (the figure depends on the machine); ``make lab-fps`` runs it.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from audit import served  # noqa: E402  (the audit's server, started and stopped)

CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"
COUNTER = """() => {
  window.__frames = [];
  const tick = (now) => { window.__frames.push(now); window.__tick = requestAnimationFrame(tick); };
  window.__tick = requestAnimationFrame(tick);
}"""
STOP = "() => { cancelAnimationFrame(window.__tick); return window.__frames; }"


def frame_rate(frames: list[float]) -> tuple[float, float]:
    """(frames per second, slowest frame in ms) of rAF timestamps."""
    gaps = [b - a for a, b in zip(frames, frames[1:], strict=False)]
    span = (frames[-1] - frames[0]) / 1000 if len(frames) > 1 else 0.0
    return ((len(frames) - 1) / span if span else 0.0), max(gaps, default=0.0)


def measure(base: str, seconds: float) -> dict:
    query = urlencode({"game": "klotski", "board": CLASSIC, "algorithms": "bfs,astar"})
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chrome, args=["--headless", "--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/lab?{query}")
        graph = page.locator('[data-testid="state-graph"]')
        graph.and_(page.locator('[data-drawn="true"]')).wait_for(timeout=120_000)
        # the race over, so the server's searches share no core with the drawing
        page.get_by_test_id("lab-status").filter(has_text="finished").wait_for(timeout=120_000)
        # the replay loaded (both visiting orders fetched), then paused for the drag
        page.locator('[data-testid="lab-replay-algorithm"] option').nth(1).wait_for(
            state="attached", timeout=120_000
        )
        play = page.get_by_test_id("lab-replay-play")
        if play.get_attribute("aria-pressed") == "true":
            play.click()
        graph.scroll_into_view_if_needed()
        box = graph.bounding_box()
        assert box is not None
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(cx, cy)
        page.evaluate(COUNTER)
        started = time.monotonic()
        page.mouse.down()
        step = 0
        while time.monotonic() - started < seconds:
            step += 1
            turn = step / 12
            page.mouse.move(cx + 120 * math.cos(turn), cy + 120 * math.sin(turn))
            if step % 40 == 0:
                page.mouse.up()
                page.mouse.wheel(0, -240 if (step // 40) % 2 else 240)
                page.mouse.down()
        page.mouse.up()
        dragged = frame_rate(page.evaluate(STOP))
        # the visiting order animated: from the first step, 1,000 positions a second
        page.get_by_test_id("lab-replay-algorithm").select_option("bfs")
        page.get_by_test_id("lab-replay-speed").select_option("1000")
        page.get_by_test_id("lab-replay-position").fill("0")
        page.evaluate(COUNTER)
        play.click()
        page.wait_for_timeout(seconds * 1000)
        replayed = frame_rate(page.evaluate(STOP))
        steps = int(graph.get_attribute("data-step") or 0)
        nodes, edges = graph.get_attribute("data-nodes"), graph.get_attribute("data-edges")
        browser.close()
    return {
        "positions": int(nodes or 0),
        "moves": int(edges or 0),
        "fps": dragged[0],
        "slowest_ms": dragged[1],
        "replay_fps": replayed[0],
        "replay_slowest_ms": replayed[1],
        "replay_steps": steps,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--seconds", type=float, default=4.0, help="how long to drag")
    args = parser.parse_args()
    # on a loaded machine the graph can take longer than the default 10 s while the
    # race runs beside it; the figure measured here is the drawing's, not the search's
    os.environ.setdefault("ARCADE_GRAPH_SECONDS", "60")
    with served(args.url) as base:
        found = measure(base, args.seconds)
    print(
        f"state graph: {found['positions']:,} positions, {found['moves']:,} moves:"
        f" {found['fps']:.1f} frames per second while dragging and zooming"
        f" (slowest frame {found['slowest_ms']:.0f} ms)"
    )
    print(
        f"replay of bfs's visiting order over it: {found['replay_fps']:.1f} frames per second"
        f" (slowest frame {found['replay_slowest_ms']:.0f} ms, {found['replay_steps']:,}"
        " positions expanded shown)"
    )


if __name__ == "__main__":
    main()
