"""Grammars: hassil-format YAML templates expanded into phrase tables.

A grammar file (grammars/*.yaml, format in docs/grammar.md) names prompts, the
intents each prompt accepts, sentence templates and slot lists. hassil parses the
templates; this module walks the parsed expressions and enumerates every phrase
together with the slot values it fills, because the matcher and the recognizers
need the full list of what can be said, not a yes/no parse.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import yaml
from hassil.expression import (Alternative, Expression, ListReference, Permutation,
                               RuleReference, Sequence, TextChunk)
from hassil.intents import Intents, RangeSlotList, TextSlotList

from .normalize import normalize

from grammars import FOLDER as GRAMMAR_DIR  # noqa: E402  (package data: grammars/__init__.py)
COMMON_PROMPT = "common/any"
"""The prompt whose intents (repeat, help, undo ...) are added to every prompt."""

MAX_PHRASES = 50_000
"""A template that expands past this is a grammar bug (it would slow decoding)."""

SlotValues = tuple[tuple[str, Any], ...]
LiveLists = dict[str, list[tuple[str, Any]]]


class GrammarError(Exception):
    """A grammar file that cannot be used; says which file and what is wrong."""


@dataclass(frozen=True)
class Phrase:
    """One thing a player can say, normalised, and the Intent it stands for."""

    text: str
    intent: dict[str, Any]


@dataclass
class Grammar:
    """One grammar file, parsed: prompts -> intents, templates, lists."""

    path: Path
    prompts: dict[str, list[str]]
    intents: Intents
    list_slots: frozenset[str] = frozenset()
    fallbacks: dict[str, dict[str, Any]] = field(default_factory=dict)
    min_scores: dict[str, float] = field(default_factory=dict)
    exact_intents: dict[str, list[str]] = field(default_factory=dict)
    """prompt -> intents matched only as said, never by a near spelling (see PhraseTable)."""
    command_prefixes: dict[str, str] = field(default_factory=dict)
    """prompt -> a word the common commands need in front at that prompt ("host, score")."""

    @classmethod
    def load(cls, path: Path) -> "Grammar":
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            data.setdefault("language", "en")
            data.setdefault("intents", {})
            intents = Intents.from_dict(data)
            for intent in intents.intents.values():   # hassil parses templates lazily
                for block in intent.data:
                    _ = block.sentences
        except Exception as error:  # yaml and hassil raise many kinds
            raise GrammarError(f"{path}: {error}") from error
        prompts = {name: list(names) for name, names in (data.get("prompts") or {}).items()}
        for prompt, names in prompts.items():
            for name in names:
                if name not in intents.intents:
                    raise GrammarError(f"{path}: prompt {prompt} names unknown intent {name!r}")
        return cls(path=path, prompts=prompts, intents=intents,
                   list_slots=frozenset(data.get("list_slots") or ()),
                   fallbacks=dict(data.get("fallbacks") or {}),
                   min_scores=dict(data.get("min_scores") or {}),
                   exact_intents={k: list(v) for k, v in (data.get("exact_intents") or {}).items()},
                   command_prefixes={k: normalize(str(v), strip_fillers=False)
                                     for k, v in (data.get("command_prefixes") or {}).items()})

    def phrases(self, prompt: str, live: LiveLists | None = None) -> list[Phrase]:
        """Every phrase of every intent the prompt accepts, with its Intent."""
        if prompt not in self.prompts:
            raise GrammarError(f"{self.path}: no prompt named {prompt!r}")
        expander = _Expander(self, live or {})
        result: list[Phrase] = []
        for intent_name in self.prompts[prompt]:
            for data in self.intents.intents[intent_name].data:
                for sentence in data.sentences:
                    own_lists = self.list_slots & self._slot_names(sentence.expression)
                    for text, slots in expander.expand(sentence.expression, data.slot_lists):
                        intent = {"intent": intent_name, **data.slots}
                        intent.update(self._collect(slots, own_lists))
                        result.append(Phrase(normalize(text, strip_fillers=False), intent))
                        if len(result) > MAX_PHRASES:
                            raise GrammarError(
                                f"{self.path}: prompt {prompt} expands past {MAX_PHRASES} phrases")
        return result

    def _slot_names(self, expr: Expression) -> set[str]:
        """Every slot a template can fill (so list slots it never fills stay out)."""
        if isinstance(expr, ListReference):
            return {expr.slot_name}
        if isinstance(expr, RuleReference) and expr.rule_name in self.intents.expansion_rules:
            return self._slot_names(self.intents.expansion_rules[expr.rule_name].expression)
        if isinstance(expr, (Sequence, Alternative, Permutation)):
            return set().union(set(), *(self._slot_names(item) for item in expr.items))
        return set()

    def _collect(self, slots: SlotValues, list_fields: set[str]) -> dict[str, Any]:
        fields: dict[str, Any] = {name: [] for name in list_fields}
        for name, value in slots:
            if name in self.list_slots:
                fields[name].append(value)
            else:
                fields[name] = value
        return fields


class _Expander:
    """Enumerates (text, slot values) for a parsed hassil expression."""

    def __init__(self, grammar: Grammar, live: LiveLists):
        self.grammar = grammar
        self.live = live

    def expand(self, expr: Expression, local_lists: dict) -> Iterator[tuple[str, SlotValues]]:
        if isinstance(expr, TextChunk):
            yield expr.text, ()
        elif isinstance(expr, Permutation):
            for order in itertools.permutations(expr.items):
                yield from self._sequence(list(order), local_lists)
        elif isinstance(expr, Alternative):
            for item in expr.items:
                yield from self.expand(item, local_lists)
        elif isinstance(expr, Sequence):
            yield from self._sequence(expr.items, local_lists)
        elif isinstance(expr, ListReference):
            yield from self._list(expr, local_lists)
        elif isinstance(expr, RuleReference):
            rules = self.grammar.intents.expansion_rules
            if expr.rule_name not in rules:
                raise GrammarError(f"{self.grammar.path}: unknown rule <{expr.rule_name}>")
            yield from self.expand(rules[expr.rule_name].expression, local_lists)
        else:
            raise GrammarError(f"{self.grammar.path}: unsupported template part {expr!r}")

    def _sequence(self, items: list[Expression], local_lists: dict):
        parts = [list(self.expand(item, local_lists)) for item in items]
        for combo in itertools.product(*parts):
            yield "".join(text for text, _ in combo), tuple(s for _, slots in combo for s in slots)

    def _list(self, ref: ListReference, local_lists: dict):
        slot = ref.slot_name
        if ref.list_name in self.live:
            for text, value in self.live[ref.list_name]:
                yield text, ((slot, value),)
            return
        slot_list = local_lists.get(ref.list_name) or self.grammar.intents.slot_lists.get(ref.list_name)
        if isinstance(slot_list, RangeSlotList):
            for number in slot_list.get_numbers():
                yield str(number), ((slot, number),)
        elif isinstance(slot_list, TextSlotList):
            for value in slot_list.values:
                for text, inner in self.expand(value.text_in, local_lists):
                    yield text, inner + ((slot, value.value_out if value.value_out is not None
                                          else text.strip()),)
        else:
            raise GrammarError(f"{self.grammar.path}: no list named {{{ref.list_name}}}")


@lru_cache(maxsize=None)
def load_grammar(name: str, directory: Path = GRAMMAR_DIR) -> Grammar:
    """The grammar file grammars/NAME.yaml, parsed once per process."""
    path = directory / f"{name}.yaml"
    if not path.exists():
        raise GrammarError(f"{path}: grammar file not found")
    return Grammar.load(path)
