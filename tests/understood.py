"""Scripted replies for the session's tests, understood as ears understand them.

Ears hand the session an Understood (host/contract.py); scripted ears do the same with
the text understanding (voice/understanding/understand.py), so a script says words
and the session meets what the ears would make of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.contract import Outcome, Source, Understood
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding

UNDERSTAND = TextUnderstanding(Matcher())
TIMED_OUT = Understood(Outcome.TIMED_OUT)


@dataclass(frozen=True)
class Say:
    """Words understood at the prompt they answer: spoken when they have a start, and
    unsure when the ears heard `rival` nearly as well."""

    text: str
    rival: str = ""
    start: float | None = None
    end: float | None = None
    listening_from: float | None = None

    def heard(self, prompt, understand: TextUnderstanding = UNDERSTAND) -> Understood:
        source = Source.VOICE if self.start is not None else Source.TYPED
        return understand(
            prompt,
            self.text,
            source,
            rival=self.rival,
            start=self.start,
            end=self.end,
            listening_from=self.listening_from,
        )


class Understands:
    """For scripted ears: `understood(prompt, line)` and the Ears' reread."""

    understand = UNDERSTAND

    def understood(self, prompt, line) -> Understood:
        if isinstance(line, Understood):
            return line
        if isinstance(line, Say):
            return line.heard(prompt, self.understand)
        return TIMED_OUT if line == "..." else self.understand(prompt, line)

    def reread(self, prompt, text: str) -> Understood:
        return self.understand(prompt, text)
