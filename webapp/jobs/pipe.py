"""The pipe between the web process and one solver process, the web process's end.

A socket pair: the solver process's end is a plain :class:`multiprocessing.connection.Connection`
(blocking: that process has nothing else to do), the web process's end a socket read by
one reader per solver process (:mod:`webapp.jobs.pool`). Under gevent that socket is
gevent's, so a reader waiting for the solver's answer holds only its own greenlet:
no selector is built per wait, and a long message arriving in pieces never blocks the
loop. Messages are framed as :mod:`multiprocessing.connection` frames them (a
4-byte big-endian length, or -1 and an 8-byte one), so the solver's end reads and writes
them with ``recv_bytes``/``send_bytes``; each is one pickle (protocol 5) of a tuple
(:mod:`webapp.jobs.process` says which).
"""

from __future__ import annotations

import os
import pickle
import socket
import struct
import threading
from multiprocessing.connection import Connection
from typing import Any

_HEADER = struct.Struct("!i")
_LONG = struct.Struct("!Q")
_LONGEST_SHORT = 0x7FFFFFFF


def pair() -> tuple[Channel, Connection]:
    """The web process's end and the solver process's (pass it to the child)."""
    ours, theirs = socket.socketpair()
    child = Connection(theirs.detach())
    # the child's end blocks (under gevent the pair is made non-blocking, and the child
    # reads whole messages); ours is a socket of this process's kind
    os.set_blocking(child.fileno(), True)
    return Channel(ours), child


class Channel:
    """Pickled messages over one socket, in multiprocessing's frames."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self._send_lock = threading.Lock()
        self._buffer = bytearray()

    def fileno(self) -> int:
        return self._sock.fileno()

    def send(self, message: Any) -> None:
        body = pickle.dumps(message, protocol=5)
        if len(body) > _LONGEST_SHORT:
            frame = _HEADER.pack(-1) + _LONG.pack(len(body)) + body
        else:
            frame = _HEADER.pack(len(body)) + body
        with self._send_lock:
            self._sock.sendall(frame)

    def recv(self) -> Any:
        """The next message; EOFError when the solver's end closed (the process died)."""
        (size,) = _HEADER.unpack(self._exactly(_HEADER.size))
        if size == -1:
            (size,) = _LONG.unpack(self._exactly(_LONG.size))
        return pickle.loads(self._exactly(size))

    def _exactly(self, count: int) -> bytes:
        """``count`` bytes, reading in large pieces: a burst of small messages takes one
        read (a system call and, under gevent, a wait) for all of them."""
        buffer = self._buffer
        while len(buffer) < count:
            chunk = self._sock.recv(max(65536, count - len(buffer)))
            if not chunk:
                raise EOFError("the solver process closed its pipe")
            buffer += chunk
        taken = bytes(buffer[:count])
        del buffer[:count]
        return taken

    def close(self) -> None:
        self._sock.close()
