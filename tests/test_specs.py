"""docs/specs/ documents every prompt, intent and event type the code produces.

The prompts and intents come from the grammars (what players can say) and from the
engines' and session's own dict literals (timeouts, phone buttons); the event types
from the session's typed entries (host/log_events.py) and every {"type": ...} the
engines and the command line write.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from host.games import game_ids
from voice.understanding.grammar import load_grammar

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
                        if (
                            isinstance(k, ast.Constant)
                            and k.value == key
                            and isinstance(v, ast.Constant)
                            and isinstance(v.value, str)
                        ):
                            found.add(v.value)
    return found


GRAMMARS = [load_grammar(name) for name in ("common", *game_ids())]


def test_every_prompt_is_documented():
    prompts = {prompt for grammar in GRAMMARS for prompt in grammar.prompts if prompt != "common/any"}
    assert len(prompts) > 15
    assert sorted(prompts - documented("intents.md")) == []


def test_every_intent_is_documented():
    said = {intent for grammar in GRAMMARS for names in grammar.prompts.values() for intent in names}
    made = literal_values("intent", ["host"])  # timeouts, phone buttons, UNCLEAR tables
    assert {"timeout", "play_card"} <= made and "bid" in said
    assert sorted((said | made) - documented("intents.md")) == []


def test_every_event_type_is_documented():
    from host.log_events import kinds

    types = literal_values("type", ["host", "partyhost"]) | kinds()
    assert {"game_start", "heard", "say", "reveal", "game_over", "narrowed_prompt", "misheard"} <= types
    assert sorted(types - documented("events.md")) == []


def test_the_contract_code_cites_the_specs_in_the_repo():
    for path in ("host/engine.py", "host/eventlog.py"):
        text = (REPO / path).read_text(encoding="utf-8")
        assert "docs/specs/" in text and "shared/specs" not in text, path


def test_the_typed_intent_names_every_field_grammars_and_engines_fill():
    """host.contract.Intent lists every slot a grammar fills and every key of the intents
    the code writes itself, so the typed contract stays complete."""
    from host.contract import Intent
    from host.engine import Action

    filled = set()
    for grammar in GRAMMARS:
        for intent in grammar.intents.intents.values():
            for block in intent.data:
                filled |= set(block.slots)
                filled |= {name for sentence in block.sentences for name in grammar._slot_names(sentence.expression)}
    for path in (REPO / "host").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            keys = {k.value for k in getattr(node, "keys", []) if isinstance(k, ast.Constant)}
            if isinstance(node, ast.Dict) and "intent" in keys and "type" not in keys:
                filled |= keys
    assert {"value", "card", "rank", "word"} <= filled
    assert sorted(filled - set(Action.__annotations__)) == []
    assert set(Action.__annotations__) - set(Intent.__annotations__) == {"player"}


def test_each_game_reads_every_intent_its_prompts_hear_as_one_of_its_kinds():
    """Each game's Move has a TypedDict for every intent its grammar gives its prompts (the
    common commands aside: the session answers them), and no field Intent lacks, so any
    move the journal holds reads as one of them (host/moves.py). A kind no grammar gives
    is one the session makes (a timeout) or a yes or no a phone or a narrowed question sends."""
    import sys
    from typing import get_args, get_type_hints

    from host.common_commands import COMMON_INTENTS
    from host.contract import Intent
    from host.games import get_game

    for game_id in game_ids():
        kinds = get_args(sys.modules[get_game(game_id).apply.__module__].Move)
        names = {name for kind in kinds for name in get_args(get_type_hints(kind)["intent"])}
        said = {intent for names in load_grammar(game_id).prompts.values() for intent in names} - COMMON_INTENTS
        assert said and said <= names, (game_id, sorted(said - names))
        assert names - said <= {"timeout", "yes", "no"}, (game_id, sorted(names - said))
        for kind in kinds:
            assert set(get_type_hints(kind)) - {"player"} <= set(Intent.__annotations__), (game_id, kind.__name__)


def test_every_event_an_engine_writes_has_its_typed_shape():
    """Each {"type": ...} an engine builds is one of host.engine.Event's TypedDicts,
    with no key the shape does not name."""
    from typing import get_args

    from host.engine import Event

    shapes = {}
    for shape in get_args(Event):
        name = shape.__name__.removesuffix("Event")
        shapes[re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()] = set(shape.__annotations__)
    for path in (REPO / "host" / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            entries = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
            kind = entries.get("type")
            if isinstance(kind, ast.Constant) and kind.value in shapes:
                assert set(entries) <= shapes[kind.value], (path.name, kind.value)
    assert {"say", "reveal", "game_over", "questions_used"} <= set(shapes)


def test_the_commands_the_session_handles_are_the_common_grammar_s():
    """host.common_commands.COMMON_INTENTS (host/ reads no grammar) and grammars/common.yaml's
    common/any prompt, with resume from the pause's own prompt, name the same commands,
    so neither can gain one the other lacks; host.moves types each of them (CommonCommand)."""
    from typing import get_args, get_type_hints

    from host.common_commands import COMMON_INTENTS
    from host.contract import PAUSED_PROMPT
    from host.moves import CommonCommand

    common = next(grammar for grammar in GRAMMARS if "common/any" in grammar.prompts)
    assert common.prompts[PAUSED_PROMPT] == ["resume"] and "resume" not in common.prompts["common/any"]
    assert set(common.prompts["common/any"]) | {"resume"} == COMMON_INTENTS
    typed = {name for kind in get_args(CommonCommand) for name in get_args(get_type_hints(kind)["intent"])}
    assert typed == COMMON_INTENTS
