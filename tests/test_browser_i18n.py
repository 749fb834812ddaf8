"""Browser: Simplified Chinese chosen with the top bar's control, spoken by the page,
its rules and the solver's answers, kept after a reload, fitting a phone and passing
axe; a new visitor whose browser asks for Chinese gets it at once."""

from __future__ import annotations

import re

import pytest
from helpers.browser import AXE, CONTEXT, GamePage, serious
from playwright.sync_api import expect

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
