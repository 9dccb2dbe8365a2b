"""Grammars: hassil-format YAML templates, and the prompts that use them.

A grammar file (grammars/*.yaml, format in docs/grammar.md) names prompts, the
intents each prompt accepts, sentence templates and slot lists. hassil parses the
templates; voice/understanding/graph.py compiles a prompt's templates into a word graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml
from hassil.expression import Alternative, Expression, ListReference, Permutation, RuleReference, Sequence
from hassil.intents import Intents

from host.contract import Intent
from host.errors import PartyhostError
from voice.understanding.grammar_folder import GRAMMAR_DIR
from voice.understanding.graph import IntentTag, LiveLists, Sentence, WordGraph, compile_graph
from voice.understanding.normalize import normalize

COMMON_PROMPT = "common/any"
"""The prompt whose intents (repeat, help, undo ...) are added to every prompt."""


class GrammarError(PartyhostError):
    """A grammar file that cannot be used; says which file and what is wrong."""


@dataclass
class Grammar:
    """One grammar file, parsed: prompts -> intents, templates, lists."""

    path: Path
    prompts: dict[str, list[str]]
    intents: Intents
    list_slots: frozenset[str] = frozenset()
    fallbacks: dict[str, Intent] = field(default_factory=dict)
    min_scores: dict[str, float] = field(default_factory=dict)
    exact_intents: dict[str, list[str]] = field(default_factory=dict)
    """prompt -> intents matched only as said, never by a near spelling (see PhraseTable)."""
    second_listener: frozenset[str] = frozenset()
    """Prompts whose exact intents a second listener judges again (Keep Cool's words in
    play): its model loads only in a game that has one (issue 43: 460 MB in Centurion)."""
    command_prefixes: dict[str, str] = field(default_factory=dict)
    """prompt -> a word the common commands need in front at that prompt ("host, score")."""
    by_sound: dict[str, list[str]] = field(default_factory=dict)
    """prompt -> intents that, naming a value of a live list, may be found by sound where
    the free reading is no likely reply (a claim "that's Ben's" read "that spins")."""
    prompted_commands: frozenset[str] = frozenset()
    """Prompts (or parts of a joined one) whose recogniser prompt names the common commands
    right after the prompt's own first phrases: the narrowed questions and "Did you mean"."""
    unavailable: dict[str, str] = field(default_factory=dict)
    """list name -> what to say when a clear value of it is not available now
    ("There is no card {said}. Your cards are {choices}.")."""

    @classmethod
    def load(cls, path: Path) -> Grammar:
        path = Path(path)
        if not path.is_file():
            raise GrammarError(f"{path}: grammar file not found")
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            data.setdefault("language", "en")
            data.setdefault("intents", {})
            intents = Intents.from_dict(data)
            for intent in intents.intents.values():  # hassil parses templates lazily
                for block in intent.data:
                    _ = block.sentences
        except Exception as error:  # yaml and hassil raise many kinds
            raise GrammarError(f"{path}: {error}") from error
        prompts = {name: list(names) for name, names in (data.get("prompts") or {}).items()}
        for prompt, names in prompts.items():
            for name in names:
                if name not in intents.intents:
                    raise GrammarError(f"{path}: prompt {prompt} names unknown intent {name!r}")
        return cls(
            path=path,
            prompts=prompts,
            intents=intents,
            list_slots=frozenset(data.get("list_slots") or ()),
            fallbacks=dict(data.get("fallbacks") or {}),
            min_scores=dict(data.get("min_scores") or {}),
            exact_intents={k: list(v) for k, v in (data.get("exact_intents") or {}).items()},
            second_listener=frozenset(_names(path, "second_listener", data.get("second_listener"))),
            prompted_commands=frozenset(_names(path, "prompted_commands", data.get("prompted_commands"))),
            command_prefixes={
                k: normalize(str(v), strip_fillers=False) for k, v in (data.get("command_prefixes") or {}).items()
            },
            unavailable={str(k): str(v) for k, v in (data.get("unavailable") or {}).items()},
            by_sound={k: list(v) for k, v in (data.get("by_sound") or {}).items()},
        )

    def sentences(self, prompt: str, prefix: str | None = None, first_order: int = 0) -> list[Sentence]:
        """Every template of every intent the prompt accepts, in grammar order (earlier
        wins a tie); `prefix`: a word each must start with (the common commands')."""
        if prompt not in self.prompts:
            raise GrammarError(f"{self.path}: no prompt named {prompt!r}")
        exact = set(self.exact_intents.get(prompt, ()))
        result = []
        for order, intent_name in enumerate(self.prompts[prompt], start=first_order):
            for data in self.intents.intents[intent_name].data:
                for sentence in data.sentences:
                    lists = tuple(sorted(self.list_slots & self._slot_names(sentence.expression)))
                    tag = IntentTag(intent_name, tuple(data.slots.items()), lists, order)
                    result.append(Sentence(sentence.expression, data, self.intents, tag, intent_name in exact, prefix))
        return result

    def graph(self, prompt: str, live: LiveLists | None = None) -> WordGraph:
        """The prompt's word graph alone (no common commands), with these live lists."""
        try:
            return compile_graph(self.sentences(prompt), live, str(self.path))
        except GrammarError:
            raise
        except Exception as error:  # an unknown list or rule, a loop
            raise GrammarError(f"{self.path}: prompt {prompt}: {error}") from error

    @cached_property
    def words(self) -> frozenset[str]:
        """Every word of the game's own prompts (their lists as the file gives them):
        a word a player says for the game ("lower") is never a slip for a command ("slower")."""
        found: set[str] = set()
        for prompt in self.prompts:
            try:
                found.update(self.graph(prompt).words)
            except GrammarError:  # a prompt that needs live lists to compile
                continue
        return frozenset(found)

    def _slot_names(self, expr: Expression) -> set[str]:
        """Every slot a template can fill (so list slots it never fills stay out)."""
        if isinstance(expr, ListReference):
            return {expr.slot_name}
        if isinstance(expr, RuleReference) and expr.rule_name in self.intents.expansion_rules:
            return self._slot_names(self.intents.expansion_rules[expr.rule_name].expression)
        if isinstance(expr, (Sequence, Alternative, Permutation)):
            return set().union(set(), *(self._slot_names(item) for item in expr.items))
        return set()


@cache
def load_grammar(name: str, directory: Path = GRAMMAR_DIR) -> Grammar:
    """The grammar file grammars/NAME.yaml, parsed once per process."""
    path = directory / f"{name}.yaml"
    if not path.exists():
        raise GrammarError(f"{path}: grammar file not found")
    return Grammar.load(path)


def _names(path: Path, key: str, value: Any) -> list[str]:
    """A list of prompt names (`second_listener: [keep-cool/word]`); a bare string is refused,
    as it would read as its letters."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise GrammarError(f"{path}: {key} must be a list of prompt names, like [game/prompt]")
    return value
