"""Act, ask first, or ask again: the one rule for what the host does with a reply.

The session follows it live, and the benchmarks count with it, so a figure always
means what a player would have met.
"""

from __future__ import annotations

from typing import Any, Protocol

ACT, ASK_FIRST, ASK_AGAIN = "act", "ask first", "ask again"


class Understood(Protocol):
    intent: dict[str, Any] | None

    @property
    def needs_confirmation(self) -> bool: ...


def decide(understanding: Understood, unsure: bool = False) -> str:
    """ASK_AGAIN when nothing was understood; ASK_FIRST ("Did you mean ...?") for a
    middling match, or when the ears heard another move nearly as well (`unsure`);
    else ACT."""
    if understanding.intent is None:
        return ASK_AGAIN
    if understanding.needs_confirmation or unsure:
        return ASK_FIRST
    return ACT
