"""Zeroconf (partyhost/discovery.py) as Home Assistant's own zeroconf sees it: a real
ServiceBrowser on 127.0.0.1 watches `_wyoming._tcp` while real advertisers come and go.

Home Assistant dismisses a "Discovered" card when the browser reports the service Removed,
and starts one when it is Added; an Updated name it is still offering is not discovered
again. So what is checked here is what the browser reports, and the port it resolves.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from partyhost.discovery import LOOPBACK, SERVICE_TYPE, Advertiser, Announcement, not_announced, start_announcing

REPO = Path(__file__).resolve().parents[1]
HERE = "127.0.0.1"
WITHIN_S = 5.0


class Watcher:
    """A browser of `_wyoming._tcp` on loopback, as Home Assistant runs one, keeping each change."""

    def __init__(self):
        self.zeroconf = AsyncZeroconf(interfaces=[HERE], ip_version=IPVersion.V4Only)
        self.changes: list[tuple[str, ServiceStateChange]] = []
        self.browser = AsyncServiceBrowser(self.zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._changed])

    def _changed(self, zeroconf, service_type, name, state_change):
        self.changes.append((name, state_change))

    def of(self, instance: str) -> list[ServiceStateChange]:
        return [change for name, change in self.changes if name == instance]

    async def until(self, instance: str, change: ServiceStateChange, after: int = 0) -> bool:
        deadline = time.monotonic() + WITHIN_S
        while time.monotonic() < deadline:
            if change in self.of(instance)[after:]:
                return True
            await asyncio.sleep(0.05)
        return False

    async def port(self, instance: str) -> int | None:
        info = AsyncServiceInfo(SERVICE_TYPE, instance)
        return info.port if await info.async_request(self.zeroconf.zeroconf, 3000) else None

    async def close(self):
        await self.browser.async_cancel()
        await self.zeroconf.async_close()


def unique_name() -> str:
    """A name no other test or process on this machine announces."""
    return f"partyhost-test-{uuid.uuid4().hex[:8]}"


def test_a_clean_stop_says_goodbye_so_home_assistant_forgets_the_service():
    async def run():
        watcher = Watcher()
        name = unique_name()
        advertiser = Advertiser(Announcement(name, HERE, 10801), interfaces=[HERE])
        try:
            await advertiser.announce()
            assert await watcher.until(advertiser.announcement.instance, ServiceStateChange.Added)
            assert await watcher.port(advertiser.announcement.instance) == 10801
            await advertiser.withdraw()
            assert await watcher.until(advertiser.announcement.instance, ServiceStateChange.Removed), watcher.changes
        finally:
            await watcher.close()

    asyncio.run(run())


ANNOUNCE_AND_WAIT = """
import asyncio, sys
from partyhost.discovery import Advertiser, Announcement
async def main():
    advertiser = Advertiser(Announcement(sys.argv[1], "127.0.0.1", int(sys.argv[2])), interfaces=["127.0.0.1"])
    await advertiser.announce()
    print("announced", flush=True)
    await asyncio.sleep(120)
asyncio.run(main())
"""


@pytest.mark.slow
def test_a_restart_on_another_port_replaces_the_record_an_earlier_instance_left():
    """The earlier instance is killed (no goodbye: a crash or a power cut), so the browser still
    holds its port. The new one keeps the name (no "-2"), and the browser reports the stale
    service Removed, then the new one, which resolves to the new port."""
    name = unique_name()
    instance = f"{name}.{SERVICE_TYPE}"

    async def run():
        watcher = Watcher()
        earlier = subprocess.Popen(
            [sys.executable, "-c", ANNOUNCE_AND_WAIT, name, "10801"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        try:
            assert earlier.stdout.readline().strip() == "announced"
            assert await watcher.until(instance, ServiceStateChange.Added)
            assert await watcher.port(instance) == 10801
        finally:
            os.kill(earlier.pid, signal.SIGKILL)
            earlier.wait(10)
        seen = len(watcher.of(instance))
        later = Advertiser(Announcement(name, HERE, 10802), interfaces=[HERE])
        try:
            await later.announce()
            assert later.name == name
            assert await watcher.until(instance, ServiceStateChange.Removed, after=seen), watcher.changes
            removed = seen + watcher.of(instance)[seen:].index(ServiceStateChange.Removed)
            assert await watcher.until(instance, ServiceStateChange.Added, after=removed + 1), watcher.changes
            await asyncio.sleep(1.5)  # what the cache-flush bit marks stale is gone after a second
            assert await watcher.port(instance) == 10802
        finally:
            await later.withdraw()
            await watcher.close()

    asyncio.run(run())


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "::1", "localhost", "LOCALHOST"])
def test_a_loopback_address_is_not_announced(address):
    assert not_announced(address) == LOOPBACK


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.7", "fd00::2", "box.local"])
def test_an_address_other_devices_reach_is_announced(address):
    assert not_announced(address) is None


def test_bound_to_loopback_nothing_is_announced_and_the_reason_names_the_address():
    advertiser, announced = asyncio.run(start_announcing(unique_name(), "127.0.0.1", 10801))
    assert advertiser is None and not announced.name
    assert announced.reason.startswith("bound to loopback (127.0.0.1)")
