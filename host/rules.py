"""A game's rule options from text: the command line's and a saved config's values
("12", "on") checked against each rule's default and converted to its type, with one
spoken reason when a value does not fit. Every engine shares these checks.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from host.contract import Json
from host.engine import RuleError, join_names
from host.errors import did_you_mean

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
RULE_TYPES = (bool, int, float, str)  # bool first: a bool is also an int


R = TypeVar("R", bound=Mapping[str, object])
"""A game's rules: its own TypedDict, the shape of its RULE_DEFAULTS."""


def merge_rules(title: str, defaults: R, given: Mapping[str, Json]) -> R:
    """`given` over a copy of `defaults`, each value in its default's type.

    Rules come from the command line or a saved config, often as text ("12",
    "on"); every engine needs the same checks, so they live here and speak the
    same way. A value whose default is bool, int, float or str is converted with
    `convert_rule`. Where the default is None, a dict or a list, the value passes
    through unchanged: only the engine knows its shape (suit values, starters,
    "ask the players"). Ranges and allowed choices stay in the engines too, which is
    where those values' shapes are checked: the result has the defaults' type as far
    as this checks it, and the engine's check_rules the rest.
    """
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        noun = "rule" if len(unknown) == 1 else "rules"
        close = (did_you_mean(unknown[0], defaults) if len(unknown) == 1 else "") or "."
        raise RuleError(
            f"{title} has no {noun} called {join_names(unknown)}{close} Its rules are: {join_names(list(defaults))}."
        )
    rules = copy.deepcopy(dict(defaults))
    for key, value in given.items():
        kind = next((k for k in RULE_TYPES if isinstance(defaults[key], k)), None)
        rules[key] = value if kind is None else convert_rule(key, value, kind)
    return cast(R, rules)


def convert_rule(key: str, value: Any, kind: type) -> Any:
    """One rule value as `kind` (bool, int, float or str), accepting it as text.

    Engines also call it for values merge_rules leaves alone: a rule whose default
    is None, or the numbers inside a list. A value that cannot be read that way
    raises RuleError with a reason fit to be spoken.
    """
    text = value.strip() if isinstance(value, str) else None
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is bool:
        if isinstance(value, bool):
            return value
        word = text.lower() if text is not None else str(value) if is_number else ""
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise RuleError(f"The rule {key} must be true or false.")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)  # 3.0, as a JSON config or a speech matcher may give it
        if text is not None and re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        raise RuleError(f"The rule {key} must be a whole number.")
    if kind is float:
        number = float(value) if is_number else _float_or_none(text)
        if number is None or not math.isfinite(number):
            raise RuleError(f"The rule {key} must be a number.")
        return number
    if kind is str:
        if text is not None:
            return text
        if is_number:
            return str(value)  # a name such as 7, which a command line reads as a number
        raise RuleError(f"The rule {key} must be a word or a name.")
    raise TypeError(f"convert_rule cannot make a {kind.__name__}")


def _float_or_none(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None
