"""Intents by kind: one TypedDict per intent (docs/specs/intents.md), its name a Literal,
so that mypy narrows a union of them on `move["intent"] == "..."` and checks each field.

host.contract.Intent is the widest shape, every field any intent has: what the matcher,
the phone pages and the journal hand over, as JSON. A game reads the Action it is given
as its own union (each game module's `Move`), whose members are built from the kinds
here and its own. That reading is a cast, as the journal's is: what no kind of the game
names falls through to the game's own refusal, and the engine's checks of each field's
value stay where they are, since a journal written by an older version may hold anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypedDict, TypeVar, cast


class Said(TypedDict, total=False):
    """What every move carries besides its own fields: who made it (host.engine.Action)."""

    player: str | None


class Number(Said):
    """`number` {"value": 0..100}: a number said alone (common/number, a tiebreak)."""

    intent: Literal["number"]
    value: int


class Yes(Said):
    intent: Literal["yes"]


class No(Said):
    intent: Literal["no"]


class Timeout(Said):
    """Never said: the session gives it when a timed prompt's seconds run out."""

    intent: Literal["timeout"]


CommandName = Literal[
    "repeat",
    "help",
    "what_can_i_say",
    "score",
    "whose_turn",
    "undo",
    "pause",
    "resume",
    "rules",
    "slower",
    "faster",
    "louder",
    "quieter",
    "quit",
    "read_table",
    "never_mind",
]
"""The common commands without fields, which the session answers itself (never an engine)."""


class Command(Said):
    intent: CommandName


class _Correct(Said):
    intent: Literal["correct"]


class Correct(_Correct, total=False):
    """`correct` {"said"?, "by"?}: the host took the last move wrong (host/corrections.py)."""

    said: str
    by: str


CommonCommand = Command | Correct
"""What the session's common commands are given (host/common_commands.py)."""


A = TypeVar("A", bound=Mapping[str, object])


def named(action: A) -> A:
    """`action` as a game reads its kind, by `move["intent"]`: itself, or where it has no name
    a copy named None, which no kind has (a part of a narrowed question alone, {"powers":
    [...]}, that the lab's table player tries on the rules), so it is refused as before."""
    return action if "intent" in action else cast(A, {**action, "intent": None})
