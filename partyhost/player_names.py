"""Players' names: the one rule a table's names must meet, the stand-in names when nobody
gave any, and names read from what a player said.

The same rule holds wherever names come from (`--players` on the command line, or said to
the spoken menu through a voice assistant), so a name the command line refuses is never
taken from speech either. Values only: nothing here speaks or listens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from host.contract import one_line, printable
from voice.understanding.normalize import number_words

NAME_MAX_WORDS = 3
"""A name said is a first name, perhaps with a second word ("Mary Ann", "Uncle Bob"); more
words are a sentence the names were not read from."""

NO_NAMES = frozenset({"skip", "skip it", "no", "no names", "none", "numbers", "number us", "numbered", "pass"})
"""Replies that ask for numbered players instead of names (lowercase, without punctuation
and without the words of _POLITE)."""
_POLITE = frozenset({"just", "please", "use", "only", "ok", "okay", "thanks"})

_LEAD_IN = re.compile(
    r"^(?:(?:we(?:'re| are)|it's|it is|i'm|i am|this is|my name is|our names are|the names are|names are|"
    r"the players are|players are)\b\s*)+",
    re.IGNORECASE,
)
_SEPARATORS = re.compile(r"\s*(?:[,;&+/]|\band\b|\bplus\b)\s*", re.IGNORECASE)


def numbered(count: int) -> tuple[str, ...]:
    """Stand-in names for `count` players who gave none: Player One, Player Two ... in words,
    so a score read out ("Player One 0 and Player Two 0") is not a run of numbers."""
    return tuple(f"Player {number_words(n).title()}" for n in range(1, count + 1))


def name_problem(names: tuple[str, ...]) -> str | None:
    """Why these names cannot be a table's players (None: they can): an empty name, one that
    would not print as it is, or two players with one name (told apart by case alone, the
    host could not say whose turn it is)."""
    seen: dict[str, str] = {}
    for name in names:
        if not name:
            return "a name is empty"
        if not printable(name):
            return f'the player name "{one_line(name)}" holds a control character or a line break'
        if name.casefold() in seen:
            return f'two players are called "{seen[name.casefold()]}"'
        seen[name.casefold()] = name
    return None


@dataclass(frozen=True)
class NamesHeard:
    """The players read from one reply: `names` when they could be read, else `problem`,
    a sentence to say why not."""

    names: tuple[str, ...] = ()
    problem: str = ""


def names_heard(text: str, count: int) -> NamesHeard:
    """The `count` players' names in `text` ("Ana, Ben and Cy", "we're Ana Ben and Cy"); the
    numbered stand-ins where the reply asks for no names ("skip")."""
    said = one_line(text).strip().rstrip(".!?").strip()
    if _without_names(said):
        return NamesHeard(numbered(count))
    names = _split(said, count)
    if not names or any(len(name.split()) > NAME_MAX_WORDS for name in names):
        return NamesHeard(problem="I didn't catch your names.")
    if len(names) != count:
        return NamesHeard(problem=f"I heard {_counted(len(names), 'name')}, but {count} of you are playing.")
    problem = name_problem(names)
    if problem is not None:
        return NamesHeard(problem=f"Sorry, {problem}.")
    return NamesHeard(names)


def _without_names(said: str) -> bool:
    """ "Skip", "just numbers, please": the players would rather be numbered."""
    words = re.sub(r"[^\w\s]", " ", said.lower()).split()
    return " ".join(word for word in words if word not in _POLITE) in NO_NAMES


def _split(said: str, count: int) -> tuple[str, ...]:
    """The names in a reply, apart: at commas and "and"; a transcript without commas
    ("Ana Ben and Cy") is split at each word when it holds exactly `count` words."""
    parts = [_LEAD_IN.sub("", part).strip() for part in _SEPARATORS.split(_LEAD_IN.sub("", said))]
    parts = [part for part in parts if part]
    words = [word for part in parts for word in part.split()]
    if len(parts) != count and len(words) == count:
        parts = words
    return tuple(_capitalised(part) if said.islower() else part for part in parts)


def _capitalised(name: str) -> str:
    """ "mary ann" -> "Mary Ann": a recogniser that writes everything in lowercase."""
    return " ".join(word[:1].upper() + word[1:] for word in name.split())


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
