"""Browser: Simplified Chinese chosen with the top bar's control, spoken by the page,
its rules and the solver's answers, kept after a reload, fitting a phone and passing
axe; a new visitor whose browser asks for Chinese gets it at once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.browser import AXE, CONTEXT, GamePage, serious
from playwright.sync_api import expect

from solver.engine import solve_board

pytestmark = pytest.mark.browser


def axe_problems(page, base: str) -> list[str]:
    """The page's serious axe violations (axe served as from the page's own origin)."""
    page.route(base + "/__axe.js", lambda route: route.fulfill(path=str(AXE)))
    page.add_script_tag(url=base + "/__axe.js")
    return serious(
        page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")["violations"]
    )


def test_chinese_is_chosen_spoken_kept_and_offered_to_chinese_browsers(page, live_server, browser):
    view = GamePage(page, live_server)
    html = page.locator("html")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server + "/")
    expect(html).to_have_attribute("lang", "en")
    view.testid("language").select_option("zh-Hans")  # kept in a cookie; the page reloads
    expect(html).to_have_attribute("lang", "zh-Hans")
    expect(page.locator(".hero h1")).to_have_text("经典谜题，外加一位永远知道最短路的教练")
    expect(view.testid("daily-countdown")).to_have_text(
        re.compile(r"^距下一道每日谜题还有 \d+ 小时 \d+ 分钟。$")
    )

    view.open("klotski", wait_analysis=False)
    expect(page.locator("h1.game-title")).to_have_text("华容道")
    expect(view.testid("hint")).to_have_text("提示")
    # the distance the solver sent, in the page script's words
    expect(view.testid("distance")).to_contain_text(re.compile(r"还需 \d+ 步"), timeout=10_000)
    # a move the rules refuse: the wall is above piece A
    page.locator('[data-piece="A"]').click()
    page.keyboard.press("ArrowUp")
    view.wait_status("A 块不能向上移动：墙挡住了。")
    # a hint: the solver's answer over the socket, said in Chinese
    view.click("hint")
    view.wait_status(re.compile(r"^提示：\S"))
    assert not axe_problems(page, live_server)

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(html).to_have_attribute("lang", "zh-Hans")
    expect(view.testid("language")).to_have_value("zh-Hans")
    view.testid("prefs-button").click()  # on a phone, the language and theme fold behind it
    expect(view.testid("language")).to_be_visible()
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the Chinese play page is {wide} px wider than a phone"
    view.assert_no_errors()

    # a first visit from a browser set to Chinese: no cookie, its Accept-Language decides
    context = browser.new_context(locale="zh-CN", **CONTEXT)
    try:
        visitor = context.new_page()
        visitor.goto(live_server + "/no-such-page")
        expect(visitor.locator("html")).to_have_attribute("lang", "zh-Hans")
        expect(visitor.locator("main h1")).to_have_text("未找到")
    finally:
        context.close()


#: the only Latin words a Chinese page may show: the algorithms' names (the CLI's), the
#: language control's "English", key names, and "IDA" of IDA*
LATIN_ALLOWED = {
    "English", "bfs", "dfs", "bidirectional", "astar", "idastar", "seed-bfs",
    "seed-bidirectional", "seed-astar", "IDA", "Tab", "Ctrl", "Shift", "Esc",
}  # fmt: skip
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")
#: every string the page holds as notation (boards, moves in data-), to leave out of
#: the words, and the URLs it shows
NOTATION = """() => [...new Set([...document.querySelectorAll('input, textarea')].map((e) => e.value)
  .concat([...document.querySelectorAll('[data-state], [data-board]')].flatMap((e) =>
    [e.dataset.state, e.dataset.board])))].filter(Boolean)"""


def english_words(page) -> set[str]:
    """The Latin words of the page's visible text and accessible names (its aria snapshot:
    names, values and text, not roles or attributes), notation and URLs left out."""
    snapshot = page.locator("body").aria_snapshot()
    names = []
    for line in snapshot.splitlines():
        line = line.strip()
        if line.startswith("- /"):  # /url:, /placeholder: (a placeholder is seen: keep it)
            if line.startswith("- /placeholder:"):
                names.append(line.split(":", 1)[1])
            continue
        line = re.sub(r"^- '?[a-z]+", "", line)  # the role
        names.append(re.sub(r"\[[a-z]+(=[^\]]*)?\]", "", line))  # [level=2], [checked]
    text = page.evaluate("document.body.innerText") + "\n" + "\n".join(names) + "\n" + page.title()
    for notation in sorted(page.evaluate(NOTATION), key=len, reverse=True):
        text = text.replace(notation, " ")
    text = re.sub(r"https?://\S+|/[a-z]+/\S*", " ", text)
    return set(WORD.findall(text)) - LATIN_ALLOWED


def test_the_chinese_pages_show_no_english_words(browser, live_server):
    """Every page in zh-Hans, in the states a player sees (the coach's rated moves, a
    move announced, a solved board, the list of keys, a race with a racer, the lab's
    searches, the player's page with a result, the header's boxes): its visible text
    and accessible names hold no English word outside notation and algorithm names."""
    context = browser.new_context(locale="zh-CN", **CONTEXT)
    found: dict[str, set[str]] = {}
    try:
        page = context.new_page()
        view = GamePage(page, live_server)
        page.set_viewport_size({"width": 1280, "height": 900})

        def scan(name):
            words = english_words(page)
            if words:
                found[name] = words

        page.goto(live_server + "/")
        page.get_by_test_id("me-button").click()
        scan("/ (and the name box)")
        page.keyboard.press("Escape")
        view.open("klotski", "BAAC/BAAC/DEEF/DGHF/I..J")
        expect(view.testid("option").first).to_be_visible(timeout=15_000)
        page.locator('[data-piece="G"]').click()
        page.keyboard.press("ArrowDown")
        view.wait_state("BAAC/BAAC/DEEF/D.HF/IG.J")
        expect(view.testid("option").first).to_be_visible(timeout=15_000)
        page.keyboard.press("?")
        scan("/play/klotski (a move, the keys)")
        page.keyboard.press("Escape")
        for path in ("/play/klotski?level=klotski-composed/1", "/play/jugs?level=jugs-classic/2"):
            page.goto(live_server + path)
            expect(view.board).to_have_attribute("data-state", re.compile(".+"))
            scan(path)
        for game in ("npuzzle", "watersort"):
            view.open(game)
            expect(view.testid("option").first).to_be_visible(timeout=15_000)
            scan(f"/play/{game}")
        view.open("jugs", "0/3,0/5,8/8")
        view.click("solve")
        view.wait_status(re.compile("解开|完成"), timeout=15_000)
        expect(view.testid("result")).to_be_visible()
        scan("/play/jugs (solved)")
        for game in ("klotski", "watersort", "npuzzle", "jugs"):
            page.goto(f"{live_server}/editor/{game}")
            expect(page.locator('[data-testid="editor-grid"] *').first).to_be_attached()
            scan(f"/editor/{game}")
        for mode in ("streak", "storm"):
            page.goto(f"{live_server}/{mode}/npuzzle")
            view.testid("run-start").click()
            expect(view.board).to_have_attribute("data-state", re.compile(".+"))
            scan(f"/{mode}/npuzzle")
        page.goto(live_server + "/race/new")
        expect(view.testid("racer")).to_have_count(1)
        scan("/race/new")
        page.goto(live_server + "/lab?game=jugs&board=0/3,0/5,8/8")
        expect(view.testid("lab-run").last).to_have_attribute("data-length", re.compile(r"\d"))
        expect(view.testid("lab-replay")).to_be_visible(timeout=15_000)
        scan("/lab")
        daily = page.request.get(live_server + "/api/daily/jugs").json()
        options = {k: v for k, v in daily["options"].items() if v is not None}
        states = solve_board("jugs", daily["board"], **options)["states"]
        body = {"game": "jugs", "board": daily["board"], "options": daily["options"],
                "states": states, "seconds": 9, "assisted": False}  # fmt: skip
        assert page.request.post(live_server + "/api/results", data=body).ok
        page.goto(live_server + "/player")
        expect(page.locator("body[data-ready=true]")).to_be_attached()
        scan("/player")
        for path in ("/no-such-page", "/offline?lang=zh-Hans"):
            page.goto(live_server + path)
            scan(path)
    finally:
        context.close()
    assert not found, "English words on the Chinese pages:\n" + "\n".join(
        f"{page}: {' '.join(sorted(words))}" for page, words in found.items()
    )


#: every element whose own text (or an option's) holds a wide character: its text and the
#: first family of its computed font
CHINESE_TEXT = r"""() => {
  const wide = /[\u2e80-\u9fff\uff00-\uffef]/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!wide.test(node.data)) continue;
    const family = getComputedStyle(node.parentElement).fontFamily.split(",")[0].trim();
    found.push([node.data.trim(), family.replace(/"/g, "")]);
  }
  return found;
}"""


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_every_chinese_character_shown_is_drawn_by_the_shipped_font(browser, live_server, language):
    """On a machine without a Chinese font, a character the shipped subset lacks, or text
    not set in it (the language control on the English pages), draws as a box."""
    from fontTools.ttLib import TTFont

    root = Path(__file__).resolve().parent.parent
    drawn = set(TTFont(root / "static/fonts/noto-sans-sc-400.woff2").getBestCmap())
    bold = set(TTFont(root / "static/fonts/noto-sans-sc-700.woff2").getBestCmap())
    seen = 0
    context = browser.new_context(locale="zh-CN" if language == "zh-Hans" else "en-GB", **CONTEXT)
    page = context.new_page()
    for path in ("/", "/play/klotski", "/play/watersort", "/lab", "/streak/npuzzle", "/race"):
        page.goto(f"{live_server}{path}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.wait_for_timeout(300)  # the scripts' words
        for text, family in page.evaluate(CHINESE_TEXT):
            seen += 1
            assert family == "Arcade Chinese", f"{path}: {text!r} is set in {family}"
            wide = [ch for ch in text if ord(ch) > 0x2E7F and ord(ch) not in drawn & bold]
            assert not wide, f"{path}: the shipped font lacks {''.join(wide)} of {text!r}"
    context.close()
    assert seen, "no Chinese text seen"
