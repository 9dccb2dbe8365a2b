"""One Wyoming server in use: talking to it, and whether to use it right now.

Each exchange opens its own connection (the servers close it after each request)
on a fresh event loop, so any thread may call. The whole answer has a deadline,
short because a player is waiting: a server that keeps sending something (an audio
chunk a second, never the end) is as slow as one that sends nothing; and what it
sends is read with size and nesting limits (voice/remote/wire.py). One slow answer
is read locally and forgiven (SLOW_LIMIT); a server that fails otherwise, or is slow
twice in a row, is set aside for the local part: the table is told once
(voice/remote/notices.py), the server is probed again in the background, at growing
intervals, and its return is told once too.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from wyoming.error import Error
from wyoming.event import Event, async_write_event
from wyoming.info import Describe, Info

from voice.remote.address import WyomingAddress, reason
from voice.remote.notices import Notice, Notices
from voice.remote.wire import EventLimits, read_event

CONNECT_TIMEOUT_S = 1.5
"""A server on the home network answers a connection at once; one that does not is off."""
ANSWERS = EventLimits(header=64 << 10, data=1 << 20, payload=4 << 20, depth=32)
"""What a server may send in one event: an Info of many models, a few seconds of audio."""
RETRY_FIRST_S = 20.0
RETRY_MAX_S = 300.0
"""A server set aside is probed after RETRY_FIRST_S, then at doubling intervals up to this."""

T = TypeVar("T")


class ServerError(ConnectionError):
    """A Wyoming server that cannot be used now; the message says why in plain words."""


class SlowAnswer(ServerError):
    """Connected, but the answer did not come in time (a long noisy stretch on a busy server)."""


SLOW_LIMIT = 2
"""Slow answers in a row before a server is set aside: one slow answer is read locally
without a word to the table; a server that is slow again is treated as gone."""


FAILURES = (OSError, EOFError, ValueError, asyncio.TimeoutError, ServerError)
"""What a lost, refused, slow or garbled server raises (wyoming reads JSON: ValueError)."""


class Connection:
    """One connection to a server: events written as the wyoming package writes them, read with ANSWERS."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    async def write_event(self, event: Event) -> None:
        await async_write_event(event, self.writer)

    async def read_event(self) -> Event | None:
        return await read_event(self.reader, ANSWERS)


def exchange(address: WyomingAddress, talk: Callable[[Connection], Awaitable[T]], deadline: float) -> T:
    """Connect, run `talk`, disconnect: the whole of it within `deadline` seconds, else SlowAnswer;
    raises one of FAILURES."""

    async def run() -> T:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(address.host, address.port), CONNECT_TIMEOUT_S)
        try:
            return await asyncio.wait_for(talk(Connection(reader, writer)), deadline)
        except asyncio.TimeoutError as error:
            raise SlowAnswer(f"it did not finish its answer within {deadline:.1f} s") from error
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass

    return asyncio.run(run())


async def next_event(client: Connection) -> Event:
    """The server's next event; a closed connection or an error event raises ServerError."""
    event = await client.read_event()
    if event is None:
        raise ServerError("it closed the connection")
    if Error.is_type(event.type):
        raise ServerError(f"it reported an error: {Error.from_event(event).text}")
    return event


def describe(address: WyomingAddress, timeout: float = 3.0) -> Info:
    """What the server offers (Describe -> Info)."""

    async def talk(client: Connection) -> Info:
        await client.write_event(Describe().event())
        while not Info.is_type((event := await next_event(client)).type):
            pass
        return Info.from_event(event)

    return exchange(address, talk, timeout)


@dataclass(frozen=True)
class Role:
    """What a server does for the host, for the notices and the check of its Info."""

    kind: str  # "asr" | "tts": the Info list that must not be empty
    name: str  # "speech recogniser", "voice"
    gone: str  # spoken when it fails: what the host does instead
    back: str  # spoken when it answers again
    instead: str  # printed when it fails: the local part used instead


class Link:
    """Whether to use a server now; tells the table once when it goes and when it returns."""

    def __init__(
        self,
        address: WyomingAddress,
        role: Role,
        notices: Notices | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.address, self.role = address, role
        self.notices = notices or Notices()
        self.clock = clock
        self.up = True
        self._retry_at = 0.0
        self._retry_s = RETRY_FIRST_S
        self._probing = False
        self._slow = 0
        self._lock = threading.Lock()

    def check(self) -> bool:
        """Probe the server now (at start): True if it offers what it should."""
        try:
            self._check_info(describe(self.address))
        except FAILURES as error:
            self.failed(error)
            return False
        return True

    def use_remote(self) -> bool:
        """True while the server is in use; when it is set aside, False, and a probe in
        the background once its retry time has come (the caller never waits for it)."""
        with self._lock:
            if self.up:
                return True
            if self._probing or self.clock() < self._retry_at:
                return False
            self._probing = True
        threading.Thread(target=self._probe, name=f"probe {self.address}", daemon=True).start()
        return False

    def answered(self) -> None:
        """The server answered a request in time."""
        self._slow = 0

    def went_wrong(self, error: BaseException) -> None:
        """A request failed: a first slow answer is forgiven (SLOW_LIMIT), anything else sets
        the server aside (failed)."""
        if isinstance(error, SlowAnswer):
            self._slow += 1
            if self._slow < SLOW_LIMIT:
                return
        self._slow = 0
        self.failed(error)

    def failed(self, error: BaseException) -> None:
        """The server failed a request: set it aside, and tell the table if it was in use."""
        with self._lock:
            was_up, self.up = self.up, False
            self._retry_at = self.clock() + self._retry_s
        if was_up:
            self.notices.post(
                Notice(
                    self.role.gone,
                    f"the {self.role.name} at {self.address} cannot be used "
                    f"({reason(error)}); {self.role.instead} until it answers again",
                )
            )

    def _probe(self) -> None:
        try:
            self._check_info(describe(self.address))
        except FAILURES:
            with self._lock:
                self._probing = False
                self._retry_s = min(RETRY_MAX_S, self._retry_s * 2)
                self._retry_at = self.clock() + self._retry_s
            return
        with self._lock:
            self._probing, self.up, self._retry_s = False, True, RETRY_FIRST_S
        self.notices.post(
            Notice(self.role.back, f"the {self.role.name} at {self.address} answers again; using it from now on")
        )

    def _check_info(self, info: Info) -> None:
        offered = getattr(info, self.role.kind) or []
        if not any(getattr(program, "installed", True) for program in offered):
            kinds = [k for k in ("asr", "tts", "wake", "handle", "intent", "mic", "snd") if getattr(info, k, None)] + (
                ["satellite"] if getattr(info, "satellite", None) else []
            )
            raise ServerError(f"it is not a {self.role.name} (it offers: {', '.join(kinds) or 'nothing'})")
