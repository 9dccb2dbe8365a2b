"""docs/specs/ documents every prompt, intent and event type the code produces.

The prompts and intents come from the grammars (what players can say) and from the
engines' and session's own dict literals (timeouts, phone buttons); the event types
from every {"type": ...} the host, the engines and the command line write.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from host.games import game_ids
from voice.grammar import load_grammar

REPO = Path(__file__).resolve().parents[1]
SPECS = REPO / "docs" / "specs"


def documented(name: str) -> set[str]:
    """Every `code span` of a spec file."""
    return set(re.findall(r"`([^`]+)`", (SPECS / name).read_text(encoding="utf-8")))


def literal_values(key: str, folders: list[str]) -> set[str]:
    """The constant string values of `key` in dict literals of the Python files under folders."""
    found = set()
    for folder in folders:
        for path in (REPO / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    for k, v in zip(node.keys, node.values):
                        if (isinstance(k, ast.Constant) and k.value == key and isinstance(v, ast.Constant)
                                and isinstance(v.value, str)):
                            found.add(v.value)
    return found


GRAMMARS = [load_grammar(name) for name in ("common", *game_ids())]


def test_every_prompt_is_documented():
    prompts = {prompt for grammar in GRAMMARS for prompt in grammar.prompts if prompt != "common/any"}
    assert len(prompts) > 15
    assert sorted(prompts - documented("intents.md")) == []


def test_every_intent_is_documented():
    said = {intent for grammar in GRAMMARS for names in grammar.prompts.values() for intent in names}
    made = literal_values("intent", ["host"])          # timeouts, phone buttons, UNCLEAR tables
    assert {"timeout", "play_card"} <= made and "bid" in said
    assert sorted((said | made) - documented("intents.md")) == []


def test_every_event_type_is_documented():
    types = literal_values("type", ["host", "partyhost"])
    assert {"game_start", "heard", "say", "reveal", "game_over"} <= types
    assert sorted(types - documented("events.md")) == []


def test_the_contract_code_cites_the_specs_in_the_repo():
    for path in ("host/engine.py", "host/eventlog.py"):
        text = (REPO / path).read_text(encoding="utf-8")
        assert "docs/specs/" in text and "shared/specs" not in text, path
