"""The graded Klotski level packs shipped with the game."""

from __future__ import annotations

from pathlib import Path

from ..core.packs import load_pack

LEVELS_DIR = Path(__file__).resolve().parent
PACKS = ("klotski-classic", "klotski-composed", "klotski-big")


def load(name: str) -> dict:
    """The parsed JSON of the pack ``name`` (e.g. ``klotski-classic``)."""
    return load_pack(LEVELS_DIR / f"{name}.json")


def klotski_levels() -> list[dict]:
    """Every graded Klotski level (classic first), each tagged with its ``pack``.

    Keys: name, board, size ("WxH"), moves {"piece", "straight", "step"}, pack, and the
    pack's pack_title and pack_summary (the lobby's heading for the pack).
    """
    levels = []
    for name in PACKS:
        pack = load(name)
        levels += [
            dict(level, pack=name, pack_title=pack["title"], pack_summary=pack["summary"])
            for level in pack["levels"]
        ]
    return levels
