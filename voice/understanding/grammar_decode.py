"""Decoding inside the prompt's grammar: the recogniser may only write a path of its graph.

A free transcript loses what the grammar could have kept: "skin milk" read for "skim
milk" leaves the matcher to guess. Here the decoder itself chooses among the paths
of the prompt's word graph (voice/understanding/graph.py) by sound, token by token: a beam search
in which only tokens that continue some path may follow, and the end of the text
only where a path ends. Every hypothesis carries the set of graph positions its
text can be at (the graph is not deterministic: "a" may be an article or the start
of "a bit of sugar"), so one text is one hypothesis, however many ways the graph
reads it. The result is each complete path's log-probability, the meaning it says
(intent and slot values), and how far the grammar had to pull the decoder from its
own choices (the regret): a reply outside the grammar costs much regret, a reply
inside it almost none.

How Whisper writes a word is not how the graph spells it: "Card 2 with +20." is the
path "card two with plus twenty". Each graph word may be written capitalised, as
digits, or as its sign; a number slot is one unit with every way of writing each
number; fillers ("um", "please") may come between words; punctuation may follow any
word. voice/understanding/normalize.py maps all of these back to the graph's spelling, so the
two sides agree.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from voice.understanding.graph import CloseTag, IntentTag, NumberTag, ValueTag, WordGraph
from voice.understanding.normalize import FILLERS, number_words

NUMBERS_SAID_ANYWAY = range(0, 101)
"""Numbers a number slot is decoded with besides its own values: a clear "nine" where
the cards are one to six must come out as nine, so the host can say there is none."""
BEAM = 8
MAX_TOKENS = 48
GIVE_UP_BELOW_BEST = 8.0
"""A hypothesis this many nats behind the best complete path is not followed further."""
LENGTH_BONUS = 0.3
"""Nats added per token written. In noise every word of a long reply is a little
doubtful, and ending early costs only the end token's log-probability once, so
without it the likeliest path of an order is often its first half."""
PUNCTUATION = (",", ".", "?", "!")
WRITTEN_AS = {
    **{number_words(value): [str(value)] for value in [*range(20), *range(20, 100, 10)]},
    "plus": ["+"],
    "minus": ["-"],
    "percent": ["%"],
    "ok": ["OK", "Okay"],
    "okay": ["OK", "Okay"],
    "alright": ["all right", "All right"],
}
"""Other ways Whisper writes a graph word (besides as spelled and capitalised)."""
GLUE = ("+", "-", "$")
"""Signs that the next word is written against: "+20"."""
ATTACHED = ("%",)
"""Written against the word before: "45%"."""
SPOKEN_FILLERS = tuple(f for f in FILLERS if f not in ("like", "so", "please", "actually", "maybe"))
"""Fillers the decoder may write between graph words. Those that are also ordinary
words of replies are left out, so a filler never hides a word the grammar needs."""


class Vocabulary(Protocol):
    """The recogniser's tokens, as the decoder needs them."""

    def token(self, text: str) -> int | None:
        """The token whose text is exactly this, or None."""

    def text(self, token: int) -> str: ...

    end: int  # end of text
    punctuation: tuple[int, ...]


@dataclass(frozen=True)
class SaidValue:
    """A slot value a path says; `available`: the list offers it now (a number slot is
    decoded with numbers it does not offer, so a clear one can be answered)."""

    slot: str
    list_name: str
    value: Any
    available: bool = True


Meaning = tuple["IntentTag | SaidValue", ...]
"""What a path says, in order: its intent's tag, then each slot value."""


@dataclass(frozen=True)
class Unit:
    """One written word of the graph (or a whole number), from a position."""

    written: str  # as the decoder writes it, with its leading space
    to: int  # the graph state after it
    says: Meaning  # the tags passed on the way to it and its own value
    words: tuple[str, ...]  # the graph's words it stands for (none for a filler)
    glues: bool = False  # the next unit is written against it ("+" before "20")


@dataclass(frozen=True)
class Thread:
    """One position in the graph that a hypothesis's text can be at."""

    state: int
    partial: str  # written so far of a unit not yet complete ("" at a boundary)
    glued: bool
    says: Meaning
    words: tuple[str, ...]  # the graph's words of the path so far
    after_filler: bool = False  # one filler at a time: "I think, I think, ..." is no reply


@dataclass(frozen=True)
class DecodedPath:
    """A complete path: its score (log-probability, end of text included, plus the
    length bonus), its regret, the text as written, and what it says: (meaning, the
    graph's words) for every way the graph reads that text."""

    score: float
    log_prob: float
    length: int  # tokens written, the end included
    regret: float
    text: str
    readings: frozenset[tuple[Meaning, tuple[str, ...]]]


class TokenGraph:
    """A prompt's word graph seen as tokens. Cached per prompt: what may follow a
    position is worked out once and kept."""

    def __init__(self, graph: WordGraph, vocabulary: Vocabulary):
        self.graph, self.vocabulary = graph, vocabulary
        self._out: list[list[int]] = [[] for _ in range(graph.n_states)]
        for arc, source in enumerate(graph.src.tolist()):
            self._out[source].append(arc)
        self._finals = set(graph.finals.tolist())
        self._units: dict[tuple[int, bool, bool], tuple[list[Unit], list[str], bool]] = {}  # state, glued, fillers
        # state, glued, partial, after_filler
        self._next: dict[tuple[int, bool, str, bool], dict[int, tuple[tuple[Unit, ...], bool]]] = {}

    @property
    def start(self) -> Thread:
        return Thread(self.graph.start, "", False, (), ())

    def ends(self, thread: Thread) -> bool:
        """Whether the text may end at this thread's position."""
        return thread.partial == "" and self._units_at(thread.state, thread.glued)[2]

    def next_tokens(self, thread: Thread) -> dict[int, tuple[tuple[Unit, ...], bool]]:
        """token -> (the units it completes, whether it also goes on inside a longer one)."""
        key = (thread.state, thread.glued, thread.partial, thread.after_filler)
        if key not in self._next:
            self._next[key] = self._tokens_after(*key)
        return self._next[key]

    def advance(self, threads: Iterable[Thread], token: int) -> frozenset[Thread]:
        """Where each thread is after this token (threads it cannot take end here)."""
        written = self.vocabulary.text(token)
        out: set[Thread] = set()
        for thread in threads:
            step = self.next_tokens(thread).get(token)
            if step is None:
                continue
            completed, goes_on = step
            out.update(
                Thread(unit.to, "", unit.glues, thread.says + unit.says, thread.words + unit.words, not unit.words)
                for unit in completed
            )
            if goes_on:
                out.add(
                    Thread(
                        thread.state,
                        thread.partial + written,
                        thread.glued,
                        thread.says,
                        thread.words,
                        thread.after_filler,
                    )
                )
        return frozenset(out)

    # ---- what may be written from a position ----

    def _tokens_after(
        self, state: int, glued: bool, partial: str, after_filler: bool
    ) -> dict[int, tuple[tuple[Unit, ...], bool]]:
        units, written, _ = self._units_at(state, glued, fillers=not after_filler)
        lo = bisect.bisect_left(written, partial)
        hi = bisect.bisect_left(written, partial + "\U0010ffff")
        found: dict[int, tuple[tuple[Unit, ...], bool]] = {}
        for i in range(lo, hi):
            rest = written[i][len(partial) :]
            for size in range(1, len(rest) + 1):
                token = self.vocabulary.token(rest[:size])
                if token is None:
                    continue
                completed, goes_on = found.get(token, ((), False))
                if size == len(rest):
                    completed += (units[i],)
                else:
                    goes_on = True
                found[token] = (completed, goes_on)
        return found

    def _units_at(self, state: int, glued: bool, fillers: bool = True) -> tuple[list[Unit], list[str], bool]:
        """The units reachable from `state` over empty arcs (and the fillers, unless
        `fillers` is False), sorted by how they are written, and whether a path may end there."""
        key = (state, glued, fillers)
        if key not in self._units:
            units, final = self._closure(state, glued)
            if fillers and not glued:
                units += [Unit(text, state, (), ()) for filler in SPOKEN_FILLERS for text in _written(filler, False)]
            units.sort(key=lambda unit: unit.written)
            self._units[key] = (units, [unit.written for unit in units], final)
        return self._units[key]

    def _closure(self, state: int, glued: bool) -> tuple[list[Unit], bool]:
        g = self.graph
        units: list[Unit] = []
        final = False
        stack: list[tuple[int, Meaning]] = [(state, ())]
        seen: set[tuple[int, Meaning]] = set()
        while stack:
            here, says = stack.pop()
            if (here, says) in seen:
                continue
            seen.add((here, says))
            final = final or here in self._finals
            for arc in self._out[here]:
                tag, to = g.tags[arc], int(g.dst[arc])
                if isinstance(tag, NumberTag):
                    units += self._number_units(tag, to, says, glued)
                elif isinstance(tag, CloseTag):
                    continue
                elif g.word[arc] < 0:
                    stack.append((to, says + _said(tag)))
                else:
                    word = g.words[g.word[arc]]
                    units += [
                        Unit(text, to, says + _said(tag), (word,), text.strip() in GLUE)
                        for text in _written(word, glued)
                    ]
        return units, final

    def _number_units(self, tag: NumberTag, inside: int, says: Meaning, glued: bool) -> list[Unit]:
        """A number slot as one unit per way of writing each number. A slot with no
        values of its own (a number word where a list names other things) is left
        to the free reading: decoded, it would only ever be a value not available."""
        if not tag.allowed:
            return []
        values = sorted(set(int(v) for v in tag.allowed) | set(NUMBERS_SAID_ANYWAY))
        return [
            Unit(
                text,
                exit_,
                says + (SaidValue(tag.slot, tag.list_name, value, value in tag.allowed),),
                tuple(number_words(value).split()),
            )
            for exit_ in self._number_exits(inside)
            for value in values
            for text in _written_number(value, glued)
        ]

    def _number_exits(self, inside: int) -> list[int]:
        """The states after a number slot's end (its CloseTag arcs), from inside it."""
        exits: set[int] = set()
        stack, seen = [inside], set()
        while stack:
            here = stack.pop()
            if here in seen:
                continue
            seen.add(here)
            for arc in self._out[here]:
                if isinstance(self.graph.tags[arc], CloseTag):
                    exits.add(int(self.graph.dst[arc]))
                else:
                    stack.append(int(self.graph.dst[arc]))
        return sorted(exits)


def _said(tag: Any) -> Meaning:
    if isinstance(tag, IntentTag):
        return (tag,)
    if isinstance(tag, ValueTag):
        return (SaidValue(tag.slot, tag.list_name, tag.value),)
    return ()


def _written(word: str, glued: bool) -> list[str]:
    """How Whisper may write a graph word: as spelled, capitalised, or another way."""
    forms = dict.fromkeys([word, word[:1].upper() + word[1:], *WRITTEN_AS.get(word, [])])
    lead = "" if glued else " "
    return [form if form in ATTACHED else lead + form for form in forms]


def _written_number(value: int, glued: bool) -> list[str]:
    """Digits, words ("forty two", "Forty-two"), "a hundred"."""
    said = number_words(value)
    forms = [str(value), said, said.replace(" ", "-")]
    if said.startswith("one hundred"):
        forms.append("a" + said[3:])
    lead = "" if glued else " "
    return list(dict.fromkeys(lead + f for form in forms for f in (form, form[:1].upper() + form[1:])))


# ---- the search ---------------------------------------------------------------


class StepDecoder(Protocol):
    """A decoder asked one step at a time (voice/asr/whisper_steps.WhisperSteps)."""

    def step(self, tokens: np.ndarray, cache: Any, cross: Any) -> tuple[np.ndarray, Any]: ...


@dataclass
class _Hypothesis:
    log_prob: float
    regret: float
    tokens: tuple[int, ...]
    threads: frozenset[Thread]
    row: int
    after_punctuation: bool = False


@dataclass(frozen=True)
class SearchSettings:
    beam: int = BEAM
    max_tokens: int = MAX_TOKENS
    give_up_below_best: float = GIVE_UP_BELOW_BEST
    length_bonus: float = LENGTH_BONUS


def decode(
    decoder: StepDecoder,
    cross: Any,
    cache: Any,
    graph: TokenGraph,
    first: int,
    settings: SearchSettings = SearchSettings(),
) -> list[DecodedPath]:
    """Complete paths, most likely first. `cache` holds the decoder's state after the
    start sequence but its last token, `first` (one row, repeated as the beam grows)."""
    beam = [_Hypothesis(0.0, 0.0, (first,), frozenset({graph.start}), 0)]
    done: list[DecodedPath] = []
    for _ in range(settings.max_tokens):
        log_probs, cache = decoder.step(np.array([[h.tokens[-1]] for h in beam]), cache, cross)
        best_free = log_probs.max(axis=1)
        options = _next_options(beam, log_probs, best_free, graph, settings.length_bonus, done)
        bonus = settings.length_bonus * len(beam[0].tokens)  # the same for every hypothesis of a step
        floor = max((path.score for path in done), default=-np.inf) - settings.give_up_below_best - bonus
        grown = _grown(beam, options, floor, settings.beam, log_probs, best_free, graph)
        if not grown:
            break
        cache = cache.rows(np.array([h.row for h in grown]))
        for i, hypothesis in enumerate(grown):
            hypothesis.row = i
        beam = grown
    done.sort(key=lambda path: -path.score)
    return done


_Option = tuple[float, int, int, bool]
"""A way to grow the beam: (log-prob, hypothesis row, token, whether it is punctuation)."""


def _next_options(
    beam: list[_Hypothesis],
    log_probs: np.ndarray,
    best_free: np.ndarray,
    graph: TokenGraph,
    length_bonus: float,
    done: list[DecodedPath],
) -> list[_Option]:
    """Every token the grammar allows after each hypothesis, best first; a hypothesis
    the text may end at also goes, ended, into `done`."""
    vocabulary = graph.vocabulary
    options: list[_Option] = []
    for row, hypothesis in enumerate(beam):
        scores = log_probs[row]
        at_boundary = any(t.partial == "" for t in hypothesis.threads)
        if any(graph.ends(t) for t in hypothesis.threads):
            done.append(
                _complete(
                    hypothesis, float(scores[vocabulary.end]), float(best_free[row]), vocabulary, graph, length_bonus
                )
            )
        if at_boundary and not hypothesis.after_punctuation and len(hypothesis.tokens) > 1:
            options += [(hypothesis.log_prob + float(scores[t]), row, t, True) for t in vocabulary.punctuation]
        allowed: set[int] = set()
        for thread in hypothesis.threads:
            allowed.update(graph.next_tokens(thread))
        options += [(hypothesis.log_prob + float(scores[t]), row, t, False) for t in allowed]
    options.sort(key=lambda option: -option[0])
    return options


def _grown(
    beam: list[_Hypothesis],
    options: list[_Option],
    floor: float,
    width: int,
    log_probs: np.ndarray,
    best_free: np.ndarray,
    graph: TokenGraph,
) -> list[_Hypothesis]:
    """The next beam: the best options above `floor`, at most `width`, one per text."""
    grown: list[_Hypothesis] = []
    seen: set[frozenset[Thread]] = set()
    for log_prob, row, token, punctuation in options:
        if log_prob < floor or len(grown) >= width:
            break
        parent = beam[row]
        if punctuation:
            threads = frozenset(t for t in parent.threads if t.partial == "" and not t.glued)
        else:
            threads = graph.advance(parent.threads, token)
        if not threads or threads in seen:  # one text per position: "shot," and "shot" alike
            continue
        seen.add(threads)
        regret = parent.regret + float(best_free[row]) - float(log_probs[row, token])
        grown.append(_Hypothesis(log_prob, regret, parent.tokens + (token,), threads, row, punctuation))
    return grown


def _complete(
    h: _Hypothesis, end: float, best_free: float, vocabulary: Vocabulary, graph: TokenGraph, length_bonus: float
) -> DecodedPath:
    readings = frozenset((t.says, t.words) for t in h.threads if graph.ends(t))
    text = "".join(vocabulary.text(t) for t in h.tokens[1:])
    log_prob = h.log_prob + end
    return DecodedPath(
        log_prob + length_bonus * len(h.tokens),
        log_prob,
        len(h.tokens),
        h.regret + best_free - end,
        text.strip(),
        readings,
    )
