"""Draw the app icons (``static/icons/icon-<size>.png``) from the favicon's three blocks.

The web app manifest names a 192 px and a 512 px PNG; both are drawn here by Chromium
(Playwright, a test dependency) from the same shapes as ``static/favicon.svg``, on the
paper colour, with the safe margin a maskable icon needs. Run it after changing the
favicon: ``.venv/bin/python scripts/make_icons.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "static" / "icons"
SIZES = (192, 512)
#: the favicon's blocks inside the middle 60% (a maskable icon's safe zone is 80%)
PAGE = """<!doctype html><html><body style="margin:0">
<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="-4 -4 24 24">
<rect x="-4" y="-4" width="24" height="24" fill="#f7f1e5"/>
<rect x="1" y="1" width="9" height="9" rx="2" fill="#e4572e"/>
<rect x="11" y="1" width="4" height="9" rx="1.5" fill="#317ac1"/>
<rect x="1" y="11" width="14" height="4" rx="1.5" fill="#2e9d6b"/>
</svg></body></html>"""


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(PAGE.format(size=size))
            page.locator("svg").screenshot(path=str(FOLDER / f"icon-{size}.png"))
        browser.close()


if __name__ == "__main__":
    main()
