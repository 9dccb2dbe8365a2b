"""Running the phone server beside a game: its thread, its address, and how players find it.

The server gets its own thread and asyncio loop, so the session loop stays the
plain blocking loop it is. It binds to one address: the machine's LAN address
by default (that of the interface with the default route, found without sending
anything), 127.0.0.1 when there is none (and the host says phones cannot join),
and all interfaces only when the settings ask for "0.0.0.0".
"""

from __future__ import annotations

import asyncio
import io
import ipaddress
import logging
import socket
import sys
import threading
from dataclasses import dataclass
from typing import TextIO

from aiohttp import web

from host.errors import PartyhostError
from partyhost.connection_limits import BACKLOG, watch_the_loop
from partyhost.logs import stderr_handler

from .gate import PhoneGate
from .hub import PhoneHub
from .seats import SeatBook
from .server import BUSY, DONE, REQUEST_TIMEOUT_S, close_idle_connections, make_app

LOG = logging.getLogger("partyhost.phones")
START_TIMEOUT_S = 10.0


class PhoneServerError(PartyhostError):
    """The phone server could not start (port taken, address not on this machine)."""


LOOPBACK = "127.0.0.1"
PROBE = "198.51.100.1"
"""An address of TEST-NET-2 (RFC 5737), in use nowhere: the kernel reaches it, like any
outside address, through the interface with the default route. Connecting a UDP socket
to it only chooses that route; nothing is sent."""
NO_NETWORK = (
    "no network address that other devices can reach was found (no default route, and "
    "the host name gives only a loopback address): phones cannot join and Home Assistant "
    "cannot connect, so it listens on 127.0.0.1, this machine only. Connect it to the "
    "network, or set phones_bind or serve_bind in the settings"
)
NO_NETWORK_SPOKEN = "I found no network that phones could reach me on, so they cannot join."


def lan_address() -> str | None:
    """The address phones and Home Assistant reach this machine at: that of the interface
    with the default route; without one (a network with no way out), the first private
    address its host name gives. None when there is only loopback: stock Debian and
    Raspberry Pi OS map the host name to 127.0.1.1, which no other device can reach."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBE, 9))
            routed = probe.getsockname()[0]
        if not ipaddress.ip_address(routed).is_loopback and not ipaddress.ip_address(routed).is_unspecified:
            return routed
    except OSError:
        pass  # no default route: try the host name
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    found = [ipaddress.ip_address(info[4][0]) for info in infos]
    return next((str(a) for a in found if a.is_private and not a.is_loopback), None)


def bind_address(setting: str | None) -> str:
    """The address a server binds to: the setting, else lan_address(), else 127.0.0.1 after
    saying on the terminal that no other device can reach it."""
    if setting:
        return setting
    found = lan_address()
    if found is None:
        print(f"partyhost: {NO_NETWORK}", file=sys.stderr, flush=True)
    return found or LOOPBACK


@dataclass(frozen=True)
class JoinAddress:
    """Where phones join: what the host says, prints and puts in the QR code."""

    host: str
    port: int
    code: str

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/?code={self.code}"

    @property
    def spoken(self) -> str:
        """Short and sayable; the code digit by digit. Never a seat's token."""
        return f"Your secret cards are on your phones. {self.how_to_join}"

    @property
    def how_to_join(self) -> str:
        digits = " ".join(self.code)
        where = "this computer" if self.host in ("0.0.0.0", "::") else self.host
        return f"Join at {where} port {self.port}, with the code {digits}, and choose your seat."

    def qr_text(self) -> str:
        """The join link as a QR code drawn with text characters, for the terminal."""
        import qrcode

        code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
        code.add_data(self.url)
        code.make(fit=True)
        out = io.StringIO()
        code.print_ascii(out=out, invert=True)
        return out.getvalue()


class PhoneService:
    """The server of one game's phone pages, in a background thread."""

    def __init__(self, hub: PhoneHub, seats: SeatBook, bind: str, port: int):
        self.hub, self.seats, self.bind, self.requested_port = hub, seats, bind, port
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: asyncio.Task | None = None
        self._gate: PhoneGate | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def address(self) -> JoinAddress:
        return JoinAddress(self.bind, self.port, self.seats.code)

    def start(self) -> JoinAddress:
        self._thread = threading.Thread(target=self._run, name="phone-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            raise PhoneServerError("the phone server did not start in time")
        if self._error is not None:
            raise PhoneServerError(
                f"cannot serve phones on {self.bind} port {self.requested_port}: {self._error}"
            ) from self._error
        return self.address

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            runner = loop.run_until_complete(self._open())
        except Exception as error:  # whatever stops it listening is reported by start()
            self._error = error
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            if self._watch is not None:
                self._watch.cancel()
            loop.run_until_complete(runner.cleanup())
            _finish_tasks(loop)
            if self._gate is not None:
                self._gate.uninstall()
            loop.close()

    async def _open(self) -> web.AppRunner:
        """Listen; the runner, which the thread cleans up when it stops."""
        app = make_app(self.hub, self.seats)
        # lingering_time: after an answer to a body never finished (408), read what still
        # comes for 1 s at most (aiohttp's default, 10 s more, would let a slow body linger).
        runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=2.0, keepalive_timeout=REQUEST_TIMEOUT_S, lingering_time=1.0
        )
        await runner.setup()
        assert runner.server is not None, "set up above"
        self._gate = PhoneGate(app[BUSY], app[DONE], LOG)
        self._gate.install(runner.server)
        watch_the_loop(asyncio.get_running_loop(), self._gate.quiet)
        site = web.TCPSite(runner, self.bind, self.requested_port, backlog=BACKLOG)
        await site.start()
        self.port = runner.addresses[0][1]
        self._watch = asyncio.get_running_loop().create_task(close_idle_connections(runner, app))
        return runner

    def stop(self) -> None:
        """Close every page's connection and the server; safe to call twice."""
        if self._loop is None or self._thread is None or not self._thread.is_alive():
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)


def _finish_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what is left (a page's handler whose connection closed under it) and let it end,
    so closing the loop does not log "Task was destroyed but it is pending"."""
    left = asyncio.all_tasks(loop)
    for task in left:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))


def show_join(address: JoinAddress, out: TextIO = sys.stdout) -> None:
    """Print the join link and its QR code on the terminal."""
    out.write(f"PHONES: open {address.url} (join code {address.code})\n")
    out.write(address.qr_text())
    out.flush()


def log_to_stderr() -> None:
    """Refused requests are warnings: show them on the host's terminal unless logging is set up."""
    if not LOG.handlers:
        LOG.addHandler(stderr_handler("phones: "))
        LOG.setLevel(logging.INFO)
