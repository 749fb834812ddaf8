"""Make static/fonts/level-names-sc.woff2: the glyphs of the Chinese level names, and no more.

The classic Klotski levels carry their traditional Chinese names; a machine without
a CJK font would show them as boxes. The full Noto Sans SC (bold, simplified Chinese,
from the npm package @fontsource/noto-sans-sc) is over a megabyte; the names use a
few dozen characters, so the arcade ships a subset of just those (a few KB). Run
again after a name changes (tests/test_level_font.py fails until then):

    make node_modules/.installed && .venv/bin/python scripts/make_level_font.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import catalogue  # noqa: E402  (the checkout's solver, not an installed one)

SOURCE = (
    ROOT
    / "node_modules/@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-700-normal.woff2"
)
TARGET = ROOT / "static/fonts/level-names-sc.woff2"


def level_name_characters() -> str:
    """Every non-ASCII character of a level name in a pack declared Chinese."""
    found: set[str] = set()
    for game in catalogue.games().values():
        chinese = {pack for pack, lang in game.level_languages.items() if lang.startswith("zh")}
        for level in game.levels():
            if level["pack"] in chinese:
                found.update(ch for ch in level["name"] if ord(ch) > 127)
    return "".join(sorted(found))


def main() -> int:
    text = level_name_characters()
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []  # names only: no ligatures or vertical forms needed
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and licence
    font = subset.load_font(str(SOURCE), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(TARGET), options)
    print(f"{TARGET.relative_to(ROOT)}: {len(text)} characters, {TARGET.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
