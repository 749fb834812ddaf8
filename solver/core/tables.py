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
import threading
from pathlib import Path
from typing import Any, Callable

FORMAT_VERSION = 1

_locks: dict = {}
_locks_guard = threading.Lock()


def _lock_for(name: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())


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

    Threads asking for the same name at once build it once: the others wait and
    then read what the first one saved (a server warming its tables while a
    player's request needs the same table must not pay for two builds).
    """
    path = cache_dir() / f"{name}.v{FORMAT_VERSION}.pickle"
    with _lock_for(name):
        cached = _read(path)
        if cached is not None:
            return cached
        value = build()
        _write(path, value)
        return value


def _read(path: Path) -> Any:
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
        return None


def _write(path: Path, value: Any) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass            # a read-only cache only costs a rebuild next time
