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
from .normalize import normalize, without_article
from .phonetic import sound_of

ACCEPT_SCORE = 86.0
"""At or above: act on it. Typos and recognizer slips ("twelve clover") land here."""
CONFIRM_SCORE = 72.0
"""At or above (but below ACCEPT_SCORE): ask "did you mean ...?" before acting."""
ADDRESSED_SCORE = 88.0
"""How well the rest must match a command when the prefix word was misheard ("post
pause"): above ACCEPT_SCORE, as the prefix is a guess ("do that" is not "undo that")."""
MIN_SOUND_PHONES = 4
"""Matching by sound only for replies of this many phones or more: one-syllable words
("on", "go") sound like too many phrases (measured on real speech: docs/recognition.md)."""


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
                 confirm: float = CONFIRM_SCORE, own: int | None = None,
                 exact: frozenset[str] = frozenset(), live: LiveLists | None = None,
                 prefix: str | None = None):
        """`exact`: intents matched only as said (or as a phrase that sounds exactly
        the same), never by a near spelling: a near miss of a Keep Cool word in play
        is another word, so a clue ("widow" is not "window"). `live` and `prefix`
        (the prompt's live lists, its command prefix) order `texts`; the prefix also
        lets a command whose prefix word was misheard through (`_addressed`)."""
        self.by_text: dict[str, dict[str, Any]] = {}
        for phrase in phrases:               # first phrase wins: grammar order is priority
            self.by_text.setdefault(phrase.text, phrase.intent)
        own_texts = {p.text for p in phrases[:len(phrases) if own is None else own]}
        self.texts = prompt_order(self.by_text, sum(1 for t in self.by_text if t in own_texts),
                                  live or {}, prefix)
        self.exact, self.prefix = exact, prefix
        self._fuzzy_texts = [t for t in self.texts if self.by_text[t]["intent"] not in exact]
        self.fallback = fallback
        self.accept = accept if min_score is None else min_score   # a grammar may be stricter
        self.confirm = min(confirm, self.accept)
        self._sounds: dict[str, str] | None = None      # phone string -> phrase, built on first need
        self._commands: PhraseTable | None = None   # the prefixed commands, prefix cut (_addressed)
        self._sound_keys: list[str] = []

    def match(self, heard: str) -> Match:
        text = normalize(heard)
        if not text and self.fallback is None:
            return Match(heard, None, 0.0)
        if text in self.by_text:
            return Match(heard, dict(self.by_text[text]), 100.0, text)
        best = process.extractOne(text, self._fuzzy_texts, scorer=fuzz.ratio,
                                  score_cutoff=self.confirm) if self._fuzzy_texts else None
        sounds_like = self._by_sound(text) if best is None or best[1] < self.accept else None
        if sounds_like is not None and sounds_like[1] < 100 and \
                self.by_text[sounds_like[0]]["intent"] in self.exact:
            sounds_like = None
        if sounds_like is not None and (best is None or sounds_like[1] > best[1]):
            best = sounds_like
        if best is not None:
            phrase, score, _ = best
            if score >= self.accept or self.fallback is None:
                return Match(heard, dict(self.by_text[phrase]), float(score), phrase)
        addressed = self._addressed(heard, text)
        if addressed is not None:
            return addressed
        if self.fallback is not None:
            # The fallback is for words outside the grammar (a Keep Cool clue), so
            # keep every word said: "like" or "maybe" may be the clue itself.
            said = normalize(heard, strip_fillers=False)
            if said and len(said.split()) <= 3:
                return Match(heard, {**self.fallback, "text": said}, 100.0, said)
        return Match(heard, None, float(best[1]) if best else 0.0)

    def _addressed(self, heard: str, text: str) -> Match | None:
        """"post pause", "a house help": a command said with the prompt's prefix, whose
        prefix word the recogniser wrote as another word. Whisper seldom writes
        "host" right ("post", "first", "alst"), and a clue is one word, so any one
        word before a command stands for the prefix. What follows must match a
        command by itself, and closely ("it" is near "host quit", but not "quit")."""
        words = without_article(text.split())
        if not self.prefix or len(words) < 2 or words[0] == self.prefix:
            return None
        if self._commands is None:
            start = len(self.prefix) + 1
            self._commands = PhraseTable(
                [Phrase(t[start:], self.by_text[t]) for t in self.texts if t.startswith(self.prefix + " ")],
                accept=self.accept, confirm=self.confirm)
        found = self._commands.match(" ".join(words[1:]))
        if found.intent is None or found.score < ADDRESSED_SCORE:
            return None
        return Match(heard, found.intent, found.score, f"{self.prefix} {found.phrase}")

    def _by_sound(self, text: str) -> tuple[str, float, int] | None:
        """The phrase that sounds most like `text` (a recogniser's slip: "and you" for "undo")."""
        heard = sound_of(text)
        if heard is None or len(heard) < MIN_SOUND_PHONES:
            return None
        if self._sounds is None:
            self._sounds = {}
            for phrase in self.texts:
                sound = sound_of(phrase)
                if sound is not None:
                    self._sounds.setdefault(sound, phrase)
            self._sound_keys = list(self._sounds)
        found = process.extractOne(heard, self._sound_keys, scorer=fuzz.ratio, score_cutoff=self.confirm)
        return None if found is None else (self._sounds[found[0]], found[1], found[2])


def prompt_order(by_text: dict[str, dict[str, Any]], own: int, live: LiveLists,
                 prefix: str | None = None) -> list[str]:
    """Phrases in the order a recogniser's prompt of limited length should read them.

    1. One phrase of each of the prompt's own intents (the first `own` phrases are
       the prompt's; the common commands follow), so "that's false" is among them,
       not only a hundred numbers. Intents addressed with the prompt's command
       prefix ("host, timer ten seconds") are asides and wait for step 3.
    2. Every value of the live lists of names and words (the words in play, the
       players' names), taking the lists in turn: these are the words most likely
       said now, and without turns a long list (24 words and plurals) would leave
       no room for a short one ("Ben got it" was read "then got it"). Lists whose
       values are numbers are left to step 3, in grammar order: bets, and cards
       named by number or by a word of theirs (the value is the card's number).
    3. The rest in grammar order.
    """
    texts = list(by_text)
    lead: dict[str, str] = {}
    for text in texts[:own]:
        if not (prefix and text.startswith(prefix + " ")):
            lead.setdefault(by_text[text]["intent"], text)
    chosen = list(lead.values())
    said = " ".join(chosen)
    queues = [[normalize(t, strip_fillers=False) for t, _ in values] for values in live.values()
              if not any(_is_number(v) for _, v in values)]
    while any(queues):
        for queue in queues:
            while queue and _mentions(said, queue[0]):
                queue.pop(0)
            if not queue:
                continue
            value = queue.pop(0)
            found = next((t for t in texts[:own] if _mentions(t, value) and t not in chosen), None)
            if found:
                chosen.append(found)
                said += " " + found
    taken = set(chosen)
    return chosen + [text for text in texts if text not in taken]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _mentions(text: str, value: str) -> bool:
    """`value` appears in `text` as whole words."""
    return bool(value) and f" {value} " in f" {text} "


class Matcher:
    """Builds (and caches) the phrase table for each prompt from grammars/."""

    def __init__(self, grammar_dir=None, accept: float = ACCEPT_SCORE, confirm: float = CONFIRM_SCORE,
                 common: bool = True):
        self._grammar_dir = grammar_dir
        self.common = common      # add the common commands (repeat, undo ...) to every prompt
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
            own = len(phrases)
            if self.common and prompt != COMMON_PROMPT:
                phrases += with_prefix(self.grammar("common").phrases(COMMON_PROMPT),
                                       owner.command_prefixes.get(prompt))
            self._cache[key] = PhraseTable(phrases, owner.fallbacks.get(prompt),
                                           owner.min_scores.get(prompt), self.accept, self.confirm, own,
                                           frozenset(owner.exact_intents.get(prompt, ())), live,
                                           owner.command_prefixes.get(prompt))
        return self._cache[key]

    def has_exact_prompts(self, prompt: str) -> bool:
        """Whether the game of `prompt` ("game/name") matches some prompt exactly (Keep Cool's words in play)."""
        return bool(self.grammar(prompt.split("/", 1)[0]).exact_intents)

    def match(self, prompt: str, heard: str, live: LiveLists | None = None) -> Match:
        return self.table(prompt, live).match(heard)


def with_prefix(phrases: list[Phrase], prefix: str | None) -> list[Phrase]:
    """The common commands as said at a prompt that wants them addressed ("host score")."""
    if not prefix:
        return phrases
    return [Phrase(f"{prefix} {p.text}", p.intent) for p in phrases]


def _freeze(live: LiveLists) -> tuple:
    return tuple(sorted((name, tuple((t, repr(v)) for t, v in values))
                        for name, values in live.items()))
