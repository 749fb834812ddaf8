"""``python -m solver tables [build|clean] [NAME ...]``: the tables each game builds once.

``tables`` lists every game's tables (:meth:`~solver.core.game.Game.tables`) with
their sizes and whether this machine has them; ``tables build`` builds the ones
missing (or those named), each layer of a long build reported on stderr;
``tables clean`` deletes the files no current code reads (saved by an older
version). A build refuses to start without the memory or the disk space it
needs, or while another process builds the same table (a lock file in the
table folder), and says so if its file could not be saved, rather than leave
the user believing it is.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from . import catalogue
from .core.errors import BoardError
from .core.results import Progress
from .core.tables import TableSet, cache_dir


def every_table() -> list[TableSet]:
    """Every game's tables, in the games' order."""
    return [found for game in catalogue.games().values() for found in game.tables()]


def size_text(size: int | None) -> str:
    if size is None:
        return "?"
    return f"{size / 1e6:,.1f} MB" if size >= 1e5 else f"{size / 1e3:,.1f} kB"


def available_memory() -> int | None:
    """Bytes of memory free for a new process (Linux's MemAvailable), None when unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@contextmanager
def building(name: str) -> Iterator[bool]:
    """Hold the lock that says ``name`` is being built; yields False when another
    process holds it (the lock goes with the process, however it ends)."""
    with open(cache_dir() / f".building-{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


def refusal(found: TableSet) -> str | None:
    """Why ``found`` cannot be built here now (memory, disk), or None."""
    free = available_memory()
    if free is not None and found.memory_bytes > free:
        return f"building needs {size_text(found.memory_bytes)} of memory and {size_text(free)} is free"
    room = shutil.disk_usage(cache_dir()).free
    if found.size_bytes is not None and found.size_bytes * 1.1 > room:
        return f"its file needs {size_text(found.size_bytes)} and {cache_dir()} has {size_text(room)} free"
    return None


def chosen(tables: list[TableSet], names: Sequence[str]) -> list[TableSet]:
    """The tables named (all when none is); BoardError quoting an unknown name."""
    known = {found.name: found for found in tables}
    for name in names:
        if name not in known:
            raise BoardError(f"no table called {name[:40]!r}; choose from {', '.join(known)}")
    return [known[name] for name in dict.fromkeys(names)] if names else tables


def stale_files(tables: list[TableSet]) -> list[Path]:
    """The stale files of ``tables``' stores, each store asked once."""
    stores = {id(found.store): found.store for found in tables}.values()
    return [path for store in stores for path in store.stale()]


def print_list(tables: list[TableSet]) -> None:
    width = max(len(found.name) for found in tables)
    print(f"{'table':<{width}}  {'size':>10}  {'built':<5}  what")
    for found in tables:
        ready = found.ready()
        size = found.file().stat().st_size if ready and found.file().exists() else found.size_bytes
        print(
            f"{found.name:<{width}}  {size_text(size):>10}  {'yes' if ready else 'no':<5}  "
            f"{found.what}"
        )
    stale = stale_files(tables)
    tail = ""
    if stale:
        freed = sum(path.stat().st_size for path in stale)
        tail = f"; {len(stale)} stale file(s), {size_text(freed)}: python -m solver tables clean"
    print(f"folder: {cache_dir()}{tail}")


class LayerPrinter:
    """A long build's layers on stderr: rewritten in place on a terminal, else a line
    every ``every`` seconds (a log keeps the pace without a line per layer)."""

    def __init__(self, every: float = 5.0) -> None:
        self.stage = ""
        self.tty = sys.stderr.isatty()
        self.every = every
        self.shown = 0.0

    def __call__(self, p: Progress) -> None:
        if p.stage != self.stage:
            self.end()
            self.stage = p.stage
            self.shown = 0.0
            print(f"{p.stage}...", file=sys.stderr, flush=True)
        line = f"  layer {p.depth:>3}: {p.nodes:>15,} positions, {p.elapsed:8.1f} s"
        if self.tty:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
        elif p.elapsed - self.shown >= self.every:
            self.shown = p.elapsed
            print(line, file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.tty and self.stage:
            print(file=sys.stderr)


def build(tables: list[TableSet], names: Sequence[str]) -> int:
    """Build what is missing among ``tables``; 1 when a table could not be built or saved."""
    todo = [found for found in tables if not found.ready()]
    if not todo:
        print("every table asked for is built" if names else "every table is built")
        return 0
    failed = 0
    for found in todo:
        why = refusal(found)
        if why is not None:
            print(f"{found.name}: {why}; not built", file=sys.stderr)
            failed += 1
            continue
        with building(found.name) as mine:
            if not mine:
                print(
                    f"{found.name}: another process is building it now; not built twice",
                    file=sys.stderr,
                )
                failed += 1
                continue
            failed += not build_one(found)
    return 1 if failed else 0


def build_one(found: TableSet) -> bool:
    """Build (or load) one table and check it was saved; False, said on stderr, if not."""
    printer = LayerPrinter()
    started = time.perf_counter()
    try:
        found.build(printer)
    except MemoryError:
        printer.end()
        print(f"{found.name}: ran out of memory while building; not built", file=sys.stderr)
        return False
    printer.end()
    seconds = time.perf_counter() - started
    if not found.ready():
        print(
            f"{found.name}: built in {seconds:.1f} s but could not be saved in "
            f"{cache_dir()} (is it writable, is the disk full?)",
            file=sys.stderr,
        )
        return False
    print(f"{found.name}: ready in {seconds:.1f} s ({size_text(found.file().stat().st_size)})")
    return True


#: a half-written file (``.tmp-*``) older than this was left by a process that died
ABANDONED_SECONDS = 3600


def clean(tables: list[TableSet]) -> int:
    """Delete the stale files of ``tables``' stores and abandoned half-written files."""
    doomed = stale_files(tables)
    now = time.time()
    for path in cache_dir().glob(".tmp-*"):
        try:
            if now - path.stat().st_mtime > ABANDONED_SECONDS:
                doomed.append(path)
        except OSError:
            continue
    removed, freed = 0, 0
    for path in doomed:
        try:
            size = path.stat().st_size
            os.remove(path)
        except OSError:
            continue
        removed += 1
        freed += size
    print(f"removed {removed} stale file(s), {size_text(freed)}")
    return 0


def run_tables(action: str, names: Sequence[str]) -> int:
    tables = every_table()
    if action == "list":
        if names:
            raise BoardError("tables lists every table; name tables after 'build'")
        print_list(tables)
        return 0
    if action == "clean":
        return clean(chosen(tables, names))
    return build(chosen(tables, names), names)
