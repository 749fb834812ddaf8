"""Recent analyses, kept in the web process and shared by every connection.

A daily's positions are asked for by every player of the day, and each player asks
again after every undo: the answer is the same each time. The job core keeps the
answers that are facts (:func:`exact`: final, the distance proven or the board proven
unsolvable, every move rated) and answers the next request for the same game, board
and options from here, without a trip to a solver process. The payload is the one the
solver gave, byte for byte, but for the request's id.

Bounded by size: each answer is kept as its JSON text (what it costs in memory is what
is counted), the least recently asked leaves first once ``max_bytes`` is reached.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Hashable, Mapping
from typing import Any

import orjson

#: what one entry costs beside its JSON text: the key, the dictionary's slot
ENTRY_OVERHEAD = 200


def exact(payload: Mapping[str, Any]) -> bool:
    """True for an analysis that any later search of the same request gives again: the
    final one, with every move rated, its distance proven or the board proven unsolvable
    (never an interim hint, an unproven bound or a search that ran out of time)."""
    return bool(
        payload.get("final")
        and payload.get("moves_rated_complete")
        and (
            (payload.get("optimal") and payload.get("distance") is not None)
            or payload.get("solvable") is False
        )
    )


class RecentAnalyses:
    """An LRU of exact analyses by (game, board, options), at most ``max_bytes`` of them."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max(0, int(max_bytes))
        self._lock = threading.Lock()
        self._entries: collections.OrderedDict[Hashable, bytes] = collections.OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(game: str, board: str, options: Mapping[str, Any]) -> Hashable | None:
        """The request's key; None for options that cannot be one (never kept)."""
        try:
            key = (game, board, tuple(sorted(options.items())))
            hash(key)
        except TypeError:
            return None
        return key

    def get(self, key: Hashable | None, request_id: Any) -> dict | None:
        """The answer kept for ``key``, as a fresh payload carrying ``request_id``."""
        if key is None or not self.max_bytes:
            return None
        with self._lock:
            text = self._entries.get(key)
            if text is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
        payload = orjson.loads(text)
        payload["id"] = request_id  # in its place: the key order is the solver's
        return payload

    def put(self, key: Hashable | None, payload: Mapping[str, Any]) -> bool:
        """Keep ``payload`` (an ``analysis`` as sent) when it is :func:`exact`."""
        if key is None or not self.max_bytes or not exact(payload):
            return False
        try:
            text = orjson.dumps({**payload, "id": None})  # nobody's request id is kept
        except TypeError:  # not JSON (never from a solver): not kept
            return False
        cost = len(text) + ENTRY_OVERHEAD
        if cost > self.max_bytes:
            return False
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= len(old) + ENTRY_OVERHEAD
            self._entries[key] = text
            self._bytes += cost
            while self._bytes > self.max_bytes:
                _, gone = self._entries.popitem(last=False)
                self._bytes -= len(gone) + ENTRY_OVERHEAD
        return True

    def stats(self) -> dict:
        """Figures for ``/readyz``."""
        with self._lock:
            return {
                "entries": len(self._entries),
                "bytes": self._bytes,
                "max_bytes": self.max_bytes,
                "hits": self.hits,
                "misses": self.misses,
            }
