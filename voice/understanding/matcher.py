"""From heard or typed text to an Intent, by aligning its words to the prompt's word graph.

The recogniser (or the keyboard) gives text; the current prompt gives a word graph
of what makes sense now (voice/understanding/graph.py). The cheapest path through it
(voice/understanding/align.py) names the intent and fills its slots; its score says whether to act,
to ask "Did you mean ...?" first, or to refuse, so nonsense never turns into a move.
A clear value that is not available now ("card nine" of six) is answered with what
is possible, never swapped for the nearest one that is.
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol, cast

import numpy as np
from rapidfuzz import fuzz

from host.contract import Intent, prompt_parts  # the contract where host and voice meet
from voice.understanding.align import INF, Alignment, Path, Step
from voice.understanding.corrections import read_correction
from voice.understanding.grammar import COMMON_PROMPT, Grammar, load_grammar
from voice.understanding.grammar_decode import Meaning, SaidValue
from voice.understanding.graph import (
    SLOT_WORD_WEIGHT,
    CloseTag,
    IntentTag,
    LiveLists,
    NumberTag,
    Sentence,
    SlotChoices,
    ValueTag,
    WordGraph,
    compile_graph,
    number_value,
)
from voice.understanding.normalize import normalize, number_words
from voice.understanding.phonetic import sound_of

ACCEPT_SCORE = 86.0
"""At or above: act on it. Typos and recognizer slips ("twelve clover") land here."""
CONFIRM_SCORE = 72.0
"""At or above (but below ACCEPT_SCORE): ask "did you mean ...?" before acting."""
RIVAL_LETTERS = 2.0
"""A path naming another move that costs less than this many letters more than the
best: the words sit between two moves ("card fine" of five and nine); ask first."""
TIE_LETTERS = 1e-3
"""Between two slot values that cost the same, the one said word for word wins."""
ADDRESSED_SCORE = 88.0
"""How well a command must match when its prefix word was misheard ("post pause"):
above ACCEPT_SCORE, as the prefix is a guess ("do that" is not "undo that")."""
NEAR_SLIP = 80.0
"""A word of the grammar heard in place of a command's word is a slip of it only this
close (rapidfuzz ratio, by spelling or by sound): "what" for "what's" (80 by spelling),
not "down" for "on" (67 by spelling, 40 by sound)."""
MAX_HEARD_WORDS = 40
"""Longer replies are not read: nothing a prompt accepts is that long."""
EXAMPLE_LIMIT = 20_000
"""A prompt with more paths than this gives recognisers covering examples, not every one."""


@dataclass(frozen=True)
class Match:
    """The matcher's verdict: intent is None when the text was refused."""

    text: str
    intent: Intent | None
    score: float
    phrase: str = ""
    accept: float = ACCEPT_SCORE
    rival: Match | None = None
    """The best path naming another move (another intent, or other slot values)."""
    rival_gap: float = float("inf")
    """How many letters more the rival's path costs."""
    unavailable: str = ""
    """What to say when the words clearly name something not possible now."""
    fallback: bool = False
    """Words outside the grammar taken as the prompt's fallback (a Keep Cool clue):
    what was heard, not a phrase of the grammar."""

    @property
    def unsure(self) -> bool:
        """Another move scored nearly as well: ask before acting."""
        return self.intent is not None and self.rival is not None and self.rival_gap < RIVAL_LETTERS

    @property
    def needs_confirmation(self) -> bool:
        return self.intent is not None and (self.score < self.accept or self.unsure)


class PromptTable(Protocol):
    """What the reader (voice/listening/reading.py) needs of a prompt's phrases: a
    PromptGraph, or the commands after the wake word (voice/understanding/commands.py)."""

    exact: frozenset[str]
    """Intents matched only when said exactly (Keep Cool's words in play)."""

    @property
    def texts(self) -> list[str]:
        """Phrases for the recogniser's steering."""
        ...

    def match(self, heard: str) -> Match: ...

    def decodable(self) -> PromptGraph | None:
        """The graph a decoder may read inside, or None."""
        ...

    def addressed(self) -> PromptGraph | None:
        """Where decodable() is None: the graph in which a command after the prompt's
        prefix may be decoded ("host, undo" at a Keep Cool turn), or None."""
        ...


@dataclass
class PromptGraph:
    """One prompt's word graph (its own intents and the common commands), ready to match."""

    graph: WordGraph
    fallback: Intent | None = None
    accept: float = ACCEPT_SCORE
    confirm: float = CONFIRM_SCORE
    exact: frozenset[str] = frozenset()
    prefix: str | None = None
    unavailable: dict[str, str] = field(default_factory=dict)
    own: int = 0  # intents of order below this are the prompt's own
    live: LiveLists = field(default_factory=dict)
    game_words: frozenset[str] = frozenset()
    """Words of the game's own prompts that no common command uses: heard as said,
    never as a slip for a command ("lower" is not "slower")."""
    corrections: bool = False
    """Whether a correction of the last move ("no, I said lower") is heard here: where
    the common commands are, but not where any speech is a move (a Keep Cool clue)."""
    commands_early: bool = False
    """The recogniser's prompt names the common commands early (prompt_order, step 3)."""
    by_sound: frozenset[str] = frozenset()
    """Intents that, naming a live value, may be found by sound where the free reading is
    no likely reply (the grammar's `by_sound`: Keep Cool's claims, "that's Ben's")."""
    _lookups: dict[str, Intent | None] = field(default_factory=dict)

    def decodable(self) -> PromptGraph | None:
        """Itself when every reply is a path of its grammar, so a decoder may read inside
        it (voice/understanding/grammar_decode.py); None at Keep Cool's turns, where any
        word is a clue (a fallback) and words in play are checked otherwise."""
        return self if self.fallback is None and not self.exact else None

    def addressed(self) -> PromptGraph | None:
        """Itself where the common commands need a prefix, or where a move naming a live
        value may be found by sound (`by_sound`): decoded inside it, a command said after
        the prefix, or such a move, is found by sound (voice/listening/reading.py addressed_command)."""
        return self if self.prefix or self.by_sound else None

    def live_words(self) -> list[str]:
        """Every value the prompt's live lists say (Keep Cool's words in play and names)."""
        return [text for values in self.live.values() for text, _ in values]

    # ---- matching ----

    def match(self, heard: str) -> Match:
        text = normalize(heard)
        words = text.split()
        if not words and self.fallback is None:
            return Match(heard, None, 0.0, accept=self.accept)
        if len(words) > MAX_HEARD_WORDS:
            return Match(heard, None, 0.0, accept=self.accept)
        correction = read_correction(words) if self.corrections else None
        if correction is not None:  # the move's words belong to another prompt: the host reads them
            return Match(heard, correction.intent(), 100.0, correction.phrase, self.accept)
        alignment = Alignment(self.graph, words)
        best = self._best(alignment)
        if best is not None and best.score < ADDRESSED_SCORE and self._guessed_prefix(best, words):
            best = None
        if best is not None and (self._game_word_for_command(best, words) or self._said_for_command(best, words)):
            best = None
        if best is not None and best.score >= self.confirm:
            found = self._read(best, heard, words)
            if found.unavailable:
                return found
            if best.score >= self.accept or self.fallback is None:
                rival = self._rival(alignment, best, found) if best.cost > 1e-3 else None  # said exactly: no doubt
                if rival is not None and rival[1] < 0:  # a value that takes in a word left unused
                    return replace(rival[0], rival=found, rival_gap=-rival[1])
                return replace(found, rival=rival[0], rival_gap=rival[1]) if rival else found
        if self.fallback is not None:
            # The fallback is for words outside the grammar (a Keep Cool clue), so
            # keep every word said: "like" or "maybe" may be the clue itself; and a
            # typed compound whole ("wolf-dog" is one word, as the rulebook says).
            said = normalize(heard, strip_fillers=False, hyphens=True)
            if said and len(said.split()) <= 3:
                return Match(heard, self.fallback | {"text": said}, 100.0, said, self.accept, fallback=True)
        return Match(heard, None, best.score if best else 0.0, accept=self.accept)

    def lookup(self, text: str) -> Intent | None:
        """The intent `text` says exactly (every word as in the grammar), or None."""
        if text not in self._lookups:
            self._lookups[text] = self._lookup(text)
        found = self._lookups[text]
        return found.copy() if found is not None else None

    def _lookup(self, text: str) -> Intent | None:
        words = normalize(text).split()
        if not words or len(words) > MAX_HEARD_WORDS:
            return None
        best = self._best(Alignment(self.graph, words), exact_only=True)
        if best is None or best.cost > 1e-3:
            return None
        found = self._read(best, text, words)
        return found.intent if not found.unavailable else None

    def _best(self, alignment: Alignment, exact_only: bool = False) -> Path | None:
        """The cheapest path; a path through an exact intent only when said exactly."""
        best = alignment.best()
        if best is None or exact_only or not self.exact or best.cost < 1e-3:
            return best
        if self._intent_tag(best).name not in self.exact:
            return best
        others = np.array([s for s, tag in self.graph.final_intent.items() if tag.name not in self.exact])
        return alignment.best(others) if len(others) else None

    def _game_word_for_command(self, path: Path, heard: list[str]) -> bool:
        """A common command reached by taking one of the game's own words for another
        ("lower" for "slower" at a Keep It 100 prompt): the player said the game word."""
        if self._intent_tag(path).order < self.own or not self.game_words:
            return False
        g = self.graph
        return any(
            s.heard[1] - s.heard[0] == 1
            and heard[s.heard[0]] in self.game_words
            and heard[s.heard[0]] != g.words[g.word[s.arc]]
            for s in path.steps
            if g.word[s.arc] >= 0 and not g.any_word[s.arc]
        )

    def _said_for_command(self, path: Path, heard: list[str]) -> bool:
        """A common command reached by taking a word the prompt knows for another of the
        command's words ("let's go down" for "let's go on" where "slow down" is said too):
        a command needs its own words, and a word of the grammar heard is that word, not a
        slip for another. Slips that are no word of the grammar ("paws"), near slips
        ("who's", "what" for "what's"), and one word heard as two ("and do") still stand
        for a command."""
        if self._intent_tag(path).order < self.own:
            return False
        g = self.graph
        return any(
            s.heard[1] - s.heard[0] == 1
            and heard[s.heard[0]] in g.word_index
            and not _near_slip(heard[s.heard[0]], g.words[g.word[s.arc]])
            for s in path.steps
            if g.word[s.arc] >= 0 and not g.any_word[s.arc]
        )

    def _guessed_prefix(self, path: Path, heard: list[str]) -> bool:
        """The path takes another word for the command prefix."""
        g = self.graph
        return any(g.any_word[s.arc] and heard[s.heard[0] : s.heard[1]] != [g.words[g.word[s.arc]]] for s in path.steps)

    def _intent_tag(self, path: Path) -> IntentTag:
        return next(tag for tag in (self.graph.tags[s.arc] for s in path.steps) if isinstance(tag, IntentTag))

    def _read(self, path: Path, heard: str, heard_words: list[str]) -> Match:
        """The intent a path says, or what to answer when a value it names is not available."""
        g = self.graph
        tag = self._intent_tag(path)
        intent = _new_intent(tag)
        number: NumberTag | None = None
        number_words_said: list[str] = []
        number_steps: list = []
        for step in path.steps:
            arc_tag = g.tags[step.arc]
            if number is not None:
                if isinstance(arc_tag, CloseTag):
                    value = number_value(number_words_said)
                    if value is None:
                        return Match(heard, None, path.score, accept=self.accept)
                    if number.allowed is not None and value not in number.allowed:
                        if not _heard_as_said(number_steps, number_words_said, heard_words):
                            return Match(heard, None, path.score, accept=self.accept)
                        return Match(
                            heard,
                            None,
                            path.score,
                            " ".join(path.words),
                            self.accept,
                            unavailable=self._unavailable(number.list_name, value, step.arc, path),
                        )
                    self._fill(intent, number.slot, value, tag)
                    number = None
                elif g.word[step.arc] >= 0:
                    number_words_said.append(g.words[g.word[step.arc]])
                    number_steps.append(step)
            elif isinstance(arc_tag, NumberTag):
                number, number_words_said, number_steps = arc_tag, [], []
            elif isinstance(arc_tag, ValueTag):
                self._fill(intent, arc_tag.slot, arc_tag.value, tag)
        return Match(heard, intent, path.score, " ".join(path.words), self.accept)

    @staticmethod
    def _fill(intent: Intent, slot: str, value: Any, tag: IntentTag) -> None:
        fields = cast(MutableMapping[str, Any], intent)  # a grammar's slot, one of Intent's keys (_new_intent)
        if slot in tag.lists:
            fields[slot].append(value)
        else:
            fields[slot] = value

    def said(self, meaning: Meaning, words: tuple[str, ...]) -> Match:
        """The verdict on a path the decoder chose inside the grammar
        (voice/understanding/grammar_decode.py): its intent, or what to answer when a number it
        names is not available now. Said as the graph says it: score 100."""
        tag = next(item for item in meaning if isinstance(item, IntentTag))
        intent = _new_intent(tag)
        phrase = " ".join(words)
        for item in meaning:
            if not isinstance(item, SaidValue):
                continue
            if not item.available:
                choices = next(
                    (c for c in self.graph.choices.values() if c.list_name == item.list_name and c.values), None
                )
                return Match(
                    phrase,
                    None,
                    100.0,
                    phrase,
                    self.accept,
                    unavailable=self._unavailable_text(item.list_name, item.value, choices),
                )
            self._fill(intent, item.slot, item.value, tag)
        return Match(phrase, intent, 100.0, phrase, self.accept)

    def _unavailable(self, list_name: str, value: int, close_arc: int, path: Path) -> str:
        return self._unavailable_text(list_name, value, self._choices_before(close_arc, path))

    def _unavailable_text(self, list_name: str, value: int, choices: SlotChoices | None) -> str:
        """ "There is no card nine. Your cards are one to six.": the grammar's sentence
        for this list, or a plain one."""
        said = number_words(value)
        values = list(choices.values) if choices else []
        template = self.unavailable.get(list_name)
        if template is None:
            template = "{said} is not possible here." + (" You can say {or_choices}." if values else "")
        text = template.format(
            said=said,
            choices=_say_choices(values, "and") or "none",
            or_choices=_say_choices(values, "or") or "nothing else",
        )
        return text[:1].upper() + text[1:]

    def _choices_before(self, close_arc: int, path: Path) -> SlotChoices | None:
        entry = None
        for step in path.steps:
            if step.arc == close_arc:
                break
            if step.arc in self.graph.choices:
                entry = step.arc
        if entry is None:
            return None
        choices = self.graph.choices[entry]
        if choices.values:
            return choices
        for other in self.graph.choices.values():  # a number word beside a list: the list's words
            if other.list_name == choices.list_name and other.values:
                return other
        return None

    # ---- the rival ----

    def _rival(self, alignment: Alignment, best: Path, found: Match) -> tuple[Match, float] | None:
        """The best path naming another move: another intent, or one slot filled otherwise."""
        if found.intent is None:
            return None
        candidates: list[tuple[float, tuple[str, ...], Intent]] = []
        best_tag = self._intent_tag(best)
        others = np.array(
            [
                s
                for s, tag in self.graph.final_intent.items()
                if tag.name != best_tag.name and tag.name not in self.exact
            ]
        )
        if len(others):
            other = alignment.best(others)
            if other is not None:
                read = self._read(other, found.text, alignment.heard)
                if read.intent is not None:
                    candidates.append((other.cost, other.words, read.intent))
        candidates += self._slot_rivals(alignment, best, found.intent)
        candidates = [c for c in candidates if c[1] != best.words and c[0] < INF / 2]
        if not candidates:
            return None
        cost, words, intent = min(candidates, key=lambda c: c[0])
        return (
            Match(found.text, intent, alignment.score(cost, words), " ".join(words), self.accept),
            float(cost - best.cost),
        )

    def _slot_rivals(
        self, alignment: Alignment, best: Path, intent: Intent
    ) -> Iterator[tuple[float, tuple[str, ...], Intent]]:
        """For each slot on the best path, the same path with the slot's next best value."""
        g, steps = self.graph, best.steps
        for i, step in enumerate(steps):
            choices = g.choices.get(step.arc)
            if choices is None or not choices.values:
                continue
            end = next((k for k in range(i, len(steps)) if int(g.dst[steps[k].arc]) in choices.exits), None)
            if end is None:
                continue
            inside = steps[i : end + 1]
            span = _with_loose_words((inside[0].heard[0], inside[-1].heard[1]), steps, alignment)
            said_words = tuple(g.words[g.word[s.arc]] for s in inside if g.word[s.arc] >= 0)
            here = _local_cost(alignment, said_words, span)
            slot, value = _slot_on(g, inside)
            if slot is None:
                continue
            before = tuple(g.words[g.word[s.arc]] for s in steps[:i] if g.word[s.arc] >= 0)
            after = tuple(g.words[g.word[s.arc]] for s in steps[end + 1 :] if g.word[s.arc] >= 0)
            best_alt = None
            for text, other_value in choices.values:
                if other_value == value:
                    continue
                alt_words = tuple(text.split())
                # may cost no more than the best path: a value that takes in a word the
                # best path left unused ("skin milk", "phone milk") is the better reading
                cost = best.cost - here + _local_cost(alignment, alt_words, span)
                if len(alt_words) == span[1] - span[0]:
                    cost -= TIE_LETTERS  # word for word: it wins a tie
                if best_alt is None or cost < best_alt[0]:
                    best_alt = (cost, alt_words, other_value)
            if best_alt is not None:
                rival_intent = intent.copy()
                fields = cast(MutableMapping[str, Any], rival_intent)  # a grammar's slot, one of Intent's keys
                if isinstance(fields.get(slot), list):
                    fields[slot] = [best_alt[2] if v == value else v for v in fields[slot]]
                else:
                    fields[slot] = best_alt[2]
                yield best_alt[0], before + best_alt[1] + after, rival_intent

    # ---- what recognisers are told ----

    @cached_property
    def examples(self) -> list[tuple[str, Intent | None]]:
        """Phrases of the prompt with their intents, in grammar order: every one when
        there are at most EXAMPLE_LIMIT, else short paths covering every word."""
        return _examples(self)

    @cached_property
    def addressed_intents(self) -> frozenset[str]:
        """Intents said after the command prefix ("host, score", "host, relaxed mode"):
        what the wake word may stand before (voice/listening/ears.py). None without a prefix."""
        prefix = f"{self.prefix} " if self.prefix else None
        return frozenset(
            intent["intent"]
            for text, intent in self.examples
            if intent is not None and prefix and text.startswith(prefix)
        )

    @cached_property
    def texts(self) -> list[str]:
        """The examples in the order a recogniser's prompt of limited length should read them."""
        by_text: dict[str, Intent] = {}
        for text, intent in self.examples:
            if intent is not None:
                by_text.setdefault(text, intent)
        if len(by_text) < len({t for t, _ in self.examples}):  # covering paths: as they are
            return list(dict.fromkeys(t for t, _ in self.examples))
        own = sum(1 for intent in by_text.values() if self._order(intent) < self.own)
        ordered = sorted(by_text, key=lambda t: self._order(by_text[t]) >= self.own)
        return prompt_order({t: by_text[t] for t in ordered}, own, self.live, self.prefix, self.commands_early)

    def _order(self, intent: Intent) -> int:
        return self._intent_order.get(intent["intent"], 0)

    def order_of(self, match: Match) -> int:
        """Where a verdict's intent stands in the grammar (the prompt's own intents
        first); an answer that a value is not available before any."""
        return self._order(match.intent) if match.intent is not None else -1

    @cached_property
    def _intent_order(self) -> dict[str, int]:
        order: dict[str, int] = {}
        for tag in self.graph.tags:
            if isinstance(tag, IntentTag):
                order.setdefault(tag.name, tag.order)
        return order


def _near_slip(heard: str, word: str) -> bool:
    """The same word, or one so close by spelling or by sound that it is a slip of it
    ("who's" for "whose", "what" for "what's"), not another word ("down" for "on")."""
    if heard == word:
        return True
    heard_sound, word_sound = sound_of(heard), sound_of(word)
    by_sound = fuzz.ratio(heard_sound, word_sound) if heard_sound and word_sound else 0.0
    return max(fuzz.ratio(heard, word), by_sound) >= NEAR_SLIP


def _with_loose_words(span: tuple[int, int], steps: Sequence[Step], alignment: Alignment) -> tuple[int, int]:
    """A slot's heard span widened by the heard word just before and just after it
    when the path does not say that word as heard (it drops it, or folds it into a
    neighbour): "phone" of "phone milk" may belong to the value ("whole milk")."""
    g, heard = alignment.graph, alignment.heard
    said = {
        s.heard[0]
        for s in steps
        if s.heard[1] - s.heard[0] == 1 and g.word[s.arc] >= 0 and g.words[g.word[s.arc]] == heard[s.heard[0]]
    }
    start, end = span
    if start > 0 and start - 1 not in said:
        start -= 1
    if end < len(heard) and end not in said:
        end += 1
    return start, end


def _heard_as_said(steps: list, said: list[str], heard: list[str]) -> bool:
    """The number's words are exactly the words heard there: a clear value."""
    if not steps:
        return False
    start, end = steps[0].heard[0], steps[-1].heard[1]
    return heard[start:end] == said


def _slot_on(g: WordGraph, steps: Sequence[Step]) -> tuple[str | None, Any]:
    tag = next((g.tags[s.arc] for s in steps if isinstance(g.tags[s.arc], (ValueTag, NumberTag))), None)
    if isinstance(tag, ValueTag):
        return tag.slot, tag.value
    if isinstance(tag, NumberTag):
        return tag.slot, number_value([g.words[g.word[s.arc]] for s in steps if g.word[s.arc] >= 0])
    return None, None


def _local_cost(alignment: Alignment, words: tuple[str, ...], span: tuple[int, int]) -> float:
    """Edit distance between these slot words and the heard words of `span`."""
    index = alignment.graph_word_index
    heard = range(span[0], span[1])
    prev = [sum(alignment.insert[h] for h in heard[:k]) for k in range(len(heard) + 1)]
    for word in words:
        w = index.get(word)
        delete = (len(word) + 1) * SLOT_WORD_WEIGHT
        row = [prev[0] + delete]
        for k, h in enumerate(heard):
            sub = alignment.sub[w, h] * SLOT_WORD_WEIGHT if w is not None else (len(word) + len(alignment.heard[h]))
            row.append(min(prev[k] + sub, prev[k + 1] + delete, row[k] + alignment.insert[h]))
        prev = row
    return prev[-1]


def _say_choices(values: list[tuple[str, Any]], last: str) -> str:
    """ "one to six", or "five, twenty and thirty five": what may be said instead."""
    numbers = [v for _, v in values if isinstance(v, int) and not isinstance(v, bool)]
    if (
        len(numbers) == len(values)
        and numbers
        and sorted(numbers) == list(range(min(numbers), max(numbers) + 1))
        and len(numbers) > 2
    ):
        return f"{number_words(min(numbers))} to {number_words(max(numbers))}"
    texts = list(dict.fromkeys(t for t, _ in values))
    if len(texts) > 12:
        texts = texts[:12] + ["others"]
    if not texts:
        return ""
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + f" {last} " + texts[-1]


def _new_intent(tag: IntentTag) -> Intent:
    """A sentence's intent before its slots are filled: its name, its fixed values and an
    empty list for each list slot. The names come from the grammar files, which use only
    Intent's keys (tests/test_specs.py), so the dict built from them is one."""
    return cast(Intent, {"intent": tag.name, **dict(tag.fixed), **{name: [] for name in tag.lists}})


def _examples(prompt: PromptGraph) -> list[tuple[str, Intent | None]]:
    g = prompt.graph.plain()
    out: list[list[int]] = [[] for _ in range(g.n_states)]
    for arc, s in enumerate(g.src.tolist()):
        out[s].append(arc)
    if phrase_count(g, out) > EXAMPLE_LIMIT:
        return [(" ".join(words), None) for _, words in prompt.graph.covering_paths()]
    finals = set(g.finals.tolist())
    result: list[tuple[str, Intent | None]] = []

    def walk(state: int, words: list[str], tag: IntentTag | None, slots: list[tuple[str, Any]]) -> None:
        if state in finals and tag is not None:
            intent = _new_intent(tag)
            for slot, value in slots:
                PromptGraph._fill(intent, slot, value, tag)
            result.append((" ".join(words), intent))
        for arc in out[state]:
            arc_tag = g.tags[arc]
            choices = g.choices.get(arc)
            if choices is not None:
                slot = _entry_slot(g, arc, out)
                for text, value in choices.values:
                    for exit_ in choices.exits:
                        walk(exit_, words + text.split(), tag, slots + [(slot, value)])
                continue
            word = [g.words[g.word[arc]]] if g.word[arc] >= 0 else []
            walk(int(g.dst[arc]), words + word, arc_tag if isinstance(arc_tag, IntentTag) else tag, slots)

    walk(g.start, [], None, [])
    return result


def _entry_slot(g: WordGraph, entry: int, out: list[list[int]]) -> str:
    tag = g.tags[entry]
    if isinstance(tag, NumberTag):
        return tag.slot
    for arc in out[int(g.dst[entry])]:  # a value list: the hub's arcs carry the slot
        value_tag = g.tags[arc]
        if isinstance(value_tag, ValueTag):
            return value_tag.slot
    return ""


def phrase_count(g: WordGraph, out: list[list[int]] | None = None) -> int:
    """How many phrases the graph says: paths, a slot counting once per choice."""
    if out is None:
        out = [[] for _ in range(g.n_states)]
        for arc, s in enumerate(g.src.tolist()):
            out[s].append(arc)
    ways = [0] * g.n_states
    for state in g.finals.tolist():
        ways[state] = 1
    for states, _, _ in reversed(g.levels):
        for state in states.tolist():
            for arc in out[state]:
                choices = g.choices.get(arc)
                ways[state] += (
                    len(choices.values) * sum(ways[e] for e in choices.exits) if choices else ways[int(g.dst[arc])]
                )
    return ways[g.start]


PROMPTED_COMMANDS = ("undo", "repeat", "score", "whose_turn", "what_can_i_say", "help", "pause")
"""The common commands a player stuck at a question reaches for: at a narrowed question
one phrase of each is written into the recogniser's prompt (prompt_order, step 3)."""


def prompt_order(
    by_text: dict[str, Intent],
    own: int,
    live: LiveLists,
    prefix: str | None = None,
    commands_early: bool = False,
) -> list[str]:
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
    3. Where `commands_early` (a narrowed question, "Did you mean ...?": the grammar key
       `prompted_commands`), one phrase of each of PROMPTED_COMMANDS: there the prompt's
       own phrases are a few words said many ways ("it's one one", "take one one"), and
       without the commands in the prompt "undo" was read "two".
    4. The rest in grammar order.
    """
    texts = list(by_text)
    lead: dict[str, str] = {}
    for text in texts[:own]:
        if not (prefix and text.startswith(prefix + " ")):
            lead.setdefault(by_text[text]["intent"], text)
    chosen = _with_live_values(list(lead.values()), texts[:own], live)
    if commands_early and not prefix:
        first: dict[str, str] = {}
        for text in texts[own:]:
            first.setdefault(by_text[text]["intent"], text)
        chosen += [first[name] for name in PROMPTED_COMMANDS if name in first and first[name] not in chosen]
    taken = set(chosen)
    return chosen + [text for text in texts if text not in taken]


def _with_live_values(chosen: list[str], own_texts: list[str], live: LiveLists) -> list[str]:
    """`chosen` and then, taking the live lists of names and words in turn, a phrase of the
    prompt's own for each value no phrase chosen yet mentions (prompt_order, step 2)."""
    chosen = list(chosen)
    said = " ".join(chosen)
    queues = [
        [normalize(t, strip_fillers=False) for t, _ in values]
        for values in live.values()
        if not any(_is_number(v) for _, v in values)
    ]
    while any(queues):
        for queue in queues:
            while queue and _mentions(said, queue[0]):
                queue.pop(0)
            if not queue:
                continue
            value = queue.pop(0)
            found = next((t for t in own_texts if _mentions(t, value) and t not in chosen), None)
            if found:
                chosen.append(found)
                said += " " + found
    return chosen


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _mentions(text: str, value: str) -> bool:
    """`value` appears in `text` as whole words."""
    return bool(value) and f" {value} " in f" {text} "


class Matcher:
    """Builds (and caches) the word graph of each prompt from grammars/."""

    def __init__(
        self,
        grammar_dir: pathlib.Path | None = None,
        accept: float = ACCEPT_SCORE,
        confirm: float = CONFIRM_SCORE,
        common: bool = True,
        grammar_file: pathlib.Path | None = None,
    ) -> None:
        """`grammar_file`: one grammar file that serves every prompt (a benchmark's
        --grammar); it must exist, and is loaded as it is, whatever its name."""
        self._grammar_dir = grammar_dir
        self._only = Grammar.load(grammar_file) if grammar_file is not None else None
        self.common = common  # add the common commands (repeat, undo ...) to every prompt
        self.accept, self.confirm = accept, confirm
        self._cache: dict[tuple, PromptGraph] = {}

    def grammar(self, name: str) -> Grammar:
        if self._only is not None and name != "common":
            return self._only
        return load_grammar(name) if self._grammar_dir is None else load_grammar(name, self._grammar_dir)

    def table(self, prompt: str, live: LiveLists | None = None) -> PromptGraph:
        """The graph of `prompt` ("game/name", or several: host.contract.joined_prompt) and the common commands."""
        key = (prompt, _freeze(live or {}))
        if key not in self._cache:
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = self._build(prompt, live or {})
        return self._cache[key]

    def _build(self, prompt: str, live: LiveLists) -> PromptGraph:
        names = prompt_parts(prompt)
        owner = self.grammar(names[-1].split("/", 1)[0])
        sentences: list[Sentence] = []
        for name in names:
            sentences += self.grammar(name.split("/", 1)[0]).sentences(name, first_order=len(sentences))
        own = max((s.tag.order for s in sentences), default=-1) + 1
        if self.common and COMMON_PROMPT not in names:
            sentences += self.grammar("common").sentences(
                COMMON_PROMPT, owner.command_prefixes.get(names[-1]), first_order=own
            )
        graph = compile_graph(sentences, live, prompt)
        return PromptGraph(
            graph,
            owner.fallbacks.get(names[-1]),
            self.accept if owner.min_scores.get(names[-1]) is None else owner.min_scores[names[-1]],
            min(self.confirm, owner.min_scores.get(names[-1], self.accept)),
            frozenset(owner.exact_intents.get(names[-1], ())),
            owner.command_prefixes.get(names[-1]),
            {**(self.grammar("common").unavailable if self.common else {}), **owner.unavailable},
            own,
            live,
            owner.words - self.grammar("common").words if self.common else frozenset(),
            corrections=(self.common or COMMON_PROMPT in names) and names[-1] not in owner.fallbacks,
            commands_early=self.common and any(name in self.grammar("common").prompted_commands for name in names),
            by_sound=frozenset(owner.by_sound.get(names[-1], ())),
        )

    def has_second_listener(self, prompt: str) -> bool:
        """Whether the game of `prompt` ("game/name") has a prompt the second listener judges
        (Keep Cool's words in play): its model is loaded for such a game only."""
        return bool(self.grammar(prompt_parts(prompt)[-1].split("/", 1)[0]).second_listener)

    def second_listener_at(self, prompt: str) -> bool:
        """Whether the second listener judges this prompt's exact intents (grammar key `second_listener`)."""
        name = prompt_parts(prompt)[-1]
        return name in self.grammar(name.split("/", 1)[0]).second_listener

    def match(self, prompt: str, heard: str, live: LiveLists | None = None) -> Match:
        return self.table(prompt, live).match(heard)


def _freeze(live: LiveLists) -> tuple:
    return tuple(sorted((name, tuple((t, repr(v)) for t, v in values)) for name, values in live.items()))
