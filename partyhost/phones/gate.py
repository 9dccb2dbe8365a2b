"""The phone server held to the rules of `partyhost serve` (partyhost/connection_limits.py).

At most PER_ADDRESS connections from one address and TOTAL_CONNECTIONS in all (fewer
under a low open-file limit), a newcomer beyond a cap closing the connection idle
longest; a connection with a request being handled, a WebSocket for its whole life, is
busy and never closed for a newcomer. Every log line of the server, and a failed accept,
is said at most once per kind every LOG_EVERY_S. (The idle time-out is
server.close_idle_connections.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from partyhost.connection_limits import FULL, Gate, Quiet, total_connections

PER_ADDRESS = 16
"""A phone's browser opens about six connections to a host, and one WebSocket."""
TOTAL_CONNECTIONS = 256
LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "partyhost.phones")


@dataclass(eq=False)
class PhoneConnection:
    """One connection of the phone server, as the gate sees it."""

    handler: Any  # aiohttp's RequestHandler
    address: str
    busy_ones: set[Any]
    last_done: dict[Any, float]
    opened: float = field(default_factory=time.monotonic)

    @property
    def busy(self) -> bool:
        return self.handler in self.busy_ones

    @property
    def idle_since(self) -> float:
        return self.last_done.get(self.handler, self.opened)

    def close(self) -> None:
        self.handler.force_close()


class PhoneGate:
    """Admits the server's connections through a Gate, and quiets its logs, while installed."""

    def __init__(self, busy_ones: set[Any], last_done: dict[Any, float], logger: logging.Logger):
        self.gate = Gate(PER_ADDRESS, total_connections(TOTAL_CONNECTIONS))
        self.quiet = Quiet(logger)
        self.busy_ones, self.last_done = busy_ones, last_done
        self._open: dict[Any, PhoneConnection] = {}

    def install(self, server: web.Server) -> None:
        """Wrap the server's own connection_made and connection_lost, which every connection calls."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: Any) -> None:
            made(handler, transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            connection = PhoneConnection(handler, address, self.busy_ones, self.last_done)
            if self.gate.admit(connection):
                self._open[handler] = connection
                return
            self.quiet.warning("full", f"turned away a connection from {address}: {FULL}")
            # Not closed here: aiohttp starts the handler's task after this returns, and a connection
            # lost before the task runs fails its assertions ("Task exception was never retrieved").
            asyncio.get_running_loop().call_soon(handler.force_close)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            connection = self._open.pop(handler, None)
            if connection is not None:
                self.gate.leave(connection)
            self.last_done.pop(handler, None)
            lost(handler, exc)

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]
        self.quiet.quiet(*map(logging.getLogger, LOGGERS))

    def uninstall(self) -> None:
        self.quiet.unquiet(*map(logging.getLogger, LOGGERS))
