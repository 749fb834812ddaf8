"""Make the Chinese fonts in static/fonts: the glyphs the pages write, and no more.

The classic Klotski levels carry their traditional Chinese names, and every page can
be read in Simplified Chinese (the catalogue, webapp/translations); a machine without
a CJK font would show them as boxes. The full Noto Sans SC (simplified Chinese, from
the npm package @fontsource/noto-sans-sc) is over a megabyte a weight; the pages use a
few hundred characters, so the arcade ships a subset of just those, regular and bold.
Run again after a name or a translation changes (tests/test_level_font.py fails until
then):

    make node_modules/.installed && .venv/bin/python scripts/make_level_font.py
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import catalogue  # noqa: E402  (the checkout's solver, not an installed one)

FILES = ROOT / "node_modules/@fontsource/noto-sans-sc/files"
#: each weight's source in the npm package and its subset beside the pages
WEIGHTS = {
    weight: (
        FILES / f"noto-sans-sc-chinese-simplified-{weight}-normal.woff2",
        ROOT / f"static/fonts/noto-sans-sc-{weight}.woff2",
    )
    for weight in (400, 700)
}
CATALOGUE = ROOT / "webapp/translations/zh_Hans/LC_MESSAGES/messages.po"


def level_name_characters() -> str:
    """Every non-ASCII character of a level name in a pack declared Chinese."""
    found: set[str] = set()
    for game in catalogue.games().values():
        chinese = {pack for pack, lang in game.level_languages.items() if lang.startswith("zh")}
        for level in game.levels():
            if level["pack"] in chinese:
                found.update(ch for ch in level["name"] if ord(ch) > 127)
    return "".join(sorted(found))


def page_characters() -> str:
    """Every wide (Chinese) character of the Chinese catalogue and the language control:
    the arrows and marks beside them are the Latin font's, as on the English pages."""
    from babel.messages.pofile import read_po

    from webapp.i18n import LANGUAGES

    texts = [label for _locale, label in LANGUAGES.values()]
    with CATALOGUE.open("rb") as file:
        for message in read_po(file):
            strings = message.string if isinstance(message.string, tuple) else [message.string]
            texts.extend(text or "" for text in strings)
    wide = {ch for text in texts for ch in text if unicodedata.east_asian_width(ch) in "WF"}
    return "".join(sorted(wide))


def main() -> int:
    text = "".join(sorted(set(level_name_characters()) | set(page_characters())))
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []  # short texts: no ligatures or vertical forms needed
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence
    for source, target in WEIGHTS.values():
        font = subset.load_font(str(source), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        target.parent.mkdir(parents=True, exist_ok=True)
        subset.save_font(font, str(target), options)
        size = target.stat().st_size
        print(f"{target.relative_to(ROOT)}: {len(text)} characters, {size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
