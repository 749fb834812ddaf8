"""Browser: every page audited at a desktop and a phone width, one load per page and width,
in the light theme and then the dark one.

A play page's or editor's module script is held back until the page has painted
without it: its layout shift (the sum of 'layout-shift' entries from the first paint
to the end of the audit; a full-page screenshot adds none) must stay under 0.1, so the
board's space is kept before the script draws it.

axe-core (from node_modules, injected as a file: no CDN) must find no serious or
critical violation; no page may be wider than the screen; the Content-Security-Policy
must block nothing the page needs. A screenshot of each lands in
``test-artifacts/audit/`` for a person to look at.

axe is loaded with ``add_script_tag(url=...)`` from a route Playwright answers with
``node_modules/axe-core/axe.min.js``.
"""

from __future__ import annotations

import pytest
from helpers.browser import ARTIFACTS, AXE, serious
from playwright.sync_api import expect

from solver import catalogue

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
GAMES = list(catalogue.games())
#: path, and a selector that exists once the page's script has drawn it
PAGES = (
    [("/", ".preview svg, .preview *")]
    + [(f"/play/{game}", '[data-testid="board"] *') for game in GAMES]
    + [(f"/editor/{game}", '[data-testid="editor-grid"] *') for game in GAMES]
    + [("/streak/npuzzle", '[data-testid="run-start"]')]  # the storm's page is the same
    + [("/player", 'body[data-ready="true"]')]
    + [("/race/new", '[data-testid="race-track"] li')]  # the public lobby's page is the same
    + [("/lab?game=jugs&board=0/3,0/5,8/8", '[data-testid="lab-run"][data-length]')]
    + [("/no-such-page", "main h1")]
)


#: the sum of layout shifts not caused by input (the page's CLS, in one window)
SHIFT_OBSERVER = """
window.__layoutShift = 0;
window.__shiftObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__layoutShift += e.value;
});
window.__shiftObserver.observe({type: "layout-shift", buffered: true});
"""
#: the shift so far: two frames rendered, then the entries not yet delivered added
SHIFT_SO_FAR = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (const e of window.__shiftObserver.takeRecords())
    if (!e.hadRecentInput) window.__layoutShift += e.value;
  return window.__layoutShift;
}"""
#: the page has put pixels on the screen (it was seen before its script arrived)
PAINTED = (
    "() => performance.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint')"
)
#: the module script held back, by the first part of the path
LATE_SCRIPTS = {"play": "main.js", "editor": "editor.js"}


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize(("path", "drawn"), PAGES, ids=[p for p, _ in PAGES])
def test_page_passes_axe_fits_the_screen_and_its_csp(page, live_server, path, drawn, width):
    assert AXE.is_file(), "make node_modules/.installed puts axe-core there"
    blocked: list[str] = []
    page.on(
        "console",
        lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[width], strict=True)))
    script = LATE_SCRIPTS.get(path.split("/")[1])
    if script:
        # the page's script arrives late, as on a slow network: held until the page has
        # painted without it, then let through; the board's space must be kept for it
        held: list = []
        page.add_init_script(SHIFT_OBSERVER)
        page.route(f"**/js/{script}", lambda route: held.append(route))
        page.goto(live_server + path, wait_until="commit")
        page.wait_for_function(PAINTED)
        while not held:  # the request is made while the page parses: it may lag the paint
            page.wait_for_timeout(20)
        held[0].continue_()
    else:
        page.goto(live_server + path)
    page.wait_for_selector(drawn, state="attached")
    page.wait_for_load_state()
    page.evaluate("document.fonts.ready")
    name = (path.strip("/").replace("/", "-") or "lobby") + f"-{width}.png"
    (ARTIFACTS / "audit").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "audit" / name), full_page=True)

    overflow = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth,"
        " [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        " > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className)]"
    )
    assert overflow[0] <= overflow[1], (
        f"{path} is {overflow[0]} px wide on a {overflow[1]} px screen: {overflow[2]}"
    )

    # served as if from the page's own origin (Playwright answers the request from
    # node_modules): an inline copy, as add_script_tag(path=...) makes, is what the
    # page's CSP rightly refuses, and the CSP stays on for the whole check
    page.route(live_server + "/__axe.js", lambda route: route.fulfill(path=str(AXE)))
    page.add_script_tag(url=live_server + "/__axe.js")
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = serious(result["violations"])
    assert not found, "\n".join(found)
    # the same page in the dark theme (the system's, as the page follows it by default)
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.screenshot(
        path=str(ARTIFACTS / "audit" / name.replace(".png", "-dark.png")), full_page=True
    )
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = serious(result["violations"])
    assert not found, "dark theme:\n" + "\n".join(found)
    assert not blocked, "\n".join(blocked)
    if script:  # every shift from the first paint to here: drawing, fonts, answers
        shift = page.evaluate(SHIFT_SO_FAR)
        assert shift < 0.1, f"{path} shifts by {shift:.3f} when its script arrives late"
