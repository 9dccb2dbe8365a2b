"""What may follow the wake word or "host," at a prompt: text understanding, no audio.

The ears read what follows the wake word against it (voice/listening/ears.py), and
typed play reads what follows "host," or the wake word's phrase the same way
(partyhost/textio.py), so a command means the same spoken or typed.
"""

from __future__ import annotations

from functools import cached_property

from host.contract import PAUSED_PROMPT, Acts, Source, prompt_parts  # where host and voice meet
from voice.understanding.grammar import COMMON_PROMPT
from voice.understanding.matcher import Match, Matcher, PromptGraph
from voice.understanding.understand import understood


class Commands:
    """A voice.understanding.matcher.PromptTable: the prompt's phrases said after its
    command prefix, without the prefix ("scores", "relaxed mode" at a Keep Cool turn),
    or the common commands where the prompt has no prefix. Anything else is refused:
    after the wake word a clue or a move is never taken."""

    def __init__(self, matcher: Matcher, prompt: str, live: dict | None = None):
        self.prompt = matcher.table(prompt, live)
        self.prefix = self.prompt.prefix
        self.common: PromptGraph | None = None if self.prefix else matcher.table(_commands_at(prompt))
        self.exact: frozenset[str] = frozenset()

    def decodable(self) -> PromptGraph | None:
        """Never decoded inside a grammar: the commands are no one graph."""
        return None

    def addressed(self) -> PromptGraph | None:
        """None: the prefix (the wake word) is already cut off."""
        return None

    @cached_property
    def texts(self) -> list[str]:
        """For the recogniser: one phrase of each command first (a prompt of limited
        length would otherwise be all "set the timer to ..."), then the rest."""
        if self.common is not None:
            return self.common.texts
        lead = f"{self.prefix} "
        said = [
            (text[len(lead) :], intent)
            for text, intent in self.prompt.examples
            if intent is not None and text.startswith(lead)
        ]
        first: dict[str, str] = {}
        for text, intent in said:
            first.setdefault(intent["intent"], text)
        return list(dict.fromkeys([*first.values(), *(text for text, _ in said)]))

    def match(self, heard: str) -> Match:
        if self.common is not None:
            return self.common.match(heard)
        found = self.prompt.match(f"{self.prefix} {heard}")
        if found.intent is None or found.intent["intent"] not in self.prompt.addressed_intents:
            return Match(heard, None, 0.0, accept=found.accept)
        return found

    def command(self, heard: str, acts: Acts) -> Match | None:
        """The command `heard` names surely, or None (one that needs asking about is none)."""
        return sure_command(self.match(heard), acts)


def _commands_at(prompt: str) -> str:
    """The prompt of the commands said after the wake word: the common ones, and resume
    only where the game is paused (host.contract.PAUSED_PROMPT), as without the wake word."""
    return PAUSED_PROMPT if PAUSED_PROMPT in prompt_parts(prompt) else COMMON_PROMPT


def sure_command(match: Match | None, acts: Acts) -> Match | None:
    """A command is taken only when the host would act on it unasked (`acts`, its rule):
    after an address nothing is asked about."""
    return match if match is not None and acts(understood(match, Source.WAKE, match.text)) else None
