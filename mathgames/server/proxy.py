"""Who is visiting: the visitor's address (through a proxy the teacher trusts), and whether
a request is only a browser's prefetch.
"""

from __future__ import annotations

import ipaddress
from typing import Any

__all__ = ["Networks", "client_address", "is_prefetch", "trusted_networks"]


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def trusted_networks(addresses: list[str] | tuple[str, ...]) -> Networks:
    """The proxies named by ``--trusted-proxy`` (addresses or networks), checked.

    >>> [str(n) for n in trusted_networks(["10.0.0.5", "192.168.1.0/24"])]
    ['10.0.0.5/32', '192.168.1.0/24']
    >>> trusted_networks(["proxy.school"])
    Traceback (most recent call last):
    ...
    ValueError: --trusted-proxy: 'proxy.school' is not an IP address or network
    """
    networks = []
    for address in addresses:
        try:
            networks.append(ipaddress.ip_network(address.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy: {address!r} is not an IP address or "
                             "network") from None
    return tuple(networks)


def _within(address: str, networks: Networks) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: str | None, trusted: Networks) -> str:
    """The visitor's address: the connection's own (``peer``), unless it comes from a
    trusted proxy; then the last address of ``X-Forwarded-For`` that is not a trusted
    proxy (what the proxy saw; anything a client wrote before it is not believed).

    >>> proxy = trusted_networks(["127.0.0.1"])
    >>> client_address("127.0.0.1", "6.6.6.6, 10.1.2.3", proxy)
    '10.1.2.3'
    >>> client_address("10.9.9.9", "10.1.2.3", proxy)  # not from the proxy: header ignored
    '10.9.9.9'
    >>> client_address("127.0.0.1", "10.1.2.3", ())  # no proxy named: header ignored
    '127.0.0.1'
    >>> client_address("127.0.0.1", "not an address", proxy)
    '127.0.0.1'
    """
    if not trusted or not forwarded_for or not _within(peer, trusted):
        return peer
    for hop in reversed(forwarded_for.split(",")[-32:]):
        hop = hop.strip()
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer
        if not _within(hop, trusted):
            return hop
    return peer


def is_prefetch(headers: Any) -> bool:
    """Whether a request is a browser's prefetch or prerender (no one is looking yet).

    >>> is_prefetch({"Sec-Purpose": "prefetch;prerender"}), is_prefetch({"Purpose": "prefetch"})
    (True, True)
    >>> is_prefetch({"Accept": "text/html"})
    False
    """
    return any("prefetch" in (headers.get(name) or "").lower()
               for name in ("Sec-Purpose", "Purpose", "X-Purpose", "X-Moz"))


