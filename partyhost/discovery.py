"""Zeroconf (mDNS): the service announced as `_wyoming._tcp`, which Home Assistant discovers.

Home Assistant's Wyoming integration listens for `_wyoming._tcp.local.`; a service found
there shows up under Settings -> Devices & services as "Discovered", and adding it asks it
to Describe itself. The wyoming package's own helper pins an old zeroconf and cannot
withdraw its announcement, so the zeroconf package is used directly.

What Home Assistant does with what it hears decides what is sent:
- A clean stop sends goodbyes (records with a time to live of 0), and waits until they
  are out: Home Assistant drops the service and dismisses its "Discovered" card.
- An earlier instance that died without its goodbyes (a crash, a power cut, a kill) stays
  in Home Assistant's cache with its old port, and a "Discovered" card for it would keep
  that port: a new announcement of the same name is only an update, and Home Assistant
  will not start a second discovery of a name it is still offering. So a start first
  probes the name (a live instance that holds it keeps it, and this one takes the next,
  "-2"), then says goodbye to whatever an earlier instance left under it, then announces:
  Home Assistant forgets the stale service and discovers this one anew. The announcement's
  records that can have only one value (port, address) carry the cache-flush bit, so any
  cache that missed the goodbye replaces them too.
- A loopback address reaches this machine only, so it is never announced (not_announced).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

SERVICE_TYPE = "_wyoming._tcp.local."
GOODBYE_S = 3.0
"""How long a stop waits for its goodbyes to go out (three, an eighth of a second apart)."""
LOOPBACK = "bound to loopback"


@dataclass(frozen=True)
class Announcement:
    """What is announced: an instance name, an IPv4 address and a port."""

    name: str
    address: str
    port: int

    @property
    def instance(self) -> str:
        return f"{self.name}.{SERVICE_TYPE}"


def not_announced(address: str) -> str | None:
    """Why a service listening on `address` is not announced (None: it is). A loopback
    address (127.x, ::1, localhost) reaches this machine only: announced, it would offer
    Home Assistant on another machine a service it cannot connect to."""
    if address.lower() == "localhost":
        return LOOPBACK
    try:
        loopback = ipaddress.ip_address(address).is_loopback
    except ValueError:
        return None
    return LOOPBACK if loopback else None


class Advertiser:
    """Announces one service until `withdraw`."""

    def __init__(self, announcement: Announcement, interfaces: list[str] | None = None):
        self.announcement = announcement
        self._zeroconf = AsyncZeroconf(interfaces=interfaces or [announcement.address], ip_version=IPVersion.V4Only)
        self._info = AsyncServiceInfo(
            SERVICE_TYPE,
            announcement.instance,
            port=announcement.port,
            addresses=[socket.inet_aton(announcement.address)],
            server=f"{announcement.name}.local.",
        )

    @property
    def name(self) -> str:
        """The instance name announced: the one asked for, or "-2" ... where a live instance held it."""
        return self._info.name.removesuffix(f".{SERVICE_TYPE}")

    async def announce(self) -> None:
        """Probe the name, say goodbye to a stale record of it, announce (module docstring);
        returns once the announcements are out."""
        zeroconf = self._zeroconf.zeroconf
        await zeroconf.async_wait_for_start()
        await zeroconf.async_check_service(self._info, allow_name_change=True)
        # Not registered yet, so this only sends goodbyes: for the name's pointer, which an
        # earlier instance's stale record shares, and for this instance's own records.
        goodbyes = await self._zeroconf.async_unregister_service(self._info)
        await goodbyes
        # Probed above: announced at once, as a responder that knows the name is its own.
        sent = await self._zeroconf.async_register_service(self._info, cooperating_responders=True)
        await sent

    async def withdraw(self) -> None:
        """Goodbyes for every record, sent before the sockets close (else none would go out)."""
        try:
            sent = await self._zeroconf.async_unregister_service(self._info)
            await asyncio.wait_for(sent, GOODBYE_S)
        finally:
            await self.close()

    async def close(self) -> None:
        """Close the sockets; anything still registered gets its goodbye first."""
        await self._zeroconf.async_close()


@dataclass(frozen=True)
class Announced:
    """Where the service was announced (its name, which may have gained a "-2", and address),
    or why it was not (`reason`, for the terminal)."""

    name: str = ""
    address: str = ""
    reason: str = ""


def announced_address(bind: str) -> str | None:
    """The IPv4 address to announce: the bound one, or for 0.0.0.0 this machine's LAN address
    (None: it has none other devices reach)."""
    if bind not in ("0.0.0.0", "", "::"):
        return bind
    from partyhost.phones.service import lan_address

    return lan_address()


async def start_announcing(name: str, bind: str, port: int) -> tuple[Advertiser | None, Announced]:
    """Announce the service listening on `bind`:`port` as `name`; the advertiser to withdraw at
    the stop (None when nothing was announced) and what became of it. Never raises: the
    service works without discovery, added by address."""
    address = announced_address(bind)
    if address is None:
        return None, Announced(reason="this machine has no network address other devices can reach")
    reason = not_announced(address)
    if reason is not None:
        return None, Announced(reason=f"{reason} ({address}), which only this machine can reach")
    advertiser = None
    try:
        advertiser = Advertiser(Announcement(name, address, port))
        await advertiser.announce()
    except Exception as error:  # zeroconf's errors are many (and OSError); none may stop the game
        if advertiser is not None:
            await _closed(advertiser)
        return None, Announced(reason=f"announcing on the network failed ({error or type(error).__name__})")
    return advertiser, Announced(advertiser.name, address)


async def stop_announcing(advertiser: Advertiser) -> str | None:
    """Withdraw with goodbyes; what went wrong (None: nothing), for the log, never raised."""
    try:
        await advertiser.withdraw()
    except Exception as error:  # a network gone at the stop: Home Assistant forgets it by its TTL
        return f"could not withdraw the announcement ({error or type(error).__name__})"
    return None


async def _closed(advertiser: Advertiser) -> None:
    try:
        await advertiser.close()
    except Exception:  # closing after a failure: nothing more to tell
        pass
