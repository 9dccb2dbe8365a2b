"""The address phones and Home Assistant are told: one they can reach, or a clear "none".

Stock Debian and Raspberry Pi OS map the host name to 127.0.1.1, so an address found
from the host name alone was loopback there and phones could not join.
"""

from __future__ import annotations

import fcntl
import socket
import struct
from pathlib import Path

import pytest

from partyhost.phones import service

SIOCGIFADDR = 0x8915


def default_route_address() -> str | None:
    """The IPv4 address of the interface /proc/net/route gives the default route (Linux)."""
    routes = Path("/proc/net/route")
    if not routes.is_file():
        return None
    for line in routes.read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) > 1 and fields[1] == "00000000":
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", fields[0][:15].encode()))
            return socket.inet_ntoa(packed[20:24])
    return None


def hostname_is_loopback(monkeypatch):
    """The host name maps to 127.0.1.1, as /etc/hosts does on stock Debian."""
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *args, **kwargs: [(socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("127.0.1.1", 0))]
    )


def test_the_address_is_the_default_routes_interface_even_when_the_host_name_is_loopback(monkeypatch):
    expected = default_route_address()
    if expected is None:
        pytest.skip("this machine has no default route")
    hostname_is_loopback(monkeypatch)
    assert service.lan_address() == expected
    assert service.bind_address(None) == expected and service.bind_address("0.0.0.0") == "0.0.0.0"


class NoRoute(socket.socket):
    def connect(self, address):
        raise OSError(101, "Network is unreachable")


def test_with_no_network_it_says_so_clearly_and_serves_this_machine_only(monkeypatch, capsys):
    hostname_is_loopback(monkeypatch)
    monkeypatch.setattr(socket, "socket", NoRoute)
    assert service.lan_address() is None
    assert service.bind_address(None) == "127.0.0.1"
    assert capsys.readouterr().err == f"partyhost: {service.NO_NETWORK}\n"
    assert "phones cannot join" in service.NO_NETWORK


def test_without_a_default_route_a_private_address_of_the_host_name_is_used(monkeypatch):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *args, **kwargs: [
            (socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("127.0.1.1", 0)),
            (socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("192.168.1.20", 0)),
        ],
    )
    monkeypatch.setattr(socket, "socket", NoRoute)
    assert service.lan_address() == "192.168.1.20"
