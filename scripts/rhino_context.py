#!/usr/bin/env python3
"""Translate a Picovoice Rhino context (YAML) into partyhost's grammar format, whole.

    scripts/rhino_context.py RHINO.yaml NAME > docs/examples/NAME.yaml

Rhino writes optional word lists as "[a, b]" and slots as "$list:slot"; hassil writes
"[a|b]" and "{list:slot}". Every expression is kept as it is, with its prefixes and
articles: nothing is cut, however many phrases it would expand to. Each intent gets
the prompt NAME/order (the first intent) or NAME/<intent>.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml


def template(expression: str) -> str:
    """One Rhino expression as a hassil template."""
    text = re.sub(r"\[([^\]]*)\]", lambda m: "[" + "|".join(p.strip() for p in m[1].split(",")) + "]", expression)
    return re.sub(r"\$(\w+):(\w+)", r"{\1:\2}", text)


def translate(rhino: dict, name: str) -> dict:
    context = rhino["context"]
    intents = {
        intent: {"data": [{"sentences": [template(e) for e in expressions]}]}
        for intent, expressions in context["expressions"].items()
    }
    names = list(intents)
    prompts = {f"{name}/order": [names[0]], **{f"{name}/{n}": [n] for n in names[1:]}}
    lists = {slot: {"values": [str(v).strip() for v in values]} for slot, values in context["slots"].items()}
    return {"language": "en", "prompts": prompts, "intents": intents, "lists": lists}


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, name = Path(sys.argv[1]), sys.argv[2]
    grammar = translate(yaml.safe_load(source.read_text(encoding="utf-8")), name)
    print(
        f"# {name}: Picovoice Rhino's context for its speech-to-intent benchmark, translated whole\n"
        f"# by scripts/rhino_context.py. Source: Picovoice speech-to-intent-benchmark, Apache-2.0\n"
        f"# (the licence is in ../shared/peers/picovoice/LICENSE beside the original)."
    )
    print(yaml.safe_dump(grammar, sort_keys=False, width=200))
    return 0


if __name__ == "__main__":
    sys.exit(main())
