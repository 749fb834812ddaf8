"""The one store for tables that are slow to build and never change (distance tables, databases).

A :class:`TableStore` serves one family of tables. It answers from memory
first, then from disk, and builds only when neither has the table. Files live
under the user's cache directory (``platformdirs``), or under
``$PUZZLE_ARCADE_CACHE`` when set (the tests share one folder across runs).

Every file name carries a fingerprint of the source files that build the
family's tables, so a table saved by other code (an older version, an edited
checkout) is never trusted: it simply has another name. A file that cannot be
read is rebuilt, never trusted; each file is written to a temporary name and
renamed, so a crash mid-write leaves no half file behind. Tables' numpy arrays
are mapped from their files read-only (:mod:`solver.core.mapped`): every
process that loads a table shares one copy of it through the page cache.
"""

from __future__ import annotations

import _thread  # threading's Lock without the threading module (1 ms of a one-shot call)
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import mapped
from .record import FrozenRecord

#: 2: arrays mapped from the file, shared by every process (:mod:`solver.core.mapped`)
FORMAT_VERSION = 2

#: what a store does with the disk: load or build and save, load only, or ignore it
DISK_MODES = ("save", "read", "off")

_locks: dict[str, _thread.LockType] = {}
_locks_guard = _thread.allocate_lock()


def _lock_for(name: str) -> _thread.LockType:
    with _locks_guard:
        return _locks.setdefault(name, _thread.allocate_lock())


#: the tables' folder under the user's cache folder
APP_NAME = "puzzle-arcade"


class TablesBuilding(Exception):
    """A table of minutes is not on disk yet and another process is building it (see
    :func:`leave_builds_while`): the answer that needs it must wait for that one."""

    def __init__(self, family: str):
        super().__init__(f"the {family} tables are being built by another process")
        self.family = family


#: while this says True, a slow store's missing table is left to another process
_elsewhere: Callable[[], bool] | None = None


def leave_builds_while(pending: Callable[[], bool] | None) -> None:
    """While ``pending()`` is true, a ``slow`` store's table that is neither in memory nor
    on disk is not built in this process: :meth:`TableStore.get` raises
    :class:`TablesBuilding` (a server's solver processes, while its prebuild builds the
    biggest tables once; two builds at once would only slow both). None: build again."""
    global _elsewhere
    _elsewhere = pending


def cache_dir() -> Path:
    """The folder of the table files: ``$PUZZLE_ARCADE_CACHE``, else the user's cache folder."""
    override = os.environ.get("PUZZLE_ARCADE_CACHE")
    path = Path(override or user_cache_dir())
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_cache_dir() -> str:
    """platformdirs' user cache folder for the app. On Linux with an absolute
    ``$XDG_CACHE_HOME`` or ``$HOME`` its answer is the XDG rule's, found here without
    importing platformdirs (6-9 ms, the most a one-shot 8-puzzle call imported after
    its own modules); ``tests/test_cache.py`` holds the two answers equal."""
    if sys.platform == "linux" and not _android():
        xdg, home = os.environ.get("XDG_CACHE_HOME", ""), os.environ.get("HOME", "")
        if os.path.isabs(xdg):
            return os.path.join(xdg, APP_NAME)
        if os.path.isabs(home):
            return os.path.join(home, ".cache", APP_NAME)
    from platformdirs import user_cache_dir as platform_cache_dir

    return platform_cache_dir(APP_NAME)


def _android() -> bool:
    """Whether this may be an Android app, whose folders platformdirs finds otherwise."""
    return hasattr(sys, "getandroidapilevel") or "ANDROID_DATA" in os.environ


def fingerprint(*sources: Path) -> str:
    """A short hash of the source files' bytes (a missing file hashes its name)."""
    try:  # CPython's own SHA-1, the same digest as hashlib's without loading OpenSSL
        from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's; no stub
    except ImportError:
        from hashlib import sha1
    digest = sha1()
    for source in sources:
        try:
            digest.update(Path(source).read_bytes())
        except OSError:
            digest.update(str(source).encode())
    return str(digest.hexdigest())[:12]


class TableStore:
    """One family of tables (``family`` names its files), built by the code in ``sources``.

    ``keep`` False leaves memory to the caller (Klotski indexes its tables by
    any position they hold, and drops old ones). ``slow``: its tables take minutes to
    build (see :func:`leave_builds_while`).
    """

    def __init__(self, family: str, *sources: Path, keep: bool = True, slow: bool = False):
        self.family = family
        self.code = fingerprint(*sources)  # now: the code this process runs, edited or not
        self.keep = keep
        self.slow = slow
        self._memory: dict[str, Any] = {}

    def file_name(self, name: str) -> str:
        """The file stem of table ``name``: family, name, then the code's fingerprint."""
        return f"{self.family}-{name}-{self.code}"

    def path(self, name: str) -> Path:
        return cache_dir() / f"{self.file_name(name)}.v{FORMAT_VERSION}.pickle"

    def ready(self, name: str) -> bool:
        """True when :meth:`get` would answer at once: in memory, or saved on disk."""
        return name in self._memory or self.path(name).exists()

    def get(
        self,
        name: str,
        build: Callable[[], Any],
        *,
        disk: str = "save",
        valid: Callable[[Any], bool] = lambda value: True,
    ) -> Any:
        """Table ``name``: from memory, else from disk, else ``build()``.

        ``disk`` is ``"save"`` (load, or build and save), ``"read"`` (load if
        saved, else build without saving) or ``"off"``. A loaded value that is
        not ``valid`` is rebuilt. Threads asking for the same table at once
        build it once: the others wait and then read what the first one made
        (a server warming its tables while a player's request needs the same
        table must not pay for two builds).
        """
        if disk not in DISK_MODES:
            raise ValueError(f"disk must be one of {', '.join(DISK_MODES)}, not {disk!r}")
        value = self._memory.get(name)
        if value is not None:
            return value
        with _lock_for(self.file_name(name)):
            value = self._memory.get(name)
            if value is None and disk != "off":
                value = _read(self.path(name))
                if value is not None and not valid(value):
                    value = None
            if value is None:
                if self.slow and _elsewhere is not None and _elsewhere():
                    raise TablesBuilding(self.family)
                value = build()
                if disk == "save":
                    _write(self.path(name), value)
            if self.keep:
                self._memory[name] = value
            return value

    def saved(self, prefix: str) -> list[str]:
        """Names of this family's tables on disk (by this code) that start with ``prefix``.

        For families that name tables by what they hold rather than by how
        they were asked for (Klotski names a table by its group), so a caller
        can look through the candidates.
        """
        import glob

        head, tail = f"{self.family}-{prefix}", f"-{self.code}.v{FORMAT_VERSION}.pickle"
        names = []
        for path in cache_dir().glob(f"{glob.escape(head)}*{tail}"):
            names.append(path.name[len(self.family) + 1 : -len(tail)])
        return sorted(names)

    def load(self, name: str, valid: Callable[[Any], bool] = lambda value: True) -> Any | None:
        """Table ``name`` from memory or disk, or None when it is missing, unreadable or
        not ``valid``; never builds (for tables only a deliberate command may build). A
        table read from disk is kept in memory as :meth:`get` keeps it."""
        value = self._memory.get(name)
        if value is not None:
            return value
        value = _read(self.path(name))
        if value is None or not valid(value):
            return None
        if self.keep:
            self._memory[name] = value
        return value

    def save(self, name: str, value: Any) -> None:
        """Write ``value`` as table ``name`` (atomically; a read-only cache is no error)."""
        _write(self.path(name), value)
        if self.keep:
            self._memory[name] = value

    def stale(self) -> list[Path]:
        """This family's files that no current code reads: saved by other code (another
        fingerprint) or in an older format. Safe to delete."""
        import glob

        current = f"-{self.code}.v{FORMAT_VERSION}.pickle"
        return sorted(
            path
            for path in cache_dir().glob(f"{glob.escape(self.family)}-*.pickle")
            if not path.name.endswith(current)
        )

    def forget(self) -> None:
        """Drop what is in memory (tests use this to measure loads and builds)."""
        self._memory.clear()


class TableSet(FrozenRecord):
    """A table (or set of tables) a game builds once per machine, as ``python -m solver
    tables`` lists it: table ``table`` of ``store``, about ``size_bytes`` once saved (None:
    not known before).

    ``build(progress)`` loads or builds it; ``on_demand`` tables are also built on
    first use, the others only by ``python -m solver tables build`` (they take minutes
    and ``memory_bytes`` of memory while building). ``usable``, when given, is a
    stricter test than the file's presence (it loads the file and checks it).
    """

    _fields = (
        "name",
        "what",
        "store",
        "table",
        "build",
        "size_bytes",
        "memory_bytes",
        "on_demand",
        "usable",
    )
    name: str
    what: str
    store: TableStore
    table: str
    build: Callable[[Callable[[Any], None] | None], object]
    size_bytes: int | None
    memory_bytes: int
    on_demand: bool
    usable: Callable[[], bool] | None

    def __init__(
        self,
        name: str,
        what: str,
        store: TableStore,
        table: str,
        build: Callable[[Callable[[Any], None] | None], object],
        size_bytes: int | None,
        memory_bytes: int = 0,
        on_demand: bool = True,
        usable: Callable[[], bool] | None = None,
    ) -> None:
        values = (name, what, store, table, build, size_bytes, memory_bytes, on_demand, usable)
        for field, value in zip(self._fields, values, strict=True):
            object.__setattr__(self, field, value)

    def ready(self) -> bool:
        return self.usable() if self.usable is not None else self.store.ready(self.table)

    def file(self) -> Path:
        return self.store.path(self.table)


def _read(path: Path) -> Any | None:
    try:
        return mapped.load(path)
    except (
        OSError,
        pickle.UnpicklingError,
        EOFError,
        AttributeError,
        ValueError,
        ImportError,
        IndexError,
        KeyError,
        TypeError,
    ):
        return None


def _write(path: Path, value: Any) -> None:
    import tempfile  # only a build writes: a process that loads its tables never imports it

    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            mapped.dump(value, f)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache only costs a rebuild next time
