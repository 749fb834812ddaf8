"""This machine's loopback: free ports, many client addresses, enough open files."""

from __future__ import annotations

import ipaddress
import resource
import socket


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(count: int) -> int:
    """A port P with P + 1 ... P + count - 1 free too."""
    while True:
        port = free_port()
        try:
            for offset in range(1, count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port + offset))
            return port
        except OSError:
            continue


def loopback_addresses(count: int, first: str = "127.0.5.1") -> list[str]:
    """``count`` loopback addresses from ``first`` on, skipping each block's .0 and .255
    (every 127.x.y.z is this machine: per-address rules see many clients)."""
    found: list[str] = []
    address = ipaddress.ip_address(first)
    while len(found) < count:
        if address not in ipaddress.ip_network("127.0.0.0/8"):
            raise ValueError(f"{count} addresses from {first} leave 127.0.0.0/8")
        if str(address).rsplit(".", 1)[1] not in ("0", "255"):
            found.append(str(address))
        address += 1
    return found


def raise_open_files() -> int:
    """This process's soft limit on open files raised to the hard one (each simulated
    player holds one socket here too); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard
