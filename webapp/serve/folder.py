"""One server per data folder: a second ``python -m webapp`` on the same folder says so.

Two servers on one folder share its SQLite file and cookie key without knowing of each
other: a player's results and sessions land in whichever answered. The first server
holds an exclusive ``flock`` on ``server.lock`` in the folder for as long as it runs
(the kernel lets go when the process ends, however it ends) and writes its process id
there; a second one finds the lock taken and warns, naming that process.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

#: the open lock file of this process's claim (kept open: closing it lets go)
_held: list[int] = []


def claim(folder: str | Path) -> str | None:
    """Claim ``folder`` for this server; None when it was free, else a warning in words."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "server.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        return (
            f"Another arcade server (process {other}) already uses the data folder {folder}. "
            "Two servers on one folder share its players and results: stop the other one, "
            "or give this one its own folder with ARCADE_DATA_DIR."
        )
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    _held.append(fd)
    return None
