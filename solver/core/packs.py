"""Level data shipped beside a game's code (JSON), read once per process.

Pages ask for a game's levels on every view (the lobby, the New-game level
count), so the files are parsed once and shared: callers copy what they change.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any


@cache
def load_pack(path: Path) -> Any:
    """The parsed JSON at ``path``; never change what it returns."""
    return json.loads(path.read_text(encoding="utf-8"))
