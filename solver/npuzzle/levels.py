"""Level data shipped with the N-puzzle: Korf's hundred 15-puzzle instances."""
from __future__ import annotations

import json
from pathlib import Path

LEVELS_DIR = Path(__file__).resolve().parent


def load(name: str) -> dict:
    """The parsed JSON of ``name`` (``korf100``)."""
    return json.loads((LEVELS_DIR / f"{name}.json").read_text(encoding="utf-8"))
