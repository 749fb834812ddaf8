"""The graded Klotski level packs shipped with the game."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List

LEVELS_DIR = Path(__file__).resolve().parent
PACKS = ("klotski-classic", "klotski-composed")


def load(name: str) -> dict:
    """The parsed JSON of the pack ``name`` (e.g. ``klotski-classic``)."""
    return json.loads((LEVELS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def klotski_levels() -> List[dict]:
    """Every graded Klotski level (classic first), each tagged with its ``pack``.

    Keys: name, board, size ("WxH"), moves {"piece", "step"}, pack, and the
    pack's pack_title and pack_summary (the lobby's heading for the pack).
    """
    levels = []
    for name in PACKS:
        pack = load(name)
        levels += [dict(level, pack=name, pack_title=pack["title"], pack_summary=pack["summary"])
                   for level in pack["levels"]]
    return levels

