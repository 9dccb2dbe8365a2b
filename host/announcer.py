"""What the host says and plays, each logged as it goes out.

The event log is the record of what the table heard, in order, so everything the host
says or plays passes through here. Announcing a game's events also notes in the journal
what they settle: the questions a group has seen, and the result.
"""

from __future__ import annotations

from typing import Protocol

from .contract import Prompt
from .engine import Event, RuleError, private, say, sound
from .eventlog import EventLog
from .log_events import Rejected
from .play import Play


class Mouth(Protocol):
    def say(self, text: str) -> None: ...
    def sound(self, name: str) -> None: ...
    def private(self, player: str, text: str) -> None: ...
    def adjust(self, change: str) -> str:
        """Apply "slower" | "faster" | "louder" | "quieter"; return what to say about it."""


class Announcer:
    """The host's voice at the table, and its memory of what "repeat" says again."""

    def __init__(self, mouth: Mouth, log: EventLog, play: Play):
        self.mouth, self.log, self.play = mouth, log, play
        self.last_spoken: list[str] = []
        """What the host said since the last move (what "repeat" says again)."""

    def say(self, text: str, remember: bool = True, read_out: bool = False) -> None:
        """`remember`: "repeat" says it again (the game's own words, not the host's asides)."""
        self.log.write(say(text, read_out))
        self.mouth.say(text)
        if remember:
            self.last_spoken.append(text)

    def sound(self, name: str) -> None:
        """A cue played, and logged when (the turn change, the dice)."""
        self.log.write(sound(name))
        self.mouth.sound(name)

    def reject(self, prompt: Prompt, reason: str, spoken: str) -> None:
        """A reply not taken: the buzzer, and why."""
        self.log.write(Rejected(prompt.player, reason))
        self.mouth.sound("wrong")
        self.say(spoken, remember=False)

    def refuse(self, prompt: Prompt, error: RuleError) -> None:
        """A move the rules refuse: their reason aloud, and the aside (which names the
        player's own secret cards) to that player only."""
        self.reject(prompt, error.reason, error.reason)
        if error.aside and prompt.player:
            self.narrate([private(prompt.player, error.aside)])

    def narrate(self, events: list[Event]) -> None:
        """A game's events, in order: said, played, told privately, or only logged."""
        for event in events:  # tested on event["type"] itself, which narrows the union
            if event["type"] == "say":
                self.say(event["text"], read_out=event.get("read_out", False))
            elif event["type"] == "sound":
                self.sound(event["name"])
            elif event["type"] == "private":
                self.log.write(event)
                self.mouth.private(event["player"], event["text"])
            elif event["type"] == "questions_used":
                self.play.journal.mark_questions_used(self.play.info.group, list(event["ids"]))
                self.log.write(event)
            elif event["type"] == "game_over":
                self.play.journal.set_result(self.play.info.id, event["scores"])
                self.log.write(event)
            else:
                self.log.write(event)
