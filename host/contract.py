"""Where host/ and voice/ meet: what the host asks (Prompt, with its Narrow of choices),
what a player meant (Intent), what the ears heard (Heard), and the one base of the errors
a player is told about (PartyhostError).

It imports nothing of the project, so both halves and the application above them
depend on it and on nothing of each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict


class PartyhostError(Exception):
    """An error a player or an integrator is told about in one line, never a traceback."""


Intent = TypedDict(
    "Intent",
    {
        "intent": str,  # always present: the intent's name (docs/specs/intents.md)
        "value": int,
        "values": Any,
        "card": int,
        "line": int,
        "after": int,
        "before": int,
        "end": str,
        "guess": str,
        "amount": int,
        "powers": list,
        "face": str,
        "word": "str | None",
        "owner": str,
        "seconds": int,
        "on": bool,
        "count": int,
        "family": str,
        "game": str,
        "name": str,
        "rank": int,
        "suit": str,
        "joker": bool,
        "double": Any,
        "target": Any,
        "from": Any,
        "team": int,
        "index": int,
    },
    total=False,
)
"""What a player meant: one JSON object, {"intent": NAME, ...fields}. The fields are
every slot any grammar or engine fills (tests/test_specs.py keeps this list complete);
each intent uses the few docs/specs/intents.md gives it. A TypedDict, so the journal's
JSON is the value itself."""


PROMPT_UNION = "+"
"""Joins prompt names into one prompt that accepts what each accepts: "Did you mean
...?" hears yes or no, and also a corrected answer to the prompt it asks about."""


@dataclass(frozen=True)
class Choice:
    """One answer to a narrowed question (see Narrow).

    label: said in the list and said back by the player ("two", "below 20", "lower").
    intent: what choosing it settles: the move itself ({"intent": "predict", "guess":
        "lower"}), or its part ({"powers": ["+20"]}); a path's intents are merged.
    named: the question about it alone, for a yes or no ("Card two?"); "" asks
        about the label ("Lower?").
    then: the next part once this one is chosen (the power card after the card);
        None: this choice completes the move.
    """

    label: str
    intent: dict[str, Any]
    named: str = ""
    then: Narrow | None = None


@dataclass(frozen=True)
class Narrow:
    """A prompt's answer as a choice among a few, part by part.

    What the host offers a player it has not understood twice (host/narrowing.py):
    the choices read out ("Which card: one, two or three?"), then one yes or no at a
    time; a long list is read NARROW_LIST_MAX at a time. Every path through it must
    be a move the rules allow now (tests/test_narrowing.py plays each one).
    """

    question: str
    choices: tuple[Choice, ...]

    def moves(self, taken: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every move a path through it makes (the intents along each path, merged)."""
        found = []
        for choice in self.choices:
            move = {**(taken or {}), **choice.intent}
            found += choice.then.moves(move) if choice.then is not None else [move]
        return found


@dataclass(frozen=True)
class Prompt:
    """What the host asks now, of whom, and what answers make sense.

    name: "GAME/NAME" from intents.md (or "common/number" ...).
    player: who must answer; None when anyone may (a team, the table).
    text: the sentence spoken to ask.
    context: the intents.md context for this prompt (what the manifest carries).
    slots: live slot lists for the grammar: list name -> [(spoken text, value)].
    choices: short examples of what may be said, for "what can I say".
    timeout: seconds before the engine gets {"intent": "timeout"} (None: wait).
    warning: in the last this many seconds of a timed prompt the host ticks once a
        second (Keep Cool's buzzer running out); None: no warning.
    unclear: the intent to apply when speech was heard but not understood. Keep
        Cool needs it: any word a player says ends the turn, and the host does not
        have to understand a clue, so a reading it cannot trust is a clue, not a
        "sorry?" that would stop the clock. None: ask again, as everywhere else.
    narrow: the moves possible now, as a choice among a few, part by part: how the
        host gets a move from a player it could not understand (host/narrowing.py).
        None: it can only ask again.
    """

    name: str
    player: str | None
    text: str
    context: dict[str, Any] = field(default_factory=dict)
    slots: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    choices: tuple[str, ...] = ()
    timeout: float | None = None
    warning: float | None = None
    unclear: dict[str, Any] | None = None
    narrow: Narrow | None = None


@dataclass(frozen=True)
class Heard:
    """One reply to a prompt: what was said or typed, or that the prompt's time ran out.

    This and Prompt are where host/ and voice/ meet: ears of any kind produce it.
    Spoken replies also say when, on the session clock (typed ones leave it None):
    listening_from (when the ears began to listen: a timed prompt's clock starts
    there), start and end of the speech, and the cues the ears played while
    listening (the last seconds' ticks), as (name, time). unclear: speech was heard
    but no reading was reliable (text is then "").
    """

    text: str = ""
    timed_out: bool = False
    confidence: float | None = None
    unclear: bool = False
    unsure: bool = False
    """The ears heard something else nearly as well: the host asks before acting."""
    listening_from: float | None = None
    start: float | None = None
    end: float | None = None
    cues: tuple[tuple[str, float], ...] = ()
    intent: dict[str, Any] | None = None
    """Already decided, so nothing needs matching: a button on the player's own phone
    page. The session applies it like a spoken one (journal, narration, undo)."""
    source: str = ""
    """Where it came from when not the usual ears ("phone"), for the event log."""
    missed_start: str = ""
    """Why the speech's beginning was not heard ("began before listening", "clipped at
    the front"); such a reply is never acted on: the host asks again."""
    ignored: str = ""
    """Speech plainly not said to the host, and why ("longer than a reply", "far from the
    prompt", "empty reading"); text is what was read. Logged, never answered."""
    input_level: dict[str, float] | None = None
    """How loud the speech arrived before any gain (peak_dbfs, rms_dbfs), for the event log."""
