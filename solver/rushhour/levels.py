"""Rush Hour's level packs, each level the hardest start of its cluster.

Made by ``scripts/make_rushhour_levels.py`` from the arcade's own search over every
placement of a few vehicle sets, and graded (:mod:`solver.rushhour.grading`).
"""

from __future__ import annotations

from pathlib import Path

from ..core.packs import load_pack

LEVELS_DIR = Path(__file__).resolve().parent
PACKS = ("rushhour-beginner", "rushhour-intermediate", "rushhour-advanced", "rushhour-expert")


def load(name: str) -> dict:
    """The parsed JSON of the pack ``name`` (e.g. ``rushhour-beginner``)."""
    return load_pack(LEVELS_DIR / f"{name}.json")


def rushhour_levels() -> list[dict]:
    """Every level, shortest pack first, each tagged with its ``pack``: name, board,
    moves (proven), traps, group {positions, farthest}, pack_title, pack_summary."""
    levels = []
    for name in PACKS:
        pack = load(name)
        levels += [
            dict(level, pack=name, pack_title=pack["title"], pack_summary=pack["summary"])
            for level in pack["levels"]
        ]
    return levels
