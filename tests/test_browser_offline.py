"""Installable and offline, in Chromium: the manifest and its icons, the service worker
at ``/sw.js`` (scope ``/``), and play with the network gone: the lobby, a game's page
and a daily opened before open from the worker's cache and play with undo and redo,
the banner says the server is unreachable, Hint says why it waits, and a daily
finished offline (and reloaded offline) is sent, and ranked, once the connection is
back.

These contexts allow service workers (every other test's blocks them: see
``helpers.browser.CONTEXT``).
"""

import re
import struct

import pytest
from helpers.browser import CONTEXT, GamePage, engine_solution, pour
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RANK = re.compile(r"^#\d+$")
#: the page's service worker is active and controls it
CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    return struct.unpack(">II", data[16:24])


def test_the_arcade_installs_and_plays_offline(browser, live_server):
    """The daily played offline at a desktop's width, a page never opened at a phone's."""
    context = browser.new_context(
        **{**CONTEXT, "service_workers": "allow"}, viewport={"width": 1280, "height": 844}
    )
    try:
        page = context.new_page()
        page.goto(live_server + "/")
        manifest = page.request.get(live_server + "/manifest.webmanifest").json()
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        sizes = {}
        for icon in manifest["icons"]:
            sizes[icon["sizes"]] = _png_size(page.request.get(live_server + icon["src"]).body())
        assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
        page.wait_for_function(CONTROLLED)
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        assert scope == live_server + "/"

        # today's daily, opened while online: the worker keeps the page as it passes
        daily = page.request.get(f"{live_server}/api/daily/jugs").json()
        moves, states = engine_solution("jugs", daily["board"], goal=daily["options"]["goal"])
        view = GamePage(page, live_server).open("jugs", daily=1, wait_analysis=False)
        page.wait_for_function(CONTROLLED)
        banner = view.testid("offline")
        expect(banner).to_be_hidden()

        context.set_offline(True)
        page.reload()
        view.wait_state(daily["board"])
        expect(banner).to_be_visible()
        # a page kept from before a deploy names files under an older stamp: today's serve
        older = "async () => (await fetch('/static/000000000000/js/theme.js')).status"
        assert page.evaluate(older) == 200
        pour(view, moves[0], states[1])
        view.click("undo")
        view.wait_state(states[0])
        view.click("redo")
        view.wait_state(states[1])
        for move, after in zip(moves[1:], states[2:], strict=True):
            pour(view, move, after)
        view.wait_status("solved")
        expect(view.testid("standing")).to_contain_text("offline", timeout=5_000)
        page.reload()  # the finished line is kept on the page's address, and so is its result
        view.wait_status("solved")
        expect(view.testid("standing")).to_contain_text("offline", timeout=5_000)

        # a page never opened says so; the lobby and a game's page were kept at install
        page_never_opened = GamePage(context.new_page(), live_server)
        page_never_opened.page.set_viewport_size({"width": 390, "height": 844})
        page_never_opened.page.goto(f"{live_server}/play/npuzzle?board=1+2+3+4+5+6+7+0+8")
        expect(page_never_opened.page.locator("main h1")).to_have_text("Offline")
        expect(page_never_opened.testid("offline")).to_be_visible()
        fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
        assert page_never_opened.page.evaluate(fits)  # the offline page fits a phone
        # a reader who chose Chinese after the install gets the offline page in Chinese
        context.add_cookies([{"name": "arcade_lang", "value": "zh-Hans", "url": live_server}])
        page_never_opened.page.goto(f"{live_server}/play/npuzzle?board=1+2+3+4+5+6+0+7+8")
        expect(page_never_opened.page.locator("html")).to_have_attribute("lang", "zh-Hans")
        expect(page_never_opened.page.locator("main h1")).to_have_text("离线")
        expect(page_never_opened.page.get_by_test_id("error-message")).not_to_contain_text("page")
        context.add_cookies([{"name": "arcade_lang", "value": "en", "url": live_server}])
        page_never_opened.page.goto(live_server + "/")
        expect(page_never_opened.page.locator('a[href="/play/klotski"]')).to_have_count(1)
        free = page_never_opened
        free.game = "npuzzle"
        free.page.goto(f"{live_server}/play/npuzzle")  # the address the worker kept
        expect(free.board).to_have_attribute("data-state", re.compile(".+"))
        start = free.state()
        free.page.keyboard.press("ArrowLeft")  # the tile right of the gap, if any, or another
        free.page.keyboard.press("ArrowRight")
        free.page.keyboard.press("ArrowDown")
        free.page.keyboard.press("ArrowUp")
        assert free.moves() >= 1
        free.click("hint")
        expect(free.testid("status")).to_contain_text("waits for the solver")

        context.set_offline(False)  # back: the daily's result goes out and is ranked
        expect(view.testid("rank")).to_have_text(RANK, timeout=20_000)
        expect(banner).to_be_hidden(timeout=20_000)
        expect(free.testid("status")).to_contain_text("Hint:", timeout=20_000)
        assert start  # the free page opened with its board
    finally:
        context.close()
