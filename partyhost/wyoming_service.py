"""`partyhost serve`: the host as a Wyoming *handle* service, Home Assistant's conversation agent.

Home Assistant's Wyoming integration turns a service whose Info lists a `handle` program
into a conversation agent: for each thing a player says to an Assist device, it opens a
connection, sends a Transcript (with a conversation_id in its context) and speaks the
text of the Handled (or NotHandled) that comes back. That is text in, text out, which
is what a game Session needs from its ears and mouth (partyhost/conversation.py).

One game is played at a time (one table), whoever's device the words come from: a lock
makes transcripts take turns, so two devices at once cannot interleave in one game.
The game's thread is given by the caller (the command line starts or resumes games
exactly as `partyhost play` / `resume` do), so saving, the journal and the session
lock work as in typed play.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import Awaitable, Callable

from wyoming.asr import Transcript
from wyoming.event import Event
from wyoming.handle import Handled, NotHandled
from wyoming.info import Attribution, Describe, HandleModel, HandleProgram, Info
from wyoming.ping import Ping, Pong
from wyoming.server import AsyncEventHandler, AsyncTcpServer

from . import __version__
from .conversation import LONGEST_REPLY, Conversation, HostStopped

_LOGGER = logging.getLogger(__name__)

PROGRAM = "partyhost"
LANGUAGES = ["en"]
ANSWER_TIMEOUT = 30.0
"""Seconds a transcript waits for the game to take it and answer (rules take milliseconds)."""


def describe() -> Info:
    """What Home Assistant is told: one installed handle program, English, no home control."""
    attribution = Attribution(name="partyhost", url="")
    model = HandleModel(name="party-games", attribution=attribution, installed=True,
                        description="Keep It 100, Keep Cool, Zero to 100, 1 %, Centurion",
                        version=__version__, languages=LANGUAGES)
    return Info(handle=[HandleProgram(name=PROGRAM, attribution=attribution, installed=True,
                                      description="partyhost: an offline host for party games",
                                      version=__version__, models=[model],
                                      supports_handled_streaming=False, supports_home_control=False)])


@dataclass(frozen=True)
class Refusal:
    """A transcript that is not played: why, in words the assistant can speak."""

    text: str


def read_transcript(event: Event) -> str | Refusal:
    """The transcript's words, or why they cannot be a reply; nothing here touches the game."""
    text = event.data.get("text") if isinstance(event.data, dict) else None
    if not isinstance(text, str):
        return Refusal("I got no words to play with.")
    if len(text) > LONGEST_REPLY:
        return Refusal("That was too long to be an answer. Please say it again, shorter.")
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


class TableHandler(AsyncEventHandler):
    """One connection from Home Assistant (or any Wyoming client)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, table: "Table"):
        super().__init__(reader, writer)
        self.table = table

    async def run(self) -> None:
        """As the base class, but a malformed event ends only this connection, with one log line."""
        try:
            await super().run()
        except (AttributeError, KeyError, TypeError, ValueError, UnicodeDecodeError,
                asyncio.IncompleteReadError, ConnectionError) as error:
            _LOGGER.warning("dropped a connection that sent a malformed event: %s", error)

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(describe().event())
        elif Ping.is_type(event.type):
            await self.write_event(Pong(text=Ping.from_event(event).text).event())
        elif Transcript.is_type(event.type):
            await self.write_event(await self.table.answer(read_transcript(event)))
        else:
            _LOGGER.debug("ignored a %r event: this service handles transcripts", event.type)
        return True


class Table:
    """The one game table behind the service: its conversation and its thread."""

    def __init__(self, conversation: Conversation, play_games: Callable[[Conversation], None]):
        self.conversation = conversation
        self._turn = asyncio.Lock()
        self._thread = threading.Thread(target=play_games, args=(conversation,), name="partyhost game",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    async def answer(self, words: str | Refusal) -> Event:
        """Handled with the host's answer, or NotHandled with a reason; one at a time."""
        if isinstance(words, Refusal):
            return NotHandled(text=words.text).event()
        async with self._turn:
            try:
                if not words:
                    answer = await asyncio.to_thread(self.conversation.repeat)
                else:
                    answer = await asyncio.to_thread(self.conversation.exchange, words, ANSWER_TIMEOUT)
            except HostStopped as stopped:
                return NotHandled(text=f"Sorry, {stopped}. Try again in a moment.").event()
            except TimeoutError:
                return NotHandled(text="Sorry, the game did not answer in time. Please say it again.").event()
        return Handled(text=answer.text).event()

    def stop(self, wait: float = 10.0) -> None:
        """End the game's listening (the game is saved) and wait for its thread."""
        self.conversation.close()
        if self._thread.is_alive():
            self._thread.join(wait)


async def serve(table: Table, bind: str, port: int, stop: asyncio.Event,
                on_ready: Callable[[int], Awaitable[None]]) -> None:
    """Serve until `stop` is set; `on_ready` gets the port (the chosen one when port is 0)."""
    server = AsyncTcpServer(bind, port)
    await server.start(lambda reader, writer: TableHandler(reader, writer, table))
    sockets = server._server.sockets if server._server is not None else []   # the port chosen for port 0
    table.start()
    try:
        await on_ready(sockets[0].getsockname()[1] if sockets else port)
        await stop.wait()
    finally:
        await server.stop()
        await asyncio.to_thread(table.stop)


class ServiceError(Exception):
    """The service cannot start (the port is taken, the address is not this machine's)."""


def run_service(table: Table, bind: str, port: int, announce_as: str | None,
                ready: Callable[[int, str | None], None]) -> None:
    """Serve until SIGINT or SIGTERM; announced by zeroconf as `announce_as` unless None.

    `ready` gets the port and the address announced (None when not announced, or when
    announcing failed: the service works without it, added by address).
    """
    import signal

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        advertiser = None

        async def on_ready(chosen: int) -> None:
            nonlocal advertiser
            address = None
            if announce_as is not None:
                from .discovery import Advertiser, Announcement
                address = announced_address(bind)
                try:
                    advertiser = Advertiser(Announcement(announce_as, address, chosen))
                    await advertiser.announce()
                except Exception as error:   # zeroconf's errors are many; none may stop the game
                    _LOGGER.warning("could not announce the service on the network: %s", error)
                    advertiser, address = None, None
            ready(chosen, address)

        try:
            await serve(table, bind, port, stop, on_ready)
        except OSError as error:
            table.stop()
            raise ServiceError(f"cannot listen on {bind}:{port}: {error.strerror or error}") from error
        finally:
            if advertiser is not None:
                await advertiser.withdraw()

    asyncio.run(main())


def announced_address(bind: str) -> str:
    """The IPv4 address to announce: the bound one, or this machine's LAN address for 0.0.0.0."""
    if bind not in ("0.0.0.0", "", "::"):
        return bind
    from .phones.service import LOOPBACK, lan_address
    return lan_address() or LOOPBACK
