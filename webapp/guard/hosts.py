"""The Host allow-list: a defence against DNS rebinding.

A web page on ``evil.example`` can point its own name at 127.0.0.1 and then talk
to a server on the player's machine as "the same origin": the browser sends
``Host: evil.example`` and a matching ``Origin``, which passes a same-origin
check. Only names the operator serves are accepted; IP addresses cannot be
rebound, so a literal address in ``Host`` is always fine. The check wraps the
whole WSGI app, so the Socket.IO endpoint is covered too.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

DEFAULT_HOSTS = ("localhost",)


def host_name(header: str) -> str:
    """``Host`` without its port, lower case (``[::1]:5000`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class HostGuard:
    """WSGI middleware answering 400 to a request whose ``Host`` names another site."""

    def __init__(self, app, allowed: Iterable[str] | None = None, served: str | None = None):
        self.app = app
        names = set(DEFAULT_HOSTS) | {host_name(h) for h in allowed or ()}
        if served:
            names.add(host_name(served))
        self.allowed = frozenset(names)

    def accepts(self, header: str) -> bool:
        name = host_name(header)
        return bool(name) and (name in self.allowed or _is_address(name))

    def __call__(self, environ, start_response):
        if self.accepts(environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")):
            return self.app(environ, start_response)
        body = b"unknown host: this server answers only for the names it serves\n"
        start_response(
            "400 Bad Request",
            [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
        )
        return [body]
