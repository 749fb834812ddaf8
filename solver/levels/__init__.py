"""Level packs shipped with the library (classic Klotski layouts, Korf's 100)."""
import json
from pathlib import Path

LEVELS_DIR = Path(__file__).resolve().parent


def load(name: str) -> dict:
    """The parsed JSON of ``name`` (e.g. ``klotski-classic``)."""
    return json.loads((LEVELS_DIR / f"{name}.json").read_text(encoding="utf-8"))
