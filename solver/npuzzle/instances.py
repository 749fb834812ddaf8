"""Benchmark instances shipped with the N-puzzle: Korf's hundred 15-puzzle instances and
Korf and Felner's fifty 24-puzzle ones (the player's levels are generated, not packed)."""

from __future__ import annotations

from pathlib import Path

from ..core.packs import load_pack

LEVELS_DIR = Path(__file__).resolve().parent


def load(name: str) -> dict:
    """The parsed JSON of ``name`` (``korf100``)."""
    return load_pack(LEVELS_DIR / f"{name}.json")
