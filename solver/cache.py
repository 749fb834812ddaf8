"""Disk cache for tables that are slow to build and never change (distance tables).

Files live under the user's cache directory (``platformdirs``), or under
``$PUZZLE_ARCADE_CACHE`` when set (tests point it at a temporary folder). A file
that cannot be read is rebuilt, never trusted: each entry is written to a
temporary name and renamed, so a crash mid-write leaves no half file behind.
"""
from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Callable

FORMAT_VERSION = 1


def cache_dir() -> Path:
    override = os.environ.get("PUZZLE_ARCADE_CACHE")
    if override:
        path = Path(override)
    else:
        from platformdirs import user_cache_dir
        path = Path(user_cache_dir("puzzle-arcade"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def load_or_build(name: str, build: Callable[[], Any]) -> Any:
    """Return the cached object called ``name``, building and saving it if absent.

    ``name`` must be a plain file name that identifies the content completely
    (include sizes, metric, a hash of the level...).
    """
    path = cache_dir() / f"{name}.v{FORMAT_VERSION}.pickle"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        pass
    value = build()
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass            # a read-only cache only costs a rebuild next time
    return value
