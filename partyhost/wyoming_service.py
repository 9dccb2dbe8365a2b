"""`partyhost serve`: the host as a Wyoming *handle* service, Home Assistant's conversation agent.

Home Assistant's Wyoming integration turns a service whose Info lists a `handle` program
into a conversation agent: for each thing a player says to an Assist device, it opens a
connection, sends a Transcript (with a conversation_id in its context) and speaks the
text of the Handled (or NotHandled) that comes back. That is text in, text out, which
is what a game Session needs from its ears and mouth (partyhost/conversation.py).

One game is played at a time (one table), whoever's device the words come from:
transcripts take turns, so two devices at once cannot interleave in one game, and each
is answered within ANSWER_BOUND_S, with "one moment" while the game is still busy
(Home Assistant's client waits for ever; partyhost/answer_bound.py).
The game's thread is given by the caller (partyhost/served_games.py starts or resumes
games with the same Table as `partyhost play` / `resume`), so saving, the journal and
the session lock work as in typed play.

The port is open to the network, so every connection is held to what Home Assistant
does (one short connection per request): an event must arrive whole within
EVENT_TIMEOUT_S of connecting or of the last answer (a slow or silent connection is
closed, as the phone server closes one after 10 s); events are read with size and
nesting limits (voice/remote/wire.py) and anything else drops that connection with one
log line (at most one a LOG_EVERY_S per kind); and at most PER_ADDRESS connections from
one address and TOTAL_CONNECTIONS in all are kept (fewer if the process may open few
files). A newcomer beyond a cap closes the connection idle longest, so a player is
served however many idle connections someone holds (partyhost/connection_limits.py, the
rules the phone server follows too).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wyoming.asr import Transcript
from wyoming.event import Event, async_write_event
from wyoming.handle import Handled, NotHandled
from wyoming.info import Attribution, Describe, HandleModel, HandleProgram, Info
from wyoming.ping import Ping, Pong

from host.errors import PartyhostError, one_line
from partyhost import __version__
from partyhost.answer_bound import ANSWER_BOUND_S, AnswerBound
from partyhost.connection_limits import BACKLOG, FULL, Gate, Quiet, total_connections, watch_the_loop
from partyhost.conversation import LONGEST_REPLY, Conversation, HostStopped
from partyhost.logs import one_line_logs
from voice.remote.wire import BadEvent, EventLimits, read_event

if TYPE_CHECKING:  # zeroconf is imported only where the service announces itself
    from partyhost.discovery import Announced

_LOGGER = logging.getLogger(__name__)

PROGRAM = "partyhost"
LANGUAGES = ["en"]
ANSWER_TIMEOUT = 30.0
"""Seconds the game has to take a transcript and answer it; the request itself hears "one
moment" after ANSWER_BOUND_S, and this work's answer is the next request's."""
EVENT_TIMEOUT_S = 10.0
"""A connection must send a whole event this soon after connecting or after its last answer."""
PER_ADDRESS = 8
TOTAL_CONNECTIONS = 64
"""Connections kept open at once: from one address, and in all (see total_connections)."""
LIMITS = EventLimits(header=8 << 10, data=64 << 10, payload=64 << 10, depth=16)
"""A transcript is a line of text; an audio chunk (ignored) is a few kilobytes."""


def describe() -> Info:
    """What Home Assistant is told: one installed handle program, English, no home control."""
    attribution = Attribution(name="partyhost", url="")
    model = HandleModel(
        name="party-games",
        attribution=attribution,
        installed=True,
        description="Keep It 100, Keep Cool, Zero to 100, 1 %, Centurion",
        version=__version__,
        languages=LANGUAGES,
    )
    return Info(
        handle=[
            HandleProgram(
                name=PROGRAM,
                attribution=attribution,
                installed=True,
                description="partyhost: an offline host for party games",
                version=__version__,
                models=[model],
                supports_handled_streaming=False,
                supports_home_control=False,
            )
        ]
    )


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
    return one_line(text)


class RequestHandler:
    """One connection from Home Assistant (or any Wyoming client)."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, game: GameThread, gate: Gate, quiet: Quiet
    ):
        self.reader, self.writer, self.game, self.gate, self.quiet = reader, writer, game, gate, quiet
        peer = writer.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.busy = False
        self.idle_since = time.monotonic()

    async def write_event(self, event: Event) -> None:
        await async_write_event(event, self.writer)

    async def run(self) -> None:
        """Events until the peer closes; a slow, silent, malformed or oversized one ends only this
        connection (module docstring)."""
        if not self.gate.admit(self):
            self.quiet.warning("full", f"turned away a connection from {self.address}: {FULL}")
            self.close()
            return
        try:
            while (event := await asyncio.wait_for(read_event(self.reader, LIMITS), EVENT_TIMEOUT_S)) is not None:
                self.busy = True
                try:
                    await self.handle_event(event)
                finally:
                    self.busy, self.idle_since = False, time.monotonic()
        except BadEvent as error:
            self.quiet.warning("malformed", f"dropped a connection from {self.address} that sent {error}")
        except asyncio.TimeoutError:
            self.quiet.warning(
                "slow", f"closed a connection from {self.address}: no whole event in {EVENT_TIMEOUT_S:g} s"
            )
        except OSError:
            pass  # the peer went away (a reset, a broken pipe): nothing to tell
        finally:
            self.gate.leave(self)
            self.close()

    def close(self) -> None:
        self.writer.close()
        self.reader.feed_eof()

    async def handle_event(self, event: Event) -> None:
        if Describe.is_type(event.type):
            await self.write_event(describe().event())
        elif Ping.is_type(event.type):
            await self.write_event(Pong(text=_text(event.data.get("text"))).event())
        elif Transcript.is_type(event.type):
            await self.write_event(await self.game.answer(read_transcript(event)))
        else:
            _LOGGER.debug("ignored a %r event: this service handles transcripts", event.type[:40])


def _text(value: Any) -> str | None:
    return value[:LONGEST_REPLY] if isinstance(value, str) else None


class GameThread:
    """The thread that plays the service's games, one at a time, and the conversation it plays through."""

    def __init__(
        self, conversation: Conversation, play_games: Callable[[Conversation], None], bound: float = ANSWER_BOUND_S
    ):
        """`bound`: seconds a request waits for the game before it hears "one moment" (partyhost/answer_bound.py)."""
        self.conversation = conversation
        self._answers: AnswerBound[Event] = AnswerBound(lambda text: Handled(text=text).event(), bound)
        self._thread = threading.Thread(target=play_games, args=(conversation,), name="partyhost game", daemon=True)

    def start(self) -> None:
        self._thread.start()

    async def answer(self, words: str | Refusal) -> Event:
        """Handled with the host's answer, or NotHandled with a reason; one at a time, each within the bound."""
        if isinstance(words, Refusal):
            return NotHandled(text=words.text).event()
        return await self._answers.answer(lambda: self._exchange(words))

    async def _exchange(self, words: str) -> Event:
        """The game's answer to `words` (a repeat when empty), its failures told as answers."""
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


async def serve(
    game: GameThread, bind: str, port: int, stop: asyncio.Event, on_ready: Callable[[int], Awaitable[None]]
) -> None:
    """Serve until `stop` is set; `on_ready` gets the port (the chosen one when port is 0)."""
    one_line_logs(_LOGGER.name)
    gate, quiet = Gate(PER_ADDRESS, total_connections(TOTAL_CONNECTIONS)), Quiet(_LOGGER)
    watch_the_loop(asyncio.get_running_loop(), quiet)

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await RequestHandler(reader, writer, game, gate, quiet).run()
        except asyncio.CancelledError:
            # The service is stopping mid-request. Ended, not cancelled: Python 3.11's streams
            # print a line for each cancelled connection's task (fixed in 3.12).
            pass

    server = await asyncio.start_server(connected, bind, port, backlog=BACKLOG)
    game.start()
    try:
        await on_ready(server.sockets[0].getsockname()[1] if server.sockets else port)
        await stop.wait()
    finally:
        server.close()
        gate.close_all()
        await asyncio.to_thread(game.stop)


class ServiceError(PartyhostError):
    """The service cannot start (the port is taken, the address is not this machine's)."""


def run_service(
    game: GameThread, bind: str, port: int, announce_as: str | None, ready: Callable[[int, Announced | None], None]
) -> None:
    """Serve until SIGINT or SIGTERM; announced by zeroconf as `announce_as` unless None.

    `ready` gets the port and what became of the announcement (None when not asked for;
    one that failed or was not made says why: the service works without it, added by
    address). A clean stop withdraws the announcement (partyhost/discovery.py).
    """
    import signal

    from partyhost.discovery import start_announcing, stop_announcing

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        advertiser = None

        async def on_ready(chosen: int) -> None:
            nonlocal advertiser
            announced = None
            if announce_as is not None:
                advertiser, announced = await start_announcing(announce_as, bind, chosen)
            ready(chosen, announced)

        try:
            await serve(game, bind, port, stop, on_ready)
        except OSError as error:
            game.stop()
            raise ServiceError(f"cannot listen on {bind}:{port}: {error.strerror or error}") from error
        finally:
            if advertiser is not None and (trouble := await stop_announcing(advertiser)):
                _LOGGER.warning("%s", trouble)

    asyncio.run(main())
