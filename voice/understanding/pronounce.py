"""Can every word a grammar produces be said to the recognisers?

A grammar-constrained recogniser can only produce a word it can pronounce:
PocketSphinx needs each word in its dictionary (the bundled CMU dictionary plus
grammars/pronunciations.dict, read by voice.understanding.vocabulary), Vosk needs it in its model's
vocabulary (voice.asr.vosk drops the others with a warning), and Whisper spells
anything. This module collects the words of grammar phrases, reports the ones
without a pronunciation, and gives PocketSphinx the entries it must add.

Typed-only words: normalising "2nd" gives "two nd", so a grammar that accepts the
typed "2nd" has a phrase nobody says. Those suffix tokens are listed apart instead
of being given invented pronunciations; the recognisers leave such phrases out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from voice.understanding.grammar import Grammar, load_grammar
from voice.understanding.grammar_folder import GRAMMAR_DIR
from voice.understanding.graph import LiveLists
from voice.understanding.matcher import Matcher
from voice.understanding.vocabulary import Dictionary, load_dictionary, pronunciations

TYPED_ONLY = frozenset({"st", "nd", "rd", "th"})
"""Ordinal suffixes left over when a typed "2nd" is normalised to "two nd"."""


@dataclass
class Coverage:
    """Which words can be said, which cannot, and which are typed-only."""

    words: list[str]
    missing: list[str] = field(default_factory=list)
    typed_only: list[str] = field(default_factory=list)
    where: dict[str, str] = field(default_factory=dict)  # missing word -> an example phrase

    @property
    def ok(self) -> bool:
        return not self.missing

    def describe(self) -> str:
        if self.ok:
            return f"all {len(self.words)} words have a pronunciation"
        lines = [
            f"{len(self.missing)} of {len(self.words)} words have no pronunciation "
            f"(add them to grammars/pronunciations.dict):"
        ]
        lines += [f"  {word}   e.g. in {self.where.get(word, '?')!r}" for word in self.missing]
        return "\n".join(lines)


def spoken(phrase: str) -> bool:
    """False for a typed-only phrase ("the two nd one")."""
    return not any(word in TYPED_ONLY for word in phrase.split())


def check_phrases(phrases: Iterable[str], dictionary: Dictionary | None = None) -> Coverage:
    """Coverage of every word of these (normalised) phrases."""
    known = load_dictionary() if dictionary is None else dictionary
    first_seen: dict[str, str] = {}
    typed: dict[str, None] = {}
    for phrase in phrases:
        for word in phrase.split():
            if word in TYPED_ONLY:
                typed.setdefault(word, None)
            else:
                first_seen.setdefault(word, phrase)
    missing = [word for word in first_seen if not pronunciations(word, known)]
    return Coverage(list(first_seen), missing, list(typed), {word: first_seen[word] for word in missing})


def grammar_phrases(grammar_dir: Path = GRAMMAR_DIR, live: dict[str, LiveLists] | None = None) -> dict[str, list[str]]:
    """prompt name -> every phrase text, for every prompt of every grammar file.

    `live` gives live lists per prompt (the game supplies them at run time).
    """
    live = live or {}
    result: dict[str, list[str]] = {}
    for path in sorted(grammar_dir.glob("*.yaml")):
        grammar: Grammar = load_grammar(path.stem, grammar_dir)
        for prompt in grammar.prompts:
            result[prompt] = [
                text for text, _ in Matcher(grammar_dir, common=False).table(prompt, live.get(prompt)).examples
            ]
    return result


def sphinx_entries(
    words: Iterable[str], bundled: set[str], dictionary: Dictionary | None = None
) -> list[tuple[str, str]]:
    """(word, "P H O N E S") for words PocketSphinx's own dictionary lacks but we can say.

    `bundled` is the set of words the decoder already knows; the pronunciation comes
    from grammars/pronunciations.dict or a derived possessive ("panda's").
    """
    known = load_dictionary() if dictionary is None else dictionary
    entries = []
    for word in dict.fromkeys(words):
        if word in bundled or word in TYPED_ONLY:
            continue
        for phones in pronunciations(word, known)[:1]:
            entries.append((word, " ".join(phones)))
    return entries


def extra_words(dictionary_path: Path) -> list[str]:
    """Every word grammars/pronunciations.dict defines (to teach PocketSphinx up front)."""
    from voice.understanding.vocabulary import parse_dictionary

    if not dictionary_path.is_file():
        return []
    return list(parse_dictionary(dictionary_path.read_text(encoding="utf-8"), str(dictionary_path)))
