"""A throwaway PostgreSQL cluster on loopback for the storage tests (one per session).

Debian's server binaries (``scripts/ensure-postgres.sh`` installs them) refuse to
run as root, so as root the cluster belongs to the ``postgres`` user
(``runuser``). Trust authentication on 127.0.0.1 only; removed at the end.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_owner(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Cluster:
    """``start()`` then ``url(name)`` for each database wanted, ``stop()`` at the end."""

    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self.data = folder / "data"

    @staticmethod
    def available() -> bool:
        return _bin("initdb") is not None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run([_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"])
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = self.folder / "log"
        self._run(
            [_bin("pg_ctl"), "-D", str(self.data), "-w", "-l", str(log), "-o", options, "start"]
        )

    def create(self, name: str, template: str | None = None) -> str:
        """A new database, empty or a copy of ``template`` (a database nobody is connected
        to); returns its SQLAlchemy URL."""
        copy = ["-T", template] if template else []
        self._run(
            [_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
            + copy
            + [name]
        )
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        subprocess.run(
            _as_owner([_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]),
            capture_output=True,
            timeout=60,
        )

    def _run(self, argv: list[str]) -> None:
        done = subprocess.run(_as_owner(argv), capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{argv[0]} failed: {done.stderr[-1000:]}")
