"""Which concurrency this process runs on, gevent or threads: a fact about the process.

Low on purpose: the app factory picks Socket.IO's mode from it and the storage bounds
a session's time by it, and neither reaches the server (:mod:`webapp.serve`) for it.
"""

from __future__ import annotations


def async_mode() -> str:
    """``gevent`` in a process patched for it (the production server, patched first by
    ``python -m webapp``), else ``threading`` (the development server, the tests)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return "threading"
    return "gevent" if monkey.is_module_patched("socket") else "threading"
