"""From heard or typed text to an Intent, by fuzzy matching against a phrase table.

The recognizer (or the keyboard) gives text; the current prompt gives the phrases
that make sense now. rapidfuzz scores the text against every phrase; the best one
wins if it is clearly good, is offered for confirmation if it is middling, and is
refused otherwise, so nonsense never turns into a move.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from .grammar import COMMON_PROMPT, Grammar, LiveLists, Phrase, load_grammar
from .normalize import normalize

ACCEPT_SCORE = 86.0
"""At or above: act on it. Typos and recognizer slips ("twelve clover") land here."""
CONFIRM_SCORE = 72.0
"""At or above (but below ACCEPT_SCORE): ask "did you mean ...?" before acting."""


@dataclass(frozen=True)
class Match:
    """The matcher's verdict: intent is None when the text was refused."""

    text: str
    intent: dict[str, Any] | None
    score: float
    phrase: str = ""

    @property
    def needs_confirmation(self) -> bool:
        return self.intent is not None and self.score < ACCEPT_SCORE


class PhraseTable:
    """The phrases of one prompt, indexed for exact and fuzzy lookup."""

    def __init__(self, phrases: list[Phrase], fallback: dict[str, Any] | None = None,
                 min_score: float | None = None, accept: float = ACCEPT_SCORE,
                 confirm: float = CONFIRM_SCORE):
        self.by_text: dict[str, dict[str, Any]] = {}
        for phrase in phrases:               # first phrase wins: grammar order is priority
            self.by_text.setdefault(phrase.text, phrase.intent)
        self.texts = list(self.by_text)
        self.fallback = fallback
        self.accept = accept if min_score is None else min_score   # a grammar may be stricter
        self.confirm = min(confirm, self.accept)

    def match(self, heard: str) -> Match:
        text = normalize(heard)
        if not text and self.fallback is None:
            return Match(heard, None, 0.0)
        if text in self.by_text:
            return Match(heard, dict(self.by_text[text]), 100.0, text)
        best = process.extractOne(text, self.texts, scorer=fuzz.ratio,
                                  score_cutoff=self.confirm) if self.texts else None
        if best is not None:
            phrase, score, _ = best
            if score >= self.accept or self.fallback is None:
                return Match(heard, dict(self.by_text[phrase]), float(score), phrase)
        if self.fallback is not None:
            # The fallback is for words outside the grammar (a Keep Cool clue), so
            # keep every word said: "like" or "maybe" may be the clue itself.
            said = normalize(heard, strip_fillers=False)
            if said and len(said.split()) <= 3:
                return Match(heard, {**self.fallback, "text": said}, 100.0, said)
        return Match(heard, None, float(best[1]) if best else 0.0)


class Matcher:
    """Builds (and caches) the phrase table for each prompt from grammars/."""

    def __init__(self, grammar_dir=None, accept: float = ACCEPT_SCORE, confirm: float = CONFIRM_SCORE):
        self._grammar_dir = grammar_dir
        self.accept, self.confirm = accept, confirm
        self._cache: dict[tuple, PhraseTable] = {}

    def grammar(self, name: str) -> Grammar:
        return load_grammar(name) if self._grammar_dir is None else load_grammar(name, self._grammar_dir)

    def table(self, prompt: str, live: LiveLists | None = None) -> PhraseTable:
        """Phrases of `prompt` ("game/name") plus the common commands."""
        key = (prompt, _freeze(live or {}))
        if key not in self._cache:
            if len(self._cache) > 256:
                self._cache.clear()
            owner = self.grammar(prompt.split("/", 1)[0])
            phrases = owner.phrases(prompt, live)
            if prompt != COMMON_PROMPT:
                phrases += self.grammar("common").phrases(COMMON_PROMPT)
            self._cache[key] = PhraseTable(phrases, owner.fallbacks.get(prompt),
                                           owner.min_scores.get(prompt), self.accept, self.confirm)
        return self._cache[key]

    def match(self, prompt: str, heard: str, live: LiveLists | None = None) -> Match:
        return self.table(prompt, live).match(heard)


def _freeze(live: LiveLists) -> tuple:
    return tuple(sorted((name, tuple((t, repr(v)) for t, v in values))
                        for name, values in live.items()))
