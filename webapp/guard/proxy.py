"""Behind a reverse proxy: whose ``X-Forwarded-For`` to believe, and how many hops of it.

A proxy hides every player's address behind its own, so fair shares and rate
limits by address would treat everyone as one player; trusting the header from
anyone would let a client pick its own address. With ``TRUSTED_PROXIES`` = N
(``ARCADE_TRUSTED_PROXIES``, 0 by default) Werkzeug's :class:`ProxyFix` takes the
client address from the last N entries of ``X-Forwarded-For`` (and the scheme
from ``X-Forwarded-Proto``), the ones those N proxies added, so every later
reader (``request.remote_addr``, the Socket.IO connection's environ) sees the
resolved address. It wraps the whole WSGI app, Socket.IO included.
"""

from __future__ import annotations

from werkzeug.middleware.proxy_fix import ProxyFix


def trust_proxies(wsgi_app, proxies: int):
    """``wsgi_app`` reading client addresses through ``proxies`` trusted hops (0: as is)."""
    if proxies <= 0:
        return wsgi_app
    return ProxyFix(wsgi_app, x_for=proxies, x_proto=proxies)
