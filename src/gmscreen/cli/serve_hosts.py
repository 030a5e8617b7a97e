"""Who ``gmscreen serve`` answers: the addresses it serves, and pages of its own.

A browser sends every request with the ``Host`` it was asked for, and a page's scripts open a
websocket with the ``Origin`` of the page. Any web page the GM or a player has open can try
``ws://127.0.0.1:8019``, and a name the attacker controls can be made to point at this computer
(DNS rebinding: ``Host: evil.example``). So a request is answered only when

- its ``Host`` is one serve serves: ``localhost`` and the loopback addresses; the address
  it listens on (``--host``), or, listening on every network (``--host 0.0.0.0`` or ``::``),
  any address of this computer's interfaces; and the host of the address players are given
  (``--url``, else the one printed);
- and its ``Origin``, when it has one, is a page of this server: one of those hosts on this
  port, or the ``--url`` address itself (a proxy in front).

Whether an address is one of this computer's is asked of the system when a request names it
(binding a socket to it succeeds only then), so an interface that comes up later (a laptop
joining the table's Wi-Fi) is served too. Headers are hostile text: anything that is not a
plain host and port, or origin, is refused, never an error.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

import msgspec

WILDCARDS = ("0.0.0.0", "::", "")
DEFAULT_PORTS = {"http": 80, "https": 443}
LOOPBACK_NAMES = ("localhost",)


class Served(msgspec.Struct, frozen=True):
    """What a server serves: the address it listens on (``--host``), its port and the URL
    the players are given."""

    listen: str
    port: int
    url: str

    def names(self) -> set[str]:
        """The host names and addresses served whatever the interfaces (lowercase)."""
        names = set(LOOPBACK_NAMES)
        if self.listen not in WILDCARDS:
            names.add(self.listen.lower().strip("[]"))
        url_host = urlsplit(self.url).hostname
        if url_host:
            names.add(url_host)
        return names

    def serves_host(self, host: str) -> bool:
        """Whether ``host`` (lowercase, IPv6 without brackets) is an address served."""
        if host in self.names():
            return True
        address = ip_of(host)
        if address is None:
            return False
        if address.is_loopback:
            return True
        return self.listen in WILDCARDS and is_this_computer(address)

    def refusal(self, host_header: str | None, origin_header: str | None) -> str | None:
        """Why a request with these headers is refused (for the log), or None to answer it."""
        host = host_of(host_header) if host_header is not None else None
        if host is None or not self.serves_host(host):
            return f"Host {shown(host_header)} is not an address this server serves"
        if origin_header is not None and not self.serves_origin(origin_header):
            return f"Origin {shown(origin_header)} is a page of another site"
        return None

    def serves_origin(self, origin_header: str) -> bool:
        origin = origin_of(origin_header)
        if origin is None:
            return False
        if origin == url_origin(self.url):
            return True
        scheme, host, port = origin
        return scheme == "http" and port == self.port and self.serves_host(host)


def host_of(header: str) -> str | None:
    """The host of a ``Host`` header (``name``, ``name:port``, ``[::1]:port``), lowercase and
    without brackets; None when it is anything else."""
    parts = _split(f"//{header}")
    return parts.hostname if parts is not None else None


def origin_of(header: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an ``Origin`` header (the port said or the scheme's); None
    for ``null``, another scheme or anything else."""
    parts = _split(header)
    if parts is None or parts.hostname is None or parts.scheme not in DEFAULT_PORTS:
        return None
    return parts.scheme, parts.hostname, parts.port or DEFAULT_PORTS[parts.scheme]


def url_origin(url: str) -> tuple[str, str, int] | None:
    """The origin of the pages at ``url`` (``--url`` may have a path: a proxy's folder)."""
    parts = urlsplit(url)
    return origin_of(f"{parts.scheme}://{parts.netloc}")


def _split(text: str) -> SplitResult | None:
    """``text`` split as a URL that is only a scheme, a host and a port (None otherwise)."""
    if not text.isascii() or not text.isprintable() or len(text) > 300:
        return None
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number or out of range
    except ValueError:
        return None
    if parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    if parts.hostname is None or "%" in parts.hostname:  # no IPv6 zone: not a browser's
        return None
    return parts


def ip_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``host`` spells (an IPv4 address inside IPv6 as itself), or None."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_this_computer(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is one of this computer's: the system lets a socket bind to it only
    then (no packet is sent). The unspecified and multicast addresses are no interface's."""
    if address.is_unspecified or address.is_multicast:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def shown(header: str | None) -> str:
    """A header as the log quotes it: ``none``, or its first characters, as a repr."""
    if header is None:
        return "none"
    return repr(header if len(header) <= 80 else header[:79] + "…")
