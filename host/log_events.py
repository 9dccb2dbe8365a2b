"""The session's entries in the event log, one frozen dataclass each (docs/specs/events.md).

Each names its `type` in the log (KIND) and turns into the log's JSON object only as it
is written (`to_dict`), as wyoming's messages become events only on the wire. A field
with no default is always written, null included (a prompt anyone may answer has player
null); a field left at its default (None, False or empty) is left out, so a typed reply
carries no timing and a sure one no `unsure`. The engines' own events (say, sound, reveal ...)
are host.engine's TypedDicts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from host.contract import JsonObject

FLATTENED = "timing"
"""The field whose keys are written beside the others (listening_from, start, end ...)."""


@dataclass(frozen=True)
class LogEvent:
    """An entry the session writes (host.eventlog.EventLog.write takes it)."""

    KIND: ClassVar[str]

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"type": self.KIND}
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if item.default is not dataclasses.MISSING and item.default in (None, False) and value is item.default:
                continue  # None or False at its default: not said at all
            if item.default_factory is not dataclasses.MISSING and not value:
                continue  # an empty mapping at its default
            if item.name == FLATTENED:
                out.update(value)
            else:
                out[item.name] = value
        return out


@dataclass(frozen=True)
class GameStarted(LogEvent):
    KIND = "game_start"
    game: str
    mode: str
    deal: str
    players: list[str]
    teams: list[list[str]] | None
    seed: int | None
    session: str


@dataclass(frozen=True)
class Resumed(LogEvent):
    KIND = "resumed"
    session: str
    actions: int


@dataclass(frozen=True)
class Asked(LogEvent):
    """The host asks a prompt."""

    KIND = "prompt"
    player: str | None
    prompt: str


@dataclass(frozen=True)
class CuePlayedLive(LogEvent):
    """A cue the ears played while listening (the last seconds' ticks), when it played."""

    KIND = "sound"
    name: str
    at: float
    live: bool = True


@dataclass(frozen=True)
class Heard(LogEvent):
    """A reply, as the host took it."""

    KIND = "heard"
    player: str | None
    text: str
    confidence: float | None = None
    unsure: bool = False
    unclear: bool = False
    timeout: bool = False
    reason: str | None = None
    source: str | None = None
    narrowed: str | None = None
    confirming: str | None = None
    timing: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ignored(LogEvent):
    """Speech not taken as a reply and not answered."""

    KIND = "ignored"
    player: str | None
    reason: str | None
    text: str | None = None
    detail: str | None = None
    timing: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Woken(LogEvent):
    """The wake word said alone: answered "Yes?"."""

    KIND = "woken"
    player: str | None
    text: str
    reason: str | None = None
    timing: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Misheard(Woken):
    """A Keep Cool clue likely misheard: answered "Again?"."""

    KIND = "misheard"


@dataclass(frozen=True)
class Reminded(LogEvent):
    KIND = "reminder"
    player: str | None


@dataclass(frozen=True)
class Rejected(LogEvent):
    """A reply not taken: not understood, or not allowed by the rules."""

    KIND = "rejected"
    player: str | None
    reason: str


@dataclass(frozen=True)
class NarrowingBegun(LogEvent):
    """The open question gives way to its narrowed ones."""

    KIND = "narrowing"
    player: str | None
    prompt: str
    misses: int


@dataclass(frozen=True)
class NarrowedAsked(LogEvent):
    """One narrowed question, as it is asked."""

    KIND = "narrowed_prompt"
    player: str | None
    prompt: str
    narrows: str
    text: str
    choices: list[str]


@dataclass(frozen=True)
class Accepted(LogEvent):
    """An intent taken for the prompt (a move, or a common command carried out)."""

    KIND = "intent"
    player: str | None
    intent: Mapping[str, Any]


@dataclass(frozen=True)
class Undone(LogEvent):
    KIND = "undo"
    action: Mapping[str, Any]


@dataclass(frozen=True)
class Corrected(LogEvent):
    """The last move replaced by what its player said, where the host misheard it."""

    KIND = "correction"
    action: Mapping[str, Any]
    was: Mapping[str, Any]
    asked: bool = False


def kinds() -> set[str]:
    """Every type the session writes (tests/test_specs.py holds them to the spec)."""
    found, pending = set(), list(LogEvent.__subclasses__())
    while pending:
        kind = pending.pop()
        found.add(kind.KIND)
        pending.extend(kind.__subclasses__())
    return found
