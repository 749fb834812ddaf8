"""The JSON the sockets speak, written and read by orjson: Socket.IO's packets and the
cluster's message queue.

python-socketio takes any module with the standard library's ``dumps`` and ``loads``;
its ``json=`` option sets it on the packet classes themselves, for every server and
client of the process, so the app hands its server :class:`Packet` instead (its
``serializer``: Socket.IO's packets, the events' payloads), and the message queue
takes this module too. Engine.IO's own packets carry JSON only in the handshake, where
the standard library stays.

orjson encodes an analysis several times faster than ``json``. It returns bytes where
the packets want text, so :func:`dumps` decodes them; its output is the compact form
python-socketio asks ``json`` for, with non-ASCII characters as UTF-8 rather than
``\\u`` escapes (the frames are UTF-8 text: the page reads the same string). Keys that
are not text are written as text, as ``json`` writes them; what orjson cannot write (an
integer past 64 bits) ``json`` writes instead, and what it cannot read (``NaN``, which
some clients write) ``json`` reads instead. An integer past 64 bits is read as a float,
where ``json`` would keep it whole: the payload checks refuse either (an id, a tile or
an option of that size is no request). Nothing on this path is pickled.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import orjson
from socketio import packet

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any, **_options: Any) -> str:
    """``obj`` as JSON text (the standard library's options, the separators python-socketio
    passes, are orjson's own form already)."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except TypeError:  # a huge integer, say: the standard library's, or its TypeError
        return json.dumps(obj, separators=(",", ":"))


def loads(text: str | bytes, **_options: Any) -> Any:
    """JSON text's value. What orjson refuses goes to ``json``, which reads what some
    clients write beyond JSON (``NaN``, ``Infinity``) as before, and raises
    ``ValueError`` for the rest."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


#: the two functions as the module python-socketio expects
JSON = SimpleNamespace(dumps=dumps, loads=loads)


class Packet(packet.Packet):
    """Socket.IO's packet, its JSON this module's (the server's ``serializer``).

    The protocol has no binary data either way (the guard closes a connection that
    sends any, :mod:`webapp.guard.frames`), so an event's payload is not walked, value by
    value, for bytes before it is sent, as python-socketio does for every emit: bytes
    in a payload would fail to encode, loudly, not go out as attachments."""

    json = JSON

    @classmethod
    def data_is_binary(cls, data: Any) -> bool:
        return False
