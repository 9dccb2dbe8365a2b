"""How long the host takes to say a text, estimated from the text alone.

The conversation (partyhost/conversation.py) uses it to know when an assistant has
finished speaking the host's words; `partyhost bench pace` to add up the host's speech.
"""

from __future__ import annotations

import re

SYLLABLES_PER_SECOND = 6.1
"""The shipped Piper voice at rate 1.0: a least-squares fit of Piper's own durations
for 400 of the scripts' host lines (2026-12-03, docs/rules.md)."""
PAUSE_SECONDS = 0.45
"""Silence Piper leaves at a sentence end or a clause break (same fit)."""

_PAUSE = re.compile(r"[.!?;:,](?=\s|$)")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+")
_VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())


def syllables(text: str) -> int:
    """Syllables Piper will say for `text`: numbers as words, vowels by the dictionary."""
    from voice.understanding.normalize import number_words
    from voice.understanding.vocabulary import load_dictionary, pronunciations

    dictionary = load_dictionary()
    count = 0
    for word in _WORD.findall(text.lower()):
        if word.isdigit():
            words = number_words(int(word)).split() if len(word) <= 4 else list(word)
        else:
            words = [word]
        for each in words:
            variants = pronunciations(each, dictionary) if not each.isdigit() else ()
            if variants:
                count += sum(1 for phone in variants[0] if phone[-1:].isdigit() or phone in _VOWELS)
            else:
                count += max(1, len(re.findall(r"[aeiouy]+", each)))
    return count


def estimated_seconds(text: str) -> float:
    """Seconds of speech for `text` at the measured rate: syllables plus pauses."""
    return syllables(text) / SYLLABLES_PER_SECOND + len(_PAUSE.findall(text)) * PAUSE_SECONDS
