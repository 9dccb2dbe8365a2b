"""Where host/ and voice/ meet: what the host asks (Prompt, with its Narrow of choices,
and prompt names joined into one), what a player meant (Intent), a reply as the ears
understood it (Understood, with the Evidence of how surely it was read: what to do with
it the host decides, host/reply_policy.py), and how a session ended (Ending). The errors
a player is told about live beside it, in host/errors.py.

It imports nothing of the project, so both halves and the application above them
depend on it and on nothing of each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeAlias, TypedDict

Intent = TypedDict(
    "Intent",
    {
        "intent": str,  # always present: the intent's name (docs/specs/intents.md)
        "value": int,
        "values": Any,
        "card": "int | str",  # a card by its place (1-based), or by its name (one-percent)
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
        "seed": int,  # the journal's own redraw (host.engine.REDRAW), which no game sees
        "said": str,  # a correction's words for the last move (host/corrections.py)
        "by": str,  # whose move a correction names
        "heard": "list[str]",  # the words each ear wrote of speech taken unread as a move (Prompt.unclear)
        "text": str,  # the words a prompt's fallback took as said, unread (a Keep Cool clue)
    },
    total=False,
)
"""What a player meant: one JSON object, {"intent": NAME, ...fields}. The fields are
every slot any grammar or engine fills (tests/test_specs.py keeps this list complete);
each intent uses the few docs/specs/intents.md gives it. A TypedDict, so the journal's
JSON is the value itself. The widest shape, what the matcher, the phone pages and the
journal hand over: each intent's own TypedDict (host/moves.py, each game's Move) is the
type a game reads it as."""


Json: TypeAlias = "None | bool | int | float | str | list[Json] | dict[str, Json]"
"""A value as JSON holds it: what a settings file, a saved game's setup, a phone's
message or a log line is made of, before the code that knows its shape reads it."""

JsonObject: TypeAlias = "dict[str, Json]"
"""One JSON object: {"name": value, ...}."""


PAUSED_PROMPT = "common/paused"
"""The question of a paused game: `resume` and the common commands. No other prompt hears
resume, so words misheard as it ("score" read "let's go") are never taken for it where
nothing is paused; the ears' commands after the wake word follow the same grammar."""


_PROMPT_UNION = "+"
"""Joins prompt names into one prompt that accepts what each accepts: "Did you mean
...?" hears yes or no, and also a corrected answer to the prompt it asks about. The
event log and the grammar cache see the joined name, so it is the same on the wire."""


def joined_prompt(*names: str) -> str:
    """One prompt name that accepts what each of `names` accepts, the last one owning it
    (its game's grammar settings apply): "common/yes_no+zero-to-100/choose_card"."""
    return _PROMPT_UNION.join(names)


def prompt_parts(name: str) -> list[str]:
    """The prompt names joined in `name` (joined_prompt), in order; a single name alone."""
    return name.split(_PROMPT_UNION)


class Ending(Enum):
    """How a session ended (Session.run). The value is its word wherever one is written
    out: the words the session returned before it was typed."""

    OVER = "over"
    """The game reached its end."""
    QUIT = "quit"
    """The players stopped it (it is saved, and can be resumed)."""
    EOF = "eof"
    """The input ended: a typed script ran out, Ctrl-D (saved, as for QUIT)."""


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
    intent: Intent
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
    said: str = ""
    """The question said as it is, instead of one built from the choices' labels: for a
    part whose list would tell what a player holds (a joker offered only to its holder),
    so the same words are said whatever the hand. "": built from the labels."""

    def moves(self, taken: Intent | None = None) -> list[Intent]:
        """Every move a path through it makes (the intents along each path, merged)."""
        found: list[Intent] = []
        for choice in self.choices:
            move = (taken or {}) | choice.intent
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
    confirming: a yes-or-no question about what the host just heard or was just asked
        ("Did you mean ...?", "... is that your answer?", "Does everyone agree?"):
        someone at the table is answering it now, so the ears pass over none of the
        speech begun while it waits as table talk (voice/listening/attention.py): in a
        room whose talk runs every "yes" on, silence would end the game.
    """

    name: str
    player: str | None
    text: str
    context: dict[str, Any] = field(default_factory=dict)
    slots: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    choices: tuple[str, ...] = ()
    timeout: float | None = None
    warning: float | None = None
    unclear: Intent | None = None
    narrow: Narrow | None = None
    confirming: bool = False


LOUD_ROOM_SNR_DB = 15.0
"""A room is loud where the speech stands less than this far over its noise (long-term
levels in the speech band). Not tuned on any recording: it is where noise begins to
cover speech. Speech's own levels span about 30 dB, from peaks 15 dB over its
long-term level to quiet parts 15 dB under it (the range ANSI S3.5's speech
intelligibility index counts): from 15 dB SNR up every part of it stands over the
noise, below that the quiet parts go under first, and those are word endings and the
unstressed last words of a reply ("... with lots of almond milk"), where a recogniser's
reading goes wrong without its confidence showing it."""


def loud_room(snr_db: float | None) -> bool:
    """The speech stood less than LOUD_ROOM_SNR_DB over the room's noise (None: not measured).
    A measure, not a decision: the endpointer follows the nearest voice there, the reader
    decodes inside the grammar as well, and the host's reply policy trusts a reading less."""
    return snr_db is not None and snr_db < LOUD_ROOM_SNR_DB


@dataclass(frozen=True)
class Evidence:
    """How surely the ears read a reply: what they measured of it, never what to do about
    it (the host decides, host/reply_policy.py).

    score: the match score (0-100); confidence: recogniser confidence x match quality
    (typed: the score / 100; None when no words). middling: the matcher named an intent
    but its words fit only middling well (Match.needs_confirmation).
    rival: another reading the ears heard nearly as well ("" if none).
    cut: why the reply may have been cut before its end ("" if not).
    snr_db: how far the speech stood over the room's noise (None: not measured) and
    agreed: whether the reading decoded inside the grammar, sure, agreed with the free one
    (the same intent, every value the free reading heard kept, more allowed; None: one
    reading).
    """

    score: float = 0.0
    confidence: float | None = None
    middling: bool = False
    rival: str = ""
    cut: str = ""
    snr_db: float | None = None
    agreed: bool | None = None


class Outcome(Enum):
    """What became of one wait for a reply."""

    REPLY = "reply"
    """Words said or typed in reply, understood or not: the host's reply policy weighs its
    evidence (host/reply_policy.py)."""
    DECIDED = "decided"
    """A move settled where it was made (a phone page's button, a command after the wake
    word or "host,"): acted on as it is, never asked about."""
    TIMED_OUT = "timed out"
    UNCLEAR = "unclear"
    """Speech was heard but no reading of it was a reliable reply: a miss, answered. Its
    text is what the recogniser wrote all the same ("" if nothing), never acted on at
    this prompt: the session may read it against the question a narrowed one narrows."""
    MISSED_START = "missed start"
    """The speech's beginning was not heard (`reason` says why): never acted on, asked again."""
    IGNORED = "ignored"
    """Speech plainly not said to the host (`reason` says why): logged, never answered."""
    WOKEN = "woken"
    """The wake word said alone: the host answers at once ("Yes?") and listens for what
    follows, never silently."""
    MISHEARD = "misheard"
    """Speech where any speech is a move, read as something a player is unlikely to have
    said (a Keep Cool clue of two words, a non-word or a player's name, or one two ears
    wrote differently; `reason` says which): never a move; the host asks "Again?" and
    listens on, its clock still running."""


@dataclass(frozen=True)
class Likeness:
    """How well the speech behind a move the host took fits the words a player now says
    they said (a correction, host/corrections.py), as the ears measured it: the host
    decides what is close enough.

    in_readings: one of the recogniser's own readings of that speech was the corrected move.
    nats: the corrected words' log-likelihood as the speech's transcript minus the taken
    words', both scored without the prompt's steering (None: this recogniser cannot score
    words). Near 0 or above: the speech fits the correction as well as what was taken.
    """

    in_readings: bool
    nats: float | None = None


class Source(Enum):
    """Where a reply came from (the event log names it for decided ones)."""

    VOICE = "voice"
    TYPED = "typed"
    PHONE = "phone"
    WAKE = "wake word"


@dataclass(frozen=True)
class Understood:
    """One reply to a prompt as the host takes it: every kind of ears hands over this,
    understood once (the session never matches words itself).

    text: what was said or typed (the chosen reading; for IGNORED and UNCLEAR what was read).
    intent: what it means (None: nothing understood); phrase: the grammar's words for
    it (asked back in "Did you mean ...?"); evidence: how surely it was read (Evidence),
    which the host's reply policy weighs (host/reply_policy.py).
    unavailable: what to say when the words clearly name something not possible now.
    reason: why an IGNORED reply was not for the host, why a start was missed, or why
    the awaited player's reply-length speech was UNCLEAR (read empty, far from the
    prompt, or more words than its sound).
    Spoken replies also say when, on the session clock (typed ones leave it None):
    listening_from (a timed prompt's clock starts there), start and end of the speech,
    the cues the ears played while listening as (name, time), and how loud the speech
    arrived before any gain (input_level: peak_dbfs, rms_dbfs).
    """

    outcome: Outcome
    source: Source = Source.TYPED
    text: str = ""
    intent: Intent | None = None
    phrase: str = ""
    evidence: Evidence = Evidence()
    unavailable: str = ""
    reason: str = ""
    listening_from: float | None = None
    start: float | None = None
    end: float | None = None
    cues: tuple[tuple[str, float], ...] = ()
    input_level: dict[str, float] | None = None
    seat: str = ""
    """The player whose phone page a press came from ("" for anything else): the
    mover where the prompt awaits any of several players (player None)."""
    heard_as: tuple[str, ...] = ()
    """Speech the ears did not take as read (UNCLEAR, or MISHEARD because two ears wrote
    different words): the words each ear wrote. Never acted on; where the prompt takes
    unread speech as a move (`Prompt.unclear`) they go with it as its "heard", so the
    game can check a later claim against what was said (Keep Cool)."""

    @property
    def spoken(self) -> bool:
        """Said aloud (it has a time): a reply not understood is plausibly one, asked "Sorry?"."""
        return self.start is not None


Acts = Callable[[Understood], bool]
"""The host's answer to whether it would act on a reply unasked (host/reply_policy.py acts).
partyhost hands it to the ears where they must choose between readings themselves (a free
reading that needs no decoding inside the grammar, a command after the wake word), so the
rule is the host's, written once."""
