"""Players' names: the one rule a table's names must meet, the stand-in names when nobody
gave any, and names read from what a player said.

The same rule (name_problem) holds wherever names come from (`--players` and `--teams` on
the command line, or said to the spoken menu, which `partyhost serve` runs for Home
Assistant), so a name the command line refuses is never taken from speech either: no
control character or line break, no "HOST:" (a transcript's lines begin so, and a name
would forge one), at most NAME_MAX_CHARS characters, and no two players of one name.
Values only: nothing here speaks or listens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from host.errors import one_line, printable
from voice.understanding.normalize import number_words

NAME_MAX_WORDS = 3
"""A name said is a first name, perhaps with a second word ("Mary Ann", "Uncle Bob"); more
words are a sentence the names were not read from."""
NAME_MAX_CHARS = 24
"""The longest name: the host says it at every turn and a phone page shows it on one line
("Maximilian Alexander" is 20)."""
_HOST_LINE = re.compile(r"host\s*:", re.IGNORECASE)
"""What begins each line the host says in a transcript ("HOST: Ana, you lead.")."""

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
    would not print as it is, one that would forge a line of the host's, one too long, or
    two players with one name (told apart by case alone, the host could not say whose turn
    it is). The one rule for every source of names."""
    seen: dict[str, str] = {}
    for name in names:
        problem = _problem_of(name)
        if problem is not None:
            return problem
        if name.casefold() in seen:
            return f'two players are called "{seen[name.casefold()]}"'
        seen[name.casefold()] = name
    return None


def _problem_of(name: str) -> str | None:
    """What is wrong with one name alone (None: nothing); the name is quoted printable and short."""
    if not name:
        return "a name is empty"
    shown = one_line(name) if len(name) <= NAME_MAX_CHARS else one_line(name[:NAME_MAX_CHARS]) + "..."
    if not printable(name):
        return f'the player name "{shown}" holds a control character or a line break'
    if _HOST_LINE.search(name):
        return f'the player name "{shown}" holds "HOST:", which would read as a line of the host\'s'
    if len(name) > NAME_MAX_CHARS:
        return f'the player name "{shown}" is longer than {NAME_MAX_CHARS} characters'
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
    said = text.strip().rstrip(".!?").strip()  # as it came: the rule refuses what one_line would hide
    if _without_names(said):
        return NamesHeard(numbered(count))
    names = _split(said, count)
    if not names or any(len(name.split()) > NAME_MAX_WORDS for name in names):
        return NamesHeard(problem="I didn't catch your names.")
    problem = name_problem(names)
    if problem is not None:
        return NamesHeard(problem=f"Sorry, {problem}.")
    if len(names) != count:
        return NamesHeard(problem=f"I heard {_counted(len(names), 'name')}, but {count} of you are playing.")
    return NamesHeard(tuple(_capitalised(name) for name in names) if said.islower() else names)


def _without_names(said: str) -> bool:
    """ "Skip", "just numbers, please": the players would rather be numbered."""
    words = re.sub(r"[^\w\s]", " ", said.lower()).split()
    return " ".join(word for word in words if word not in _POLITE) in NO_NAMES


def _split(said: str, count: int) -> tuple[str, ...]:
    """The names in a reply, apart: at commas and "and"; a transcript without commas
    ("Ana Ben and Cy") is split at each space when it holds exactly `count` words (at a
    space only: a line break or a control character stays in its name, to be refused)."""
    parts = [_LEAD_IN.sub("", part).strip() for part in _SEPARATORS.split(_LEAD_IN.sub("", said))]
    parts = [part for part in parts if part]
    words = [word for part in parts for word in part.split(" ") if word]
    if len(parts) != count and len(words) == count:
        parts = words
    return tuple(parts)


def _capitalised(name: str) -> str:
    """ "mary ann" -> "Mary Ann": a recogniser that writes everything in lowercase."""
    return " ".join(word[:1].upper() + word[1:] for word in name.split())


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
