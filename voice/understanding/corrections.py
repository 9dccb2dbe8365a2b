"""A player correcting the host's reading of a move: "no, I said lower", "Cy said the
bowling one", "that's not what I said".

At a table a misheard move is fixed by saying what was said. The words after the lead
are a move of the prompt the last move answered, not of the one asked now, so they are
not matched here: the correction carries them as said (`said`), with whose move it names
(`by`), and the host reads them against the right prompt (host/corrections.py). Text
only, so a correction means the same typed and spoken.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.contract import Intent  # where host and voice meet

CORRECT_INTENT = "correct"
"""The intent of a correction: {"intent": "correct", "said": words, "by": name}."""
SAID_VERBS = ("said", "meant", "was saying")
"""What joins whose move it was to the words said: "I said", "Cy meant"."""
OPENINGS = ("no", "nope", "no no", "wait", "no wait", "sorry", "sorry no")
"""Words before a correction that only mark it as one."""
ADDRESS = "host"
"""The host's name, which may come first ("host, Cy said lower")."""
IT_WAS = (["it", "was"], ["it", "is"], ["it's"])
"""After an opening, these also lead a correction: "no, it was lower"."""
SPEAKERS_MAX_WORDS = 2
"""A name before the verb is at most this long ("Cy", "team Ben"); longer, the words
are a sentence of their own ("the one my aunt said"), not a correction."""
SAID_MAX_WORDS = 12
"""The most words a corrected move takes: no move of any game is longer."""
PRONOUNS = frozenset({"i", "he", "she", "they", "we", "you"})
"""Speakers that name nobody the host can look up."""


@dataclass(frozen=True)
class Correction:
    """A correction read from words: what was said (the move's words, "" when the player
    only said the reading was wrong) and whose move it names ("" when none: "I said")."""

    said: str
    by: str = ""
    lead: str = ""
    """The words before the move ("no i said"), for "Did you mean ...?"."""

    def intent(self) -> Intent:
        return {"intent": CORRECT_INTENT, "said": self.said, "by": self.by}

    @property
    def phrase(self) -> str:
        return f"{self.lead} {self.said}".strip()


def read_correction(words: list[str]) -> Correction | None:
    """The correction `words` (normalised) say, or None when they are no correction.

    "no i said lower" and "i said lower" -> said "lower"; "cy said lower" -> by "cy";
    "no it was lower" -> said "lower" (the opening makes it one). A trailing "not ..."
    ("i said lower not right") is what the host took, not part of the move.
    """
    if words[:1] == [ADDRESS]:
        words = words[1:]
    opening = _opening(words)
    rest = words[len(opening) :]
    for verb in SAID_VERBS:
        verb_words = verb.split()
        for at in range(1, min(SPEAKERS_MAX_WORDS, len(rest) - len(verb_words)) + 1):
            if rest[at : at + len(verb_words)] != verb_words:
                continue
            speaker, said = rest[:at], _without_denial(rest[at + len(verb_words) :])
            if not said or len(said) > SAID_MAX_WORDS:
                continue
            by = " ".join(speaker) if speaker[0] not in PRONOUNS else ""
            return Correction(" ".join(said), by, " ".join(words[: len(opening) + at + len(verb_words)]))
    for lead in IT_WAS if opening else ():
        if rest[: len(lead)] == lead:
            said = _without_denial(rest[len(lead) :])
            if said and len(said) <= SAID_MAX_WORDS:
                return Correction(" ".join(said), "", " ".join(words[: len(opening) + len(lead)]))
    return None


def _opening(words: list[str]) -> list[str]:
    """The longest of OPENINGS that `words` begin with."""
    for opening in sorted(OPENINGS, key=lambda text: -len(text.split())):
        if words[: len(opening.split())] == opening.split():
            return opening.split()
    return []


def _without_denial(said: list[str]) -> list[str]:
    """ "lower not right" -> "lower": what follows "not" names the host's reading."""
    return said[: said.index("not")] if "not" in said[1:] else said
