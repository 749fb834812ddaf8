"""Which concurrency Socket.IO runs on in this process: gevent or threads."""

from __future__ import annotations


def async_mode() -> str:
    """``gevent`` in a process patched for it (the production server, patched first by
    ``python -m webapp``), else ``threading`` (the development server, the tests)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return "threading"
    return "gevent" if monkey.is_module_patched("socket") else "threading"
