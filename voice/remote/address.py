"""`wyoming://HOST:PORT` addresses: recognised, checked and named in one place."""

from __future__ import annotations

from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TypeGuard
from urllib.parse import urlsplit

from host.errors import PartyhostError

SCHEME = "wyoming"


class AddressError(PartyhostError, ValueError):
    """A wyoming:// address that cannot be used; the message says how to write one."""


@dataclass(frozen=True)
class WyomingAddress:
    """Where a Wyoming service listens."""

    host: str
    port: int

    @property
    def uri(self) -> str:
        """The address as the wyoming package's clients take it (tcp://HOST:PORT)."""
        return f"tcp://{self._host_port}"

    def __str__(self) -> str:
        return f"{SCHEME}://{self._host_port}"

    @property
    def _host_port(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address
        return f"{host}:{self.port}"


def is_wyoming(value: str | None) -> TypeGuard[str]:
    """Whether a setting names a Wyoming service rather than a local part."""
    return value is not None and value.lower().startswith(f"{SCHEME}://")


def parse_address(value: str) -> WyomingAddress:
    """`wyoming://HOST:PORT` as an address; anything else is refused with an example."""
    example = f"write it as {SCHEME}://HOST:PORT, e.g. {SCHEME}://192.168.1.20:10700"
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        raise AddressError(f"{value!r} is not a Wyoming address: {example}") from None
    if parts.scheme.lower() != SCHEME or not parts.hostname or port is None:
        raise AddressError(f"{value!r} is not a Wyoming address: {example}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise AddressError(f"{value!r} has more than a host and a port: {example}")
    return WyomingAddress(parts.hostname, port)


def reason(error: BaseException, refused: str = "nothing is listening there") -> str:
    """Why a Wyoming service could not be used, in a few words for the terminal (never a
    traceback); `refused` says it for a refused connection (with a hint of what to run)."""
    import asyncio  # here, not at the top: reading an address (a setting) needs no network code

    if isinstance(error, ConnectionRefusedError):
        return refused
    if isinstance(error, (asyncio.TimeoutError, FutureTimeout, TimeoutError)):
        return "it did not answer in time"
    if isinstance(error, (asyncio.IncompleteReadError, EOFError)):
        return "it closed the connection"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
