"""One game at the table: its session built from the game, the journal, the event log, the ears
and mouth and the phone pages, played, and each of them closed when it ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.contract import Ending
from host.decks import Decks
from host.engine import Game, GameOptions
from host.eventlog import EventLog
from host.journal import Journal, JournalUnwritable
from host.play import SessionInfo
from host.session import Session
from partyhost.config import Settings
from partyhost.invoked import command
from partyhost.voiceio import GameIO

if TYPE_CHECKING:  # the phone server loads only for a game with phones
    from partyhost.phones.table import PhoneTable


@dataclass(frozen=True)
class GameEnd:
    """How a game left the table: over, or stopped with every accepted move saved."""

    session_id: str
    outcome: Ending
    interrupted: bool = False
    """Stopped by Ctrl-C (saved as at the end of the input)."""

    @property
    def saved_line(self) -> str | None:
        """What the host says at the terminal when the game can be continued."""
        if self.outcome is not Ending.EOF:
            return None
        return f"HOST: The game is saved. To continue: {command()} resume {self.session_id}"


@dataclass
class Sitting:
    """One game at the table: what its session is built from, and what to close after."""

    game: Game[Any]
    options: GameOptions
    decks: Decks
    journal: Journal
    info: SessionInfo
    settings: Settings
    io: GameIO
    events: Path
    replay: list[Any] | None = None
    """The journaled moves of a resumed game; None for a new one."""
    phones: PhoneTable | None = None


def build_session(sitting: Sitting, log: EventLog) -> Session:
    """The one place a Session is made: the game, its journal and log, the ears and mouth,
    and the phone pages where the game has them, all given at once."""
    ears, mouth = sitting.io.ears, sitting.io.mouth
    watchers: list[Callable[[Any], None]] = []
    other_ways = None
    if sitting.phones is not None:
        seated = sitting.phones.seat(sitting.game, ears, mouth)
        ears, mouth, other_ways = seated.ears, seated.mouth, seated.other_ways
        watchers.append(seated.watch)
    return Session(
        sitting.game,
        sitting.options,
        sitting.decks,
        sitting.journal,
        sitting.info,
        log,
        ears,
        mouth,
        sitting.io.clock,
        remind_after=sitting.io.remind_after,
        undo_after_reveal=sitting.settings.undo_after_reveal,
        watchers=watchers,
        other_ways=other_ways,
    )


def play_sitting(sitting: Sitting) -> GameEnd:
    """Start (or replay and continue) the game; close its phones, event log, ears and mouth after."""
    log = EventLog(sitting.events, sitting.io.clock)
    outcome, interrupted = Ending.EOF, False
    try:
        session = build_session(sitting, log)
        if sitting.phones is not None:
            _announce_phones(sitting, sitting.phones, session)
        if sitting.replay is None:
            session.start()
        else:
            session.restore(sitting.replay)
        try:
            outcome = session.run()
            if outcome is Ending.QUIT:  # the players chose to stop: serve does not resume it by itself
                sitting.journal.set_status(sitting.info.id, "quit")
        except KeyboardInterrupt:  # Ctrl-C: like Ctrl-D, every accepted move is journaled already
            interrupted = True
        except JournalUnwritable as error:  # the move was not taken; the players hear why the game stops
            sitting.io.mouth.say(error.spoken)
            error.told = True
            raise
    finally:
        if sitting.phones is not None:
            sitting.phones.close(outcome)
        log.close()
        sitting.io.close()
    return GameEnd(sitting.info.id, outcome, interrupted)


def _announce_phones(sitting: Sitting, phones: PhoneTable, session: Session) -> None:
    """Show and say where players join (the session has the pages already: build_session)."""
    from partyhost.phones.service import LOOPBACK, NO_NETWORK_SPOKEN, show_join

    show_join(phones.address)
    unreachable = not sitting.settings.phones_bind and phones.address.host == LOOPBACK
    for text in ([NO_NETWORK_SPOKEN] if unreachable else []) + [phones.address.spoken]:
        session.announcer.say(text, remember=False)
