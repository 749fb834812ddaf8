"""Behind a reverse proxy: whose ``X-Forwarded-For`` to believe, and how many hops of it.

A proxy hides every player's address behind its own, so fair shares and rate
limits by address would treat everyone as one player; trusting the header from
anyone would let a client pick its own address. With ``TRUSTED_PROXIES`` = N
(``ARCADE_TRUSTED_PROXIES``, 0 by default) the client address is the Nth entry
from the end of ``X-Forwarded-For`` (the one the outermost of those N proxies
added), and the scheme comes from ``X-Forwarded-Proto``, but only:

* on a connection from one of ``PROXY_ADDRESSES`` (``ARCADE_PROXY_ADDRESSES``,
  addresses or CIDR networks, ``127.0.0.1`` by default): a client that reaches
  the app directly cannot pick its own address;
* when that entry is an IP address (``ipaddress``): anything else (``<script>``,
  a name, an empty entry) is ignored and the connection's address stays.

It wraps the whole WSGI app, so every later reader (``request.remote_addr``, the
host guard, the Socket.IO connection's environ and its per-address caps) sees
the same resolved address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(entries: Iterable[str] | None) -> tuple[Network, ...]:
    """``entries`` (addresses or CIDR networks) as networks; a bad entry is a ValueError
    naming it, so a typo stops the server at start-up instead of trusting nobody."""
    found = []
    for entry in entries or ():
        try:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"ARCADE_PROXY_ADDRESSES: {entry!r} is not an address") from None
    return tuple(found)


def _address(text: str) -> str | None:
    """``text`` as a normalised IP address, or None when it is not one."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def _within(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


class TrustedProxies:
    """WSGI middleware: the client's address and scheme as ``hops`` trusted proxies
    forwarded them, on connections from ``trusted`` networks only."""

    def __init__(self, app, hops: int, trusted: tuple[Network, ...]):
        self.app, self.hops, self.trusted = app, hops, trusted

    def __call__(self, environ, start_response):
        peer = environ.get("REMOTE_ADDR") or ""
        if _within(peer, self.trusted):
            environ["arcade.proxy_addr"] = peer  # in place, as ProxyFix does
            forwarded = [
                part.strip() for part in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")
            ]
            if len(forwarded) >= self.hops and forwarded[-self.hops]:
                client = _address(forwarded[-self.hops])
                if client is not None:
                    environ["REMOTE_ADDR"] = client
            schemes = [p.strip() for p in environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")]
            if len(schemes) >= self.hops and schemes[-self.hops] in ("http", "https"):
                environ["wsgi.url_scheme"] = schemes[-self.hops]
        return self.app(environ, start_response)


def trust_proxies(wsgi_app, proxies: int, addresses: Iterable[str] | None = ("127.0.0.1",)):
    """``wsgi_app`` reading client addresses through ``proxies`` trusted hops at
    ``addresses`` (0 hops: as is)."""
    if proxies <= 0:
        return wsgi_app
    return TrustedProxies(wsgi_app, proxies, networks(addresses))
