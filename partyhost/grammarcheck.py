"""Grammars checked before a game is saved: a broken one is one line with its file and line.

voice.understanding.grammar loads and parses the files; this only calls it up front, for every
grammar a game will use, and turns whatever it raises into `FILE:LINE: reason`.
The line comes from the error where YAML gives one, from the template hassil
quotes, or from the top-level key whose value has the wrong shape.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from host.errors import PartyhostError
from voice.understanding.grammar import GrammarError, load_grammar
from voice.understanding.grammar_folder import GRAMMAR_DIR

MAPPING_KEYS = (
    "prompts",
    "intents",
    "lists",
    "expansion_rules",
    "fallbacks",
    "min_scores",
    "exact_intents",
    "command_prefixes",
)
SEQUENCE_KEYS = ("list_slots",)


class GrammarProblem(PartyhostError):
    """A grammar file that cannot be used: 'FILE:LINE: reason'."""


def check_grammars(names: list[str], directory: Path = GRAMMAR_DIR) -> None:
    """Load each grammar (and the common one) now; GrammarProblem for the first broken file."""
    for name in dict.fromkeys(["common", *names]):
        path = directory / f"{name}.yaml"
        try:
            load_grammar(name, directory)
        except GrammarError as error:
            raise GrammarProblem(_located(path, _without_path(str(error), path))) from error
        except Exception as error:  # grammar files are user-editable: any failure is theirs to fix
            raise GrammarProblem(_located(path, f"{type(error).__name__}: {error}")) from error


def _without_path(message: str, path: Path) -> str:
    return message[len(f"{path}: ") :] if message.startswith(f"{path}: ") else message


def _located(path: Path, reason: str) -> str:
    line = _yaml_line(reason) or _template_line(path, reason) or _shape_line(path)
    reason = " ".join(reason.split())
    if line and line[1]:
        reason = f"{line[1]} ({reason})"
    return f"{path}:{line[0]}: {reason}" if line else f"{path}: {reason}"


def _yaml_line(reason: str) -> tuple[int, str] | None:
    found = re.search(r"line (\d+), column \d+", reason)
    return (int(found.group(1)), "") if found else None


def _template_line(path: Path, reason: str) -> tuple[int, str] | None:
    """hassil names the template it could not parse ('... in: TEMPLATE'): find it in the file."""
    found = re.search(r" in: (.+)$", reason)
    if not found:
        return None
    template = found.group(1).strip()
    for number, text in enumerate(_lines(path), 1):
        if template in text:
            return number, ""
    return None


def _shape_line(path: Path) -> tuple[int, str] | None:
    """The first top-level key whose value is not the mapping or list it must be."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if root is None:
        return None
    if not isinstance(root, yaml.MappingNode):
        return root.start_mark.line + 1, "a grammar file must be a mapping of keys"
    for key, value in root.value:
        name = getattr(key, "value", None)
        if name in MAPPING_KEYS and not isinstance(value, yaml.MappingNode) and value.tag != "tag:yaml.org,2002:null":
            return value.start_mark.line + 1, f"{name} must be a mapping"
        if name in SEQUENCE_KEYS and not isinstance(value, yaml.SequenceNode) and value.tag != "tag:yaml.org,2002:null":
            return value.start_mark.line + 1, f"{name} must be a list"
    return None


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
