"""Zeroconf (mDNS): the service announced as `_wyoming._tcp`, which Home Assistant discovers.

Home Assistant's Wyoming integration listens for `_wyoming._tcp.local.`; a service found
there shows up under Settings -> Devices & services as "Discovered", and adding it asks it
to Describe itself. The wyoming package's own helper pins an old zeroconf and cannot
withdraw its announcement, so the zeroconf package is used directly: announced at start,
withdrawn (a goodbye packet) at stop, so no stale entry lingers on the network.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

SERVICE_TYPE = "_wyoming._tcp.local."


@dataclass(frozen=True)
class Announcement:
    """What is announced: an instance name, an IPv4 address and a port."""

    name: str
    address: str
    port: int

    @property
    def instance(self) -> str:
        return f"{self.name}.{SERVICE_TYPE}"


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

    async def announce(self) -> None:
        await self._zeroconf.async_register_service(self._info, allow_name_change=True)

    async def withdraw(self) -> None:
        await self._zeroconf.async_unregister_service(self._info)
        await self._zeroconf.async_close()
