"""A prompt's grammar compiled to a word graph: states, and arcs that say a word.

hassil parses the templates, and `hassil.fst` turns each template into a graph
(alternatives, optionals, permutations, expansion rules, words glued to a suffix
like "who('s| is)"). Slot lists stay placeholders in that graph; this module puts
each list's values in their place, once per reference, marked with the slot and
value they stand for. A number list becomes a small graph of number words (any
number up to 999), so the value comes from the words said, and whether it is
available is decided afterwards. Nothing is ever enumerated: a grammar is as
large as its graph, not as the number of its phrases.

voice/understanding/align.py aligns heard words to the graph.
"""

from __future__ import annotations

import collections.abc
import itertools
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from hassil.expression import Alternative, Expression, ListReference, Permutation, RuleReference, Sequence, TextChunk
from hassil.fst import EPS, SPACE, Fst, ListReferenceNode, expression_to_fst
from hassil.intents import IntentData, Intents, RangeSlotList, TextSlotList

from voice.understanding.normalize import NUMBER_WORDS, normalize, number_words
from voice.understanding.phonetic import sound_of

LiveLists = dict[str, list[tuple[str, Any]]]
SLOT_WORD_WEIGHT = 1.5
"""Saying a slot's word differently costs this much more than a carrier word: a
changed value is a different move, a changed "please" is not."""
MIN_SOUND = 3
"""Words of fewer phones are compared by spelling only: short words sound like too many."""
OTHER_NUMBER_COST = 0.5
"""Extra cost of reading a number word as a number a list does not name ("fifteen"
where ranks are ace to king), so a listed value wins whenever it is said."""


class GraphError(Exception):
    """A template that cannot be compiled (an unknown list or rule, a rule that loops)."""


# ---- what a path says (arc tags) --------------------------------------------


@dataclass(frozen=True)
class IntentTag:
    """The start of one sentence: the intent, its fixed slots, its list fields."""

    name: str
    fixed: tuple[tuple[str, Any], ...]
    lists: tuple[str, ...]
    order: int


@dataclass(frozen=True)
class ValueTag:
    """A slot filled with one listed value (None: the words said are the value)."""

    slot: str
    list_name: str
    value: Any


@dataclass(frozen=True)
class NumberTag:
    """A slot filled with the number said up to the next CloseTag; `allowed` is the
    values the list offers now (None: any)."""

    slot: str
    list_name: str
    allowed: frozenset | None


@dataclass(frozen=True)
class CloseTag:
    """The end of a number slot."""


Tag = IntentTag | ValueTag | NumberTag | CloseTag
Arc = tuple[int, int, int, float, bool, bool, float, "Tag | None"]
"""What _Builder keeps of an arc: src, dst, word id (-1: none), weight, exact, any_word, extra, tag."""


@dataclass(frozen=True)
class SlotChoices:
    """What one slot reference may be filled with: (words, value) pairs, for the
    matcher's rival and for naming what is possible."""

    list_name: str
    values: tuple[tuple[str, Any], ...]
    exits: tuple[int, ...]  # the states where the slot's words may end (more than one once merged)


@dataclass
class _Shortest:
    """Per state: the fewest words from the start (ahead) and on to a final (behind),
    with the arc that way comes in by (ahead_arc) or goes on by (behind_arc); -1: none."""

    ahead: list[float]
    ahead_arc: list[int]
    behind: list[float]
    behind_arc: list[int]


@dataclass(eq=False)  # compared by identity: a compiled graph is cached by the object (voice/asr/whisper.py)
class WordGraph:
    """An acyclic graph: arc i goes src[i] -> dst[i], saying words[word[i]] (-1: nothing)."""

    words: list[str]
    src: np.ndarray
    dst: np.ndarray
    word: np.ndarray
    weight: np.ndarray  # SLOT_WORD_WEIGHT on slot words, else 1
    exact: np.ndarray  # said only as written (or as it sounds)
    any_word: np.ndarray  # stands for any one word (a misheard command prefix)
    extra: np.ndarray  # a fixed cost of taking the arc (tie-breaks, other numbers)
    tags: list[Tag | None]  # per arc
    start: int
    finals: np.ndarray
    n_states: int
    choices: dict[int, SlotChoices]  # arc of a NumberTag/ValueTag's slot entry -> its choices
    final_intent: dict[int, IntentTag]  # final state -> the sentence it ends
    unmerged: tuple | None = None  # the arcs before shared parts were merged (for plain())
    levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)
    incoming: list[list[int]] = field(default_factory=list)
    _plain: WordGraph | None = field(default=None, init=False, repr=False)  # plain(), made once

    def __post_init__(self) -> None:
        self.word_index = {word: i for i, word in enumerate(self.words)}
        self.words_array = np.array(self.words, object)
        self.letters = np.array([len(w) for w in self.words], float)
        self.is_number = np.array([w in NUMBER_WORDS for w in self.words], bool)
        self.has_exact, self.has_any_word = bool(self.exact.any()), bool(self.any_word.any())
        sounds = [sound_of(w) for w in self.words]
        self.sounds = [s if s and len(s) >= MIN_SOUND else "" for s in sounds]
        self.no_sound = np.array([not s for s in self.sounds], bool)
        self._order()

    def _order(self) -> None:
        """Group states by longest distance from the start, with the arcs leaving them,
        so alignment can relax a whole level at once."""
        n = self.n_states
        level = np.zeros(n, dtype=np.int64)
        indegree = np.bincount(self.dst, minlength=n)
        out: list[list[int]] = [[] for _ in range(n)]
        self.incoming = [[] for _ in range(n)]
        for arc, (s, d) in enumerate(zip(self.src.tolist(), self.dst.tolist())):
            out[s].append(arc)
            self.incoming[d].append(arc)
        ready = [s for s in range(n) if indegree[s] == 0]
        seen = 0
        while ready:
            state = ready.pop()
            seen += 1
            for arc in out[state]:
                d = int(self.dst[arc])
                level[d] = max(level[d], level[state] + 1)
                indegree[d] -= 1
                if indegree[d] == 0:
                    ready.append(d)
        if seen != n:
            raise GraphError("the grammar graph has a loop")
        by_level: dict[int, list[int]] = defaultdict(list)
        for state in range(n):
            by_level[int(level[state])].append(state)
        arcs_at: dict[int, list[int]] = defaultdict(list)
        for arc, s in enumerate(self.src.tolist()):
            arcs_at[int(level[s])].append(arc)
        self.levels = []
        for lv in sorted(by_level):
            arcs = np.array(arcs_at.get(lv, []), dtype=np.int64)
            is_word = self.word[arcs] >= 0 if len(arcs) else np.zeros(0, bool)
            self.levels.append((np.array(by_level[lv], dtype=np.int64), arcs[~is_word], arcs[is_word]))

    def plain(self) -> WordGraph:
        """The graph as compiled, before merging: paths come out of it in grammar order."""
        if self.unmerged is None:
            return self
        if self._plain is None:
            arcs, choices, finals, final_intent, n_states = self.unmerged
            self._plain = _from_arcs(self.words, arcs, finals, n_states, choices, final_intent)
        return self._plain

    @property
    def size(self) -> int:
        return len(self.src)

    def covering_paths(self) -> list[tuple[list[int], list[str]]]:
        """Short paths that together say every word of the graph, one of each intent first:
        examples of a graph too large to list (a recogniser's prompt)."""
        out: list[list[int]] = [[] for _ in range(self.n_states)]
        for arc, s in enumerate(self.src.tolist()):
            out[s].append(arc)
        finals = set(self.finals.tolist())
        order = [s for states, _, _ in self.levels for s in states.tolist()]
        shortest = self._shortest(out, order, finals)
        chosen: list[list[int]] = []
        covered: set[int] = set()

        def take(path: list[int]) -> None:
            chosen.append(path)
            covered.update(int(self.word[a]) for a in path if self.word[a] >= 0)

        intents_taken: set[str] = set()
        for arc in out[self.start]:  # one short path of each sentence's intent
            tag = self.tags[arc]
            if isinstance(tag, IntentTag) and shortest.ahead[int(self.src[arc])] == 0 and tag.name not in intents_taken:
                intents_taken.add(tag.name)
                take(self._path_through(arc, shortest, finals))
        for arc in range(self.size):
            w = int(self.word[arc])
            if w >= 0 and w not in covered and shortest.ahead[int(self.src[arc])] < math.inf:
                take(self._path_through(arc, shortest, finals))
        chosen.append(self._longest_path(out, order, finals))  # a recogniser's output cap needs it
        return [(p, [self.words[self.word[a]] for a in p if self.word[a] >= 0]) for p in chosen]

    def _shortest(self, out: list[list[int]], order: list[int], finals: set[int]) -> _Shortest:
        """The fewest words from the start to each state, and from each state to a final."""
        n = self.n_states
        found = _Shortest([math.inf] * n, [-1] * n, [math.inf] * n, [-1] * n)
        found.ahead[self.start] = 0
        for state in order:
            for arc in out[state]:
                d = int(self.dst[arc])
                cost = found.ahead[state] + (1 if self.word[arc] >= 0 else 0)
                if cost < found.ahead[d]:
                    found.ahead[d], found.ahead_arc[d] = cost, arc
        for state in reversed(order):
            if state in finals:
                found.behind[state] = 0
            for arc in out[state]:
                d = int(self.dst[arc])
                cost = found.behind[d] + (1 if self.word[arc] >= 0 else 0)
                if cost < found.behind[state]:
                    found.behind[state], found.behind_arc[state] = cost, arc
        return found

    def _path_through(self, arc: int, shortest: _Shortest, finals: set[int]) -> list[int]:
        """The shortest way from the start to a final that takes `arc`."""
        head: list[int] = []
        state = int(self.src[arc])
        while shortest.ahead_arc[state] >= 0:
            head.append(shortest.ahead_arc[state])
            state = int(self.src[shortest.ahead_arc[state]])
        tail: list[int] = []
        state = int(self.dst[arc])
        while state not in finals or (shortest.behind[state] > 0 and shortest.behind_arc[state] >= 0):
            if shortest.behind_arc[state] < 0:
                break
            tail.append(shortest.behind_arc[state])
            state = int(self.dst[shortest.behind_arc[state]])
        return head[::-1] + [arc] + tail

    def _longest_path(self, out: list[list[int]], order: list[int], finals: set[int]) -> list[int]:
        """The path that says the most words."""
        most = [-1] * self.n_states
        step = [-1] * self.n_states
        for state in reversed(order):
            if state in finals:
                most[state] = 0
            for arc in out[state]:
                d = int(self.dst[arc])
                if most[d] >= 0 and most[d] + (self.word[arc] >= 0) > most[state]:
                    most[state], step[state] = most[d] + int(self.word[arc] >= 0), arc
        path, state = [], self.start
        while step[state] >= 0:
            path.append(step[state])
            state = int(self.dst[step[state]])
        return path


# ---- building ------------------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    """One template of one intent's data block, with what its intent tag says."""

    expression: Expression
    data: IntentData
    intents: Intents  # the file's lists and rules
    tag: IntentTag
    exact: bool = False
    prefix: str | None = None  # a word said first (the common commands' prefix)


def _from_arcs(
    words: list[str],
    arcs: list[Arc],
    finals: list[int],
    n_states: int,
    choices: dict,
    final_intent: dict,
    unmerged: tuple | None = None,
) -> WordGraph:
    """A WordGraph from the builder's arc tuples, each field an array."""
    src, dst, word, weight, exact, any_word, extra, tags = zip(*arcs)
    return WordGraph(
        words,
        np.array(src, np.int64),
        np.array(dst, np.int64),
        np.array(word, np.int64),
        np.array(weight, float),
        np.array(exact, bool),
        np.array(any_word, bool),
        np.array(extra, float),
        list(tags),
        0,
        np.array(sorted(set(finals)), np.int64),
        n_states,
        choices,
        final_intent,
        unmerged=unmerged,
    )


class _Builder:
    """Collects arcs; a list's values are compiled once and copied per reference."""

    def __init__(self, live: LiveLists, path: str):
        self.live, self.path = live, path
        self.intents: Intents = None  # type: ignore[assignment]  # set per sentence
        self.words: dict[str, int] = {}
        self.arcs: list[Arc] = []
        self.n_states = 1
        self.finals: list[int] = []
        self.choices: dict[int, SlotChoices] = {}
        self.final_intent: dict[int, IntentTag] = {}
        self._tag: IntentTag | None = None
        self._value_fsts: dict[int, tuple] = {}

    def state(self) -> int:
        self.n_states += 1
        return self.n_states - 1

    def arc(
        self,
        src: int,
        dst: int,
        word: str | None = None,
        weight: float = 1.0,
        exact: bool = False,
        any_word: bool = False,
        extra: float = 0.0,
        tag: Tag | None = None,
    ) -> int:
        wid = -1 if word is None else self.words.setdefault(word, len(self.words))
        self.arcs.append((src, dst, wid, weight, exact, any_word, extra, tag))
        return len(self.arcs) - 1

    def words_arc(self, src: int, dst: int, text: str, weight: float, exact: bool, tag: Tag | None = None) -> None:
        """src -> dst saying `text`'s normalised words (none: an empty arc)."""
        words = _words_of(text)
        if tag is not None or not words:
            mid = self.state() if words else dst
            self.arc(src, mid, tag=tag)
            src = mid
        for i, word in enumerate(words):
            nxt = dst if i == len(words) - 1 else self.state()
            self.arc(src, nxt, word, weight, exact)
            src = nxt

    # -- sentences --

    def sentence(self, sentence: Sentence) -> None:
        self.intents = sentence.intents
        refs: list[ListReference] = []
        expression = self._placeholders(sentence.expression, sentence.data, refs, ())
        fst = _word_fst(expression, sentence.data, self.intents)
        if fst is None:
            return
        entry = self.state()
        self._tag = sentence.tag
        self.arc(0, entry, extra=sentence.tag.order * 1e-6, tag=sentence.tag)
        if sentence.prefix:
            after = self.state()
            self.arc(entry, after, sentence.prefix, any_word=True)
            entry = after
        self._splice(fst, entry, None, 1.0, sentence.exact, refs, sentence.data)

    def _placeholders(
        self, expr: Expression, data: IntentData, refs: list[ListReference], rules: tuple[str, ...]
    ) -> Expression:
        """The template with each {list} replaced by a one-word placeholder and each
        <rule> by its body, so hassil.fst sees only words."""
        if isinstance(expr, ListReference):
            refs.append(expr)
            return TextChunk(f"\x01{len(refs) - 1}")
        if isinstance(expr, RuleReference):
            if expr.rule_name in rules:
                raise GraphError(f"{self.path}: rule <{expr.rule_name}> refers to itself")
            body = data.expansion_rules.get(expr.rule_name) or self.intents.expansion_rules.get(expr.rule_name)
            if body is None:
                raise GraphError(f"{self.path}: unknown rule <{expr.rule_name}>")
            return self._placeholders(body.expression, data, refs, rules + (expr.rule_name,))
        if isinstance(expr, Alternative):
            return Alternative(
                [self._placeholders(i, data, refs, rules) for i in expr.items], is_optional=expr.is_optional
            )
        if isinstance(expr, Permutation):
            return Alternative(
                [
                    Sequence([self._placeholders(i, data, refs, rules) for i in order])
                    for order in itertools.permutations(expr.items)
                ]
            )
        if isinstance(expr, Sequence):
            return Sequence([self._placeholders(i, data, refs, rules) for i in expr.items])
        return expr

    def _splice(
        self,
        fst: Fst,
        entry: int,
        exit_: int | None,
        weight: float,
        exact: bool,
        refs: collections.abc.Sequence[ListReference] = (),
        data: IntentData | None = None,
    ) -> None:
        """Copy hassil's word graph in from `entry`; its final states lead to `exit_`
        (None: they are final states of the prompt)."""
        mapped = {fst.start: entry}

        def state_of(s: int) -> int:
            if s not in mapped:
                mapped[s] = self.state()
            return mapped[s]

        for s, arcs in list(fst.arcs.items()):
            for arc in arcs:
                a, b = state_of(s), state_of(arc.to_state)
                label = arc.in_label
                if label in (EPS, SPACE):
                    self.arc(a, b)
                elif "\x01" in label:
                    found = re.fullmatch("([^\x01]*)\x01(\\d+)([^\x01]*)", label)
                    if found is None:
                        raise GraphError(f"{self.path}: two {{lists}} glued together: {label!r}")
                    self._slot(a, b, refs[int(found[2])], data, exact, (found[1], found[3]))
                else:
                    self.words_arc(a, b, label, weight, exact)
        for s in fst.final_states:
            if exit_ is None:
                assert self._tag is not None, "set by sentence(), which alone splices with no exit"
                self.finals.append(state_of(s))
                self.final_intent[state_of(s)] = self._tag
            else:
                self.arc(state_of(s), exit_)

    # -- slots --

    def _slot(
        self,
        src: int,
        dst: int,
        ref: ListReference,
        data: IntentData | None,
        exact: bool,
        glued: tuple[str, str] = ("", ""),
    ) -> None:
        """`glued`: letters written onto each value ("{player}'s")."""
        name, slot = ref.list_name, ref.slot_name
        if glued != ("", ""):
            said = [
                (normalize(glued[0] + str(t) + glued[1], strip_fillers=False), v, None)
                for t, v in self._plain_values(name, data)
            ]
            self._values(src, dst, slot, name, said, exact)
            return
        file_list = self._file_list(name, data)
        if name in self.live:
            values = [(normalize(str(text), strip_fillers=False), value) for text, value in self.live[name]]
            numbers = _as_numbers(values)
            if numbers is not None:
                self._number(src, dst, slot, name, frozenset(numbers), values)
            else:
                self._values(src, dst, slot, name, [(t, v, None) for t, v in values], exact)
            return
        if isinstance(file_list, RangeSlotList):
            allowed = frozenset(file_list.get_numbers())
            self._number(
                src,
                dst,
                slot,
                name,
                allowed,
                [(number_words(int(n)), n) for n in sorted(allowed) if float(n).is_integer()],
            )
        elif isinstance(file_list, TextSlotList):
            entries = [(None, v.value_out, v.text_in) for v in file_list.values]
            texts = [_plain_text(e) for _, _, e in entries]
            plain = [(text, v) for text, (_, v, _) in zip(texts, entries) if text is not None]
            numbers = _as_numbers(plain) if len(plain) == len(entries) else None
            if numbers is not None and plain:
                self._number(src, dst, slot, name, frozenset(numbers), plain)
            else:
                self._values(src, dst, slot, name, entries, exact)
        else:
            raise GraphError(f"{self.path}: no list named {{{name}}}")

    def _file_list(self, name: str, data: IntentData | None) -> Any:
        """The grammar file's list of this name: the intent's own, else the file's (None: no such list)."""
        return (data.slot_lists.get(name) if data else None) or self.intents.slot_lists.get(name)

    def _plain_values(self, name: str, data: IntentData | None) -> list[tuple[str, Any]]:
        """A list's (words, value) pairs for letters glued onto them: the live list's, or the
        file's when each of its values is plain words."""
        values = self.live.get(name)
        if values is not None:
            return values
        file_list = self._file_list(name, data)
        not_plain = GraphError(f"{self.path}: only a list of plain words can be glued to letters: {{{name}}}")
        if not isinstance(file_list, TextSlotList):
            raise not_plain
        texts = [_plain_text(v.text_in) for v in file_list.values]
        plain = [(text, v.value_out) for text, v in zip(texts, file_list.values) if text is not None]
        if len(plain) != len(texts):
            raise not_plain
        return plain

    def _number(
        self,
        src: int,
        dst: int,
        slot: str,
        name: str,
        allowed: frozenset | None,
        values: list[tuple[str, Any]],
        extra: float = 0.0,
    ) -> None:
        inside, out = self.state(), self.state()
        entry = self.arc(src, inside, extra=extra, tag=NumberTag(slot, name, allowed))
        self.choices[entry] = SlotChoices(name, tuple(values), (dst,))
        _number_words_graph(self, inside, out)
        self.arc(out, dst, tag=CloseTag())

    def _values(
        self,
        src: int,
        dst: int,
        slot: str,
        name: str,
        values: collections.abc.Sequence[tuple[str | None, Any, Expression | None]],
        exact: bool,
    ) -> None:
        hub = self.state()
        said: list[tuple[str, Any]] = []
        entry = self.arc(src, hub)
        for text, value, expression in values:
            if expression is not None:
                key = id(expression)
                if key not in self._value_fsts:  # each list value is compiled once
                    fst = _word_fst(expression, None, self.intents)
                    texts = [] if fst is None else [normalize(t, strip_fillers=False) for t in _fst_strings(fst)]
                    self._value_fsts[key] = (expression, fst, texts)
                _, fst, texts = self._value_fsts[key]
                if fst is None or not texts:
                    continue
                example = texts[0]
                value = example if value is None else value
                start = self.state()
                self.arc(hub, start, tag=ValueTag(slot, name, value))
                self._splice(fst, start, dst, SLOT_WORD_WEIGHT, exact)
                said += [(text, value) for text in texts]
            else:
                self.words_arc(hub, dst, text or "", SLOT_WORD_WEIGHT, exact, tag=ValueTag(slot, name, value))
                said.append((text or "", value))
        self.choices[entry] = SlotChoices(name, tuple(said), (dst,))
        lone_numbers = [t for t, _ in said if t in NUMBER_WORDS]
        if lone_numbers and not exact:
            # A number word the list does not name ("fifteen" of hearts) is heard as
            # that number, not swapped for a listed one; it is then not available.
            self._number(src, dst, slot, name, frozenset(), [], extra=OTHER_NUMBER_COST)

    def build(self) -> WordGraph:
        if not self.arcs:
            raise GraphError(f"{self.path}: the prompt has no sentence")
        plain = (list(self.arcs), dict(self.choices), list(self.finals), dict(self.final_intent), self.n_states)
        self._merge(backward=True)  # shared endings ("... with {milk} and {sugar}")
        self._merge(backward=False)  # shared beginnings ("[can i get|...] [a|an] ...")
        self._renumber()
        return _from_arcs(
            list(self.words), self.arcs, self.finals, self.n_states, self.choices, self.final_intent, unmerged=plain
        )

    def _merge(self, backward: bool) -> None:
        """Merge states that lead to (or come from) the same words with the same tags:
        the graph says exactly what it said, with each shared part once."""
        n = self.n_states
        links: list[list[int]] = [[] for _ in range(n)]
        indegree = [0] * n
        for i, arc in enumerate(self.arcs):
            links[arc[0] if backward else arc[1]].append(i)
            indegree[arc[1]] += 1
        order = _topological(n, self.arcs, indegree)
        if backward:
            order.reverse()
        finals = set(self.finals)
        cls: dict[int, int] = {}
        seen: dict[tuple, int] = {}
        for state in order:
            far = [(self.arcs[i][2:], cls[self.arcs[i][1] if backward else self.arcs[i][0]]) for i in links[state]]
            key = (state == 0, state in finals, self.final_intent.get(state), frozenset(far))
            cls[state] = seen.setdefault(key, state)
        arcs: list[Arc] = []
        index: dict[Arc, int] = {}
        moved: dict[int, int] = {}
        for i, old in enumerate(self.arcs):
            arc = (cls[old[0]], cls[old[1]], *old[2:])
            if arc not in index:
                index[arc] = len(arcs)
                arcs.append(arc)
            moved[i] = index[arc]
        self.arcs = arcs
        choices: dict[int, SlotChoices] = {}
        for i, c in self.choices.items():
            exits = tuple(dict.fromkeys(cls[e] for e in c.exits))
            known = choices.get(moved[i])
            if known is not None:
                exits = tuple(dict.fromkeys(known.exits + exits))
            choices[moved[i]] = SlotChoices(c.list_name, c.values, exits)
        self.choices = choices
        self.finals = sorted({cls[f] for f in self.finals})
        self.final_intent = {cls[f]: tag for f, tag in self.final_intent.items()}

    def _renumber(self) -> None:
        """States numbered 0.. in order of first use, the start first; unused ones dropped."""
        number: dict[int, int] = {0: 0}
        for a, b, *_ in self.arcs:
            number.setdefault(a, len(number))
            number.setdefault(b, len(number))
        self.arcs = [(number[arc[0]], number[arc[1]], *arc[2:]) for arc in self.arcs]
        self.choices = {
            i: SlotChoices(c.list_name, c.values, tuple(number[e] for e in c.exits if e in number))
            for i, c in self.choices.items()
        }
        self.finals = [number[f] for f in self.finals if f in number]
        self.final_intent = {number[f]: tag for f, tag in self.final_intent.items() if f in number}
        self.n_states = len(number)


@lru_cache(maxsize=4096)
def _words_of(text: str) -> tuple[str, ...]:
    return tuple(normalize(text, strip_fillers=False).split())


def _topological(n: int, arcs: list, indegree: list[int]) -> list[int]:
    out: list[list[int]] = [[] for _ in range(n)]
    for arc in arcs:
        out[arc[0]].append(arc[1])
    ready = [s for s in range(n) if indegree[s] == 0]
    order = []
    while ready:
        state = ready.pop()
        order.append(state)
        for d in out[state]:
            indegree[d] -= 1
            if indegree[d] == 0:
                ready.append(d)
    return order


def compile_graph(sentences: list[Sentence], live: LiveLists | None = None, path: str = "grammar") -> WordGraph:
    """The word graph of these sentences, with the live lists in place of the file's."""
    builder = _Builder(live or {}, path)
    for sentence in sentences:
        builder.sentence(sentence)
    return builder.build()


# ---- hassil.fst, at the word level ------------------------------------------------


def _word_fst(expression: Expression, data: IntentData | None, intents: Intents) -> Fst | None:
    """hassil's graph of one template, with its spaces folded into whole-word arcs."""
    fst = Fst()
    first = fst.next_edge(fst.start, EPS, "sentence")
    body = fst.next_edge(first, SPACE, SPACE)
    end = expression_to_fst(expression, body, fst, data or IntentData([], {}), intents, ListReferenceNode())
    if end is None:
        return None
    final = fst.next_state()
    fst.add_edge(end, final, SPACE, SPACE)
    fst.accept(final)
    words = fst.remove_spaces()
    words.prune()
    return words


def _fst_strings(fst: Fst) -> list[str]:
    return [s for s in fst.to_strings(add_spaces=True)]


def _plain_text(expression: Expression | None) -> str | None:
    """The text of a value that is a plain chunk of words ("three"), else None."""
    if isinstance(expression, TextChunk):
        return normalize(expression.text, strip_fillers=False)
    if isinstance(expression, Sequence):
        chunks = [i for i in expression.items if isinstance(i, TextChunk)]
        if len(chunks) == len(expression.items):
            return normalize("".join(c.text for c in chunks), strip_fillers=False)
    return None


def _as_numbers(values: list[tuple[str, Any]]) -> list[int] | None:
    """The values, when every one is a number said as its own number words ("5" / 5)."""
    numbers = []
    for text, value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
            return None
        if not 0 <= value < 1000 or text != number_words(int(value)):
            return None
        numbers.append(int(value))
    return numbers if values else None


_ONES = "one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def _number_words_graph(builder: _Builder, src: int, dst: int) -> None:
    """Any number from zero to 999 as players say it ("a hundred and five")."""
    w = SLOT_WORD_WEIGHT

    def below_hundred(a: int, b: int) -> None:
        for word in _ONES + _TEENS + _TENS:
            builder.arc(a, b, word, w)
        tens_done = builder.state()
        for word in _TENS:
            builder.arc(a, tens_done, word, w)
        for word in _ONES:
            builder.arc(tens_done, b, word, w)

    builder.arc(src, dst, "zero", w)
    below_hundred(src, dst)
    hundreds, after = builder.state(), builder.state()
    for word in _ONES + ["a"]:
        builder.arc(src, hundreds, word, w)
    builder.arc(hundreds, after, "hundred", w)
    builder.arc(after, dst)
    rest = builder.state()
    builder.arc(after, rest)
    builder.arc(after, rest, "and", w)
    below_hundred(rest, dst)


def number_value(words: list[str]) -> int | None:
    """The number that number words say ("a hundred and five" -> 105), or None."""
    values = {w: i + 1 for i, w in enumerate(_ONES)}
    values.update({w: i + 10 for i, w in enumerate(_TEENS)})
    values.update({w: (i + 2) * 10 for i, w in enumerate(_TENS)})
    values.update({"zero": 0, "a": 1})
    total, current = 0, 0
    for word in words:
        if word == "and":
            continue
        if word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total += (current or 1) * 1000
            current = 0
        elif word in values:
            current += values[word]
        else:
            return None
    return total + current
