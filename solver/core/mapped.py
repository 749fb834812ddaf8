"""Table files whose arrays are mapped, not read: one copy in the page cache for every process.

A table is pickled with protocol 5, its numpy arrays passed *out of band*
(:pep:`574`): the pickle holds the small structure and each array's bytes
follow it in the file, each on its own page. :func:`load` maps the file
read-only and hands the pickle those pages as the arrays' memory, so loading
costs no copy, and every worker process and the CLI that loads the same table
shares one copy through the page cache (a server with four solver workers
pays for each table once). Arrays come back read-only, as tables should.

Layout: the pickle, then the buffers (each page-aligned), then an index of
(offset, length) pairs, then a footer: the index's offset, the buffer count
and the magic ``PZMAP1``. A file without the footer is not a table.
"""

from __future__ import annotations

import mmap
import os
import pickle
import struct
from pathlib import Path
from typing import Any, BinaryIO

MAGIC = b"PZMAP1"
FOOTER = struct.Struct("<QI6s")
PAGE = mmap.PAGESIZE


class NotATable(ValueError):
    """The file is not in this format (or is cut short)."""


def dump(value: Any, f: BinaryIO) -> None:
    """Write ``value`` to the open file ``f`` (its arrays out of band, page-aligned)."""
    buffers: list[pickle.PickleBuffer] = []
    f.write(pickle.dumps(value, protocol=5, buffer_callback=buffers.append))
    index = []
    for buffer in buffers:
        _pad(f)
        raw = buffer.raw()
        index.append((f.tell(), raw.nbytes))
        f.write(raw)
    _pad(f)
    at = f.tell()
    for offset, length in index:
        f.write(struct.pack("<QQ", offset, length))
    f.write(FOOTER.pack(at, len(index), MAGIC))


def load(path: Path) -> Any:
    """The table in ``path``, its arrays read-only views of the mapped file."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < FOOTER.size:
            raise NotATable(f"{path} is too short")
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    view = memoryview(mapped)
    at, count, magic = FOOTER.unpack(view[size - FOOTER.size :])
    if magic != MAGIC or at + 16 * count != size - FOOTER.size:
        raise NotATable(f"{path} has no table footer")
    buffers = []
    for i in range(count):
        offset, length = struct.unpack("<QQ", view[at + 16 * i : at + 16 * i + 16])
        if offset + length > at:
            raise NotATable(f"{path} has a buffer out of bounds")
        buffers.append(view[offset : offset + length])
    return pickle.loads(view, buffers=buffers)


def _pad(f: BinaryIO) -> None:
    f.write(b"\0" * (-f.tell() % PAGE))
