"""One open connection to a Wyoming satellite, shared by the table's ears and mouth.

A satellite (wyoming-satellite, ESPHome, Voice PE) is a TCP server that serves one
"server" at a time: the first connection that sends it an event other than
Describe takes it over, and later ones are turned away while that one lasts. So
partyhost keeps a single connection per satellite, whether it is used as the
microphone, the speaker or both.

The conversation, as Home Assistant holds it: Describe -> Info (is it a
satellite?); RunSatellite starts the microphone stream (AudioChunk events,
16 kHz 16-bit mono from its --mic-command); AudioStart / AudioChunk / AudioStop
sent to it are played through its --snd-command. The connection runs on an
asyncio loop in its own thread; callers block on it with short timeouts.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from wyoming.audio import AudioChunk
from wyoming.client import AsyncTcpClient
from wyoming.event import Event
from wyoming.info import Describe, Info
from wyoming.satellite import RunSatellite

from voice.remote.address import WyomingAddress, reason

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 3.0
"""A satellite on the home network answers at once; one that does not is off or unreachable."""


class SatelliteUnavailable(ConnectionError):
    """The satellite cannot be reached or used now; the message says why in plain words."""


REFUSED = "nothing is listening there (is wyoming-satellite running?)"


class SatelliteLink:
    """The connection to one satellite: connect, listen to its microphone, play on it.

    `on_audio` (set by the microphone side) is called on the link's thread with each
    AudioChunk. A lost connection is noticed by the reader (end of stream) or by a
    failed write; `ensure_connected()` opens a fresh one.
    """

    def __init__(self, address: WyomingAddress, timeout_s: float = CONNECT_TIMEOUT_S):
        self.address = address
        self.timeout_s = timeout_s
        self.name = str(address)  # the satellite's own name once it has told us
        self.on_audio: Callable[[AudioChunk], None] | None = None
        self.generation = 0  # counts connections: a change means it was lost meanwhile
        self._client: AsyncTcpClient | None = None
        self._streaming = False
        self._lock = threading.RLock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name=f"satellite {address}")
        self._thread.start()

    @property
    def connected(self) -> bool:
        return self._client is not None

    def ensure_connected(self) -> None:
        """Connect (Describe, check it is a satellite) unless connected; raises SatelliteUnavailable."""
        with self._lock:
            if self._client is None:
                self._run(self._connect(), self.timeout_s * 2 + 1)
            if self.on_audio is not None and not self._streaming:
                self._run(self._write(RunSatellite().event()), self.timeout_s)
                self._streaming = True

    def listen(self, on_audio: Callable[[AudioChunk], None]) -> None:
        """Stream the satellite's microphone to `on_audio` (connecting if needed)."""
        self.on_audio = on_audio
        self.ensure_connected()

    def send(self, events: list[Event]) -> None:
        """Write events in order; raises SatelliteUnavailable if the connection fails."""
        with self._lock:
            if self._client is None:
                raise SatelliteUnavailable(f"the satellite {self.name} is not connected")
            self._run(self._write_all(events), self.timeout_s)

    def drop(self) -> None:
        """Close the connection (a stalled stream); the next ensure_connected() opens a new one."""
        with self._lock:
            self._run(self._disconnect(), self.timeout_s, quiet=True)

    def close(self) -> None:
        self.on_audio = None
        self.drop()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=2)

    # ---- on the link's thread ------------------------------------------------

    def _run(self, coroutine: Coroutine[Any, Any, Any], timeout: float, quiet: bool = False) -> None:
        if not self._thread.is_alive():
            coroutine.close()
            if quiet:
                return
            raise SatelliteUnavailable(f"the link to {self.name} is closed")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            future.result(timeout)
        except SatelliteUnavailable:
            raise
        except Exception as error:  # any failure of the network or the peer, in plain words
            future.cancel()
            if not quiet:
                raise SatelliteUnavailable(f"cannot use the satellite {self.name}: {reason(error, REFUSED)}") from error

    async def _connect(self) -> None:
        client = AsyncTcpClient(self.address.host, self.address.port)
        await asyncio.wait_for(client.connect(), self.timeout_s)
        try:
            await client.write_event(Describe().event())
            info = await asyncio.wait_for(self._info(client), self.timeout_s)
        except BaseException:
            await client.disconnect()
            raise
        if info.satellite is None:
            await client.disconnect()
            offers = [
                kind for kind in ("asr", "tts", "wake", "handle", "intent", "mic", "snd") if getattr(info, kind, None)
            ]
            raise SatelliteUnavailable(
                f"{self.address} is not a satellite (it offers {', '.join(offers) or 'nothing'}); "
                "give the address of a wyoming-satellite, usually port 10700"
            )
        self.name = f"{info.satellite.name!r} at {self.address}" if info.satellite.name else str(self.address)
        self._client, self._streaming = client, False
        self.generation += 1
        asyncio.get_running_loop().create_task(self._read(client))
        log.info("connected to the satellite %s", self.name)

    @staticmethod
    async def _info(client: AsyncTcpClient) -> Info:
        while True:
            event = await client.read_event()
            if event is None:
                raise SatelliteUnavailable("the satellite closed the connection without describing itself")
            if Info.is_type(event.type):
                return Info.from_event(event)

    async def _read(self, client: AsyncTcpClient) -> None:
        """Hand on microphone audio until the stream ends (the satellite went away)."""
        try:
            while (event := await client.read_event()) is not None:
                if AudioChunk.is_type(event.type):
                    callback = self.on_audio
                    if callback is not None:
                        callback(AudioChunk.from_event(event))
                else:
                    log.debug("satellite %s: %s", self.name, event.type)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            log.debug("satellite %s: reading failed: %s", self.name, error)
        if self._client is client:
            log.info("the satellite %s closed the connection", self.name)
            self._client = None
            self._streaming = False

    async def _write(self, event: Event) -> None:
        await self._write_all([event])

    async def _write_all(self, events: list[Event]) -> None:
        client = self._client
        if client is None:
            raise SatelliteUnavailable(f"the satellite {self.name} went away")
        try:
            for event in events:
                await client.write_event(event)
        except BaseException:
            if self._client is client:
                self._client, self._streaming = None, False
            raise

    async def _disconnect(self) -> None:
        client, self._client, self._streaming = self._client, None, False
        if client is not None:
            await client.disconnect()
