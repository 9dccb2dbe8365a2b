"""A match as the host takes it: one Understood, with its verdict by the contract's rule.

The ears build theirs from the match their reading already made (voice/listening/ears.py);
typed lines and an assistant's transcripts are matched here, once (TextUnderstanding).
"""

from __future__ import annotations

from typing import Any

from host.contract import Intent, Outcome, Prompt, Source, Understood, Verdict, decide  # where host and voice meet
from voice.understanding.matcher import Match, Matcher


def understood(
    match: Match,
    source: Source,
    text: str,
    rival: str = "",
    cut: str = "",
    snr_db: float | None = None,
    agreed: bool | None = None,
    **timing: Any,
) -> Understood:
    """A reply whose words gave `match`: its verdict is decide's, unsure when the ears
    heard `rival` nearly as well, asked about when they say why it may have been
    `cut` (voice/listening/reading.py cut_sign), and in a loud room (`snr_db`) when the
    grammar's and the free reading did not agree (`agreed` False). `timing`: Understood's
    confidence and timing fields (confidence defaults to the match score / 100, as for typed words)."""
    timing.setdefault("confidence", match.score / 100)
    return Understood(
        Outcome.REPLY,
        source,
        text,
        match.intent.copy() if match.intent is not None else None,
        match.phrase,
        match.score,
        rival=rival,
        cut=cut,
        snr_db=snr_db,
        agreed=agreed,
        verdict=decide(match, bool(rival), bool(cut), snr_db, agreed),
        unavailable=match.unavailable,
        **timing,
    )


def decided(intent: Intent, source: Source, text: str, **timing: Any) -> Understood:
    """A move settled where it was made (a button, a command after an address): acted on."""
    return Understood(Outcome.DECIDED, source, text, intent.copy(), text, 100.0, verdict=Verdict.ACT, **timing)


class TextUnderstanding:
    """Words to Understood against a prompt, matched once: typed lines, an assistant's
    transcripts, and what the host heard before read against a narrowed question."""

    def __init__(self, matcher: Matcher):
        self.matcher = matcher

    def __call__(self, prompt: Prompt, text: str, source: Source = Source.TYPED, **timing: Any) -> Understood:
        return understood(self.matcher.match(prompt.name, text, prompt.slots), source, text, **timing)
