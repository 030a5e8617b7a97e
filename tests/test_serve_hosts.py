"""Which requests ``gmscreen serve`` answers (#25.3): the Host and Origin checks on their own,
with the headers a browser sends and the ones an attacker would, and any text at all."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.cli.serve_hosts import Served, host_of, ip_of, is_this_computer, origin_of

LOCAL = Served("127.0.0.1", 8019, "http://127.0.0.1:8019")
EVERYWHERE = Served("0.0.0.0", 8019, "http://192.168.1.20:8019")
PROXIED = Served("127.0.0.1", 8019, "https://table.example/gm/")


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("127.0.0.1:8019", None),  # a page typed in the address bar: no Origin
        ("127.0.0.1:8019", "http://127.0.0.1:8019"),
        ("localhost:8019", "http://localhost:8019"),
        ("LOCALHOST:8019", "http://LocalHost:8019"),
        ("[::1]:8019", "http://[::1]:8019"),
        ("127.0.0.1:8019", "http://localhost:8019"),  # the page at one name, the socket another
        ("127.0.0.1", None),  # no port said
    ],
)
def test_what_a_browser_on_this_computer_sends_is_answered(host: str, origin: str | None) -> None:
    assert LOCAL.refusal(host, origin) is None


@pytest.mark.parametrize(
    ("host", "origin", "why"),
    [
        ("evil.example:8019", None, "Host"),  # DNS rebinding: the attacker's name, our address
        ("evil.example:8019", "http://evil.example:8019", "Host"),
        ("127.0.0.1:8019", "http://evil.example", "Origin"),  # a page of another site
        ("127.0.0.1:8019", "http://localhost:3000", "Origin"),  # another server here
        ("127.0.0.1:8019", "https://127.0.0.1:8019", "Origin"),  # not this server's scheme
        ("127.0.0.1:8019", "null", "Origin"),  # a sandboxed frame, a file:// page
        ("127.0.0.1:8019", "http://127.0.0.1:8019/path", "Origin"),
        (None, None, "Host"),
        ("", None, "Host"),
        ("evil.example@127.0.0.1:8019", None, "Host"),
        ("127.0.0.1:80x", None, "Host"),
        ("127.0.0.1:99999", None, "Host"),
        ("127.0.0.1/../x", None, "Host"),
        ("192.168.1.20:8019", None, "Host"),  # bound to 127.0.0.1 only: no other address
        ("0.0.0.0:8019", None, "Host"),
        ("[fe80::1%25eth0]:8019", None, "Host"),
        ("127.0.0.1\u200b:8019", None, "Host"),
        ("127.0.0.1:8019\r\nX: y", None, "Host"),
    ],
)
def test_other_sites_and_names_are_refused(host: str | None, origin: str | None, why: str) -> None:
    refusal = LOCAL.refusal(host, origin)
    assert refusal is not None and refusal.startswith(why)


def test_the_url_players_are_given_is_served() -> None:
    assert PROXIED.refusal("table.example", "https://table.example") is None
    assert PROXIED.refusal("table.example:443", "https://table.example:443") is None
    assert PROXIED.refusal("table.example", "http://table.example") is not None
    assert EVERYWHERE.refusal("192.168.1.20:8019", "http://192.168.1.20:8019") is None


def _network_address() -> str | None:
    """This computer's address on its network, if it has one beside loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def test_listening_everywhere_serves_each_address_of_this_computer() -> None:
    assert EVERYWHERE.refusal("198.51.100.77:8019", None) is not None  # no address of ours
    assert LOCAL.refusal("198.51.100.77:8019", None) is not None
    assert not is_this_computer(ipaddress.ip_address("0.0.0.0"))
    assert not is_this_computer(ipaddress.ip_address("224.0.0.1"))
    mine = _network_address()
    if mine is None:
        pytest.skip("this computer has no network address beside loopback")
    everywhere = Served("0.0.0.0", 8019, "http://gm-laptop.local:8019")
    assert everywhere.refusal(f"{mine}:8019", f"http://{mine}:8019") is None
    assert LOCAL.refusal(f"{mine}:8019", None) is not None  # bound to 127.0.0.1: not served


def test_headers_are_read_strictly() -> None:
    assert host_of("[::1]:8019") == "::1"
    assert host_of("Example.ORG") == "example.org"
    assert origin_of("http://Example.org") == ("http", "example.org", 80)
    assert origin_of("https://example.org:8443") == ("https", "example.org", 8443)
    assert origin_of("ftp://example.org") is None
    assert ip_of("::ffff:127.0.0.1") == ip_of("127.0.0.1")


@given(st.one_of(st.none(), st.text(max_size=400)), st.one_of(st.none(), st.text(max_size=400)))
def test_any_header_is_an_answer_never_an_error(host: str | None, origin: str | None) -> None:
    refusal = EVERYWHERE.refusal(host, origin)
    assert refusal is None or (refusal.isprintable() and len(refusal) < 200)
