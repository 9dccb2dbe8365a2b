"""How deep a JSON-like value nests, found without recursion.

A peer's event (voice/remote/wire.py) and a settings file (partyhost/config.py) may hold
values nested thousands deep; Python's own recursion would end in a RecursionError, so
both are walked with a stack and refused past their limit. Kept apart from the wire so
that reading settings loads no network code.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def walk(value: Any) -> Iterator[tuple[Any, int]]:
    """Every value inside a JSON-like value with its level (the value itself: 1), without recursion."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        yield item, level
        if isinstance(item, (list, dict)):
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))


def depth(value: Any) -> int:
    """How deep lists and objects nest in a JSON value (a scalar: 0)."""
    return max((level for item, level in walk(value) if isinstance(item, (list, dict))), default=0)
