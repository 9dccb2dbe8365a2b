"""A match as the host takes it: one Understood, with the evidence of how surely it was
read (what to do with it the host decides, host/reply_policy.py).

The ears build theirs from the match their reading already made (voice/listening/ears.py);
typed lines and an assistant's transcripts are matched here, once (TextUnderstanding).
"""

from __future__ import annotations

from typing import Any

from host.contract import Evidence, Intent, Outcome, Prompt, Source, Understood  # where host and voice meet
from voice.understanding.matcher import Match, Matcher


def understood(
    match: Match,
    source: Source,
    text: str,
    rival: str = "",
    cut: str = "",
    snr_db: float | None = None,
    agreed: bool | None = None,
    confidence: float | None = None,
    **timing: Any,
) -> Understood:
    """A reply whose words gave `match`, with its evidence: the match's score and doubt
    (a middling match), `rival` (another reading heard nearly as well), `cut` (why it may
    have been cut before its end: voice/listening/reading.py cut_sign), `snr_db` (the
    room's noise) and `agreed` (whether the grammar's and the free reading agreed).
    `confidence` defaults to the match score / 100, as for typed words; `timing`:
    Understood's timing fields."""
    evidence = Evidence(
        match.score,
        match.score / 100 if confidence is None else confidence,
        match.needs_confirmation,
        rival,
        cut,
        snr_db,
        agreed,
    )
    intent = match.intent.copy() if match.intent is not None else None
    return Understood(Outcome.REPLY, source, text, intent, match.phrase, evidence, match.unavailable, **timing)


def decided(intent: Intent, source: Source, text: str, confidence: float | None = None, **timing: Any) -> Understood:
    """A move settled where it was made (a button, a command after an address): acted on."""
    evidence = Evidence(100.0, confidence)
    return Understood(Outcome.DECIDED, source, text, intent.copy(), text, evidence, **timing)


class TextUnderstanding:
    """Words to Understood against a prompt, matched once: typed lines, an assistant's
    transcripts, and what the host heard before read against a narrowed question."""

    def __init__(self, matcher: Matcher):
        self.matcher = matcher

    def __call__(self, prompt: Prompt, text: str, source: Source = Source.TYPED, **timing: Any) -> Understood:
        return understood(self.matcher.match(prompt.name, text, prompt.slots), source, text, **timing)
