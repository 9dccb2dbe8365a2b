"""One reading of one utterance: the recogniser's n-best weighed by the matcher.

The bottom of the reading pipeline (voice/pipeline.py is its front door): the
checks and the second listener build on a Reading, and nothing here imports them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from .audio_types import Hypothesis, Recognizer, Utterance
from .matcher import Match, Matcher

RIVAL_MARGIN = 0.1
"""A reading that beats the best reading naming something else by less than this (in
quality, confidence x match score / 100) is unsure: the host asks "Did you mean ...?"
before acting. Whisper's n-best often holds both "yes" and "pass" for one word;
tuned on Piper's voice, measured on held-apart voices and people (docs/recognition.md)."""


class PromptLike(Protocol):
    name: str
    slots: dict
    timeout: float | None


@dataclass(frozen=True)
class Reading:
    """What the ears made of one utterance."""

    text: str               # the chosen hypothesis ("" when rejected)
    confidence: float       # 0..1: recogniser confidence x match quality
    rejected: bool
    utterance: Utterance
    hypotheses: tuple[Hypothesis, ...]
    rival: str = ""         # a reading naming something else, nearly as good: ask before acting
    match: Match | None = None   # the matcher's verdict on the chosen text (None: nothing matched)

    @property
    def unsure(self) -> bool:
        """Taken, but with a rival close behind: the host asks before acting on it."""
        return bool(self.rival) and not self.rejected


def read_utterance(recognizer: Recognizer, matcher: Matcher, prompt: PromptLike,
                   utterance: Utterance, min_confidence: float = 0.5,
                   rival_margin: float = RIVAL_MARGIN) -> Reading:
    """The recogniser's n-best for the prompt, each matched, then weighed by weigh()."""
    table = matcher.table(prompt.name, prompt.slots)
    grammar = recognizer.compile(table.texts)        # backends cache by phrase set
    hypotheses = tuple(recognizer.recognize(utterance.audio, grammar))
    matches = [table.match(hypothesis.text) for hypothesis in hypotheses]
    return weigh(hypotheses, matches, bool(table.exact), utterance, min_confidence, rival_margin)


def weigh(hypotheses: tuple[Hypothesis, ...], matches: Sequence[Match], exact: bool,
          utterance: Utterance, min_confidence: float = 0.5, rival_margin: float = RIVAL_MARGIN) -> Reading:
    """The best hypothesis by match score (`matches[i]` is hypothesis i's), weighed by
    the recogniser's confidence, with its rival when one naming something else comes
    within `rival_margin` (not at `exact` prompts: a Keep Cool turn cannot stop to ask,
    and its words are checked in voice/wordcheck.py). Pure, so a benchmark weighs
    stored n-best lists exactly as the ears do."""
    readings: list[tuple[float, str, Match]] = []   # (quality, text, match), in n-best order
    for hypothesis, match in zip(hypotheses, matches):
        if match.intent is not None:
            readings.append((hypothesis.confidence * match.score / 100, hypothesis.text, match))
            if match.unsure:                # the same words sit between two moves
                rival_match = match.rival
                readings.append((hypothesis.confidence * rival_match.score / 100, rival_match.phrase,
                                 rival_match))
    if not readings:
        return Reading("", 0.0, True, utterance, hypotheses)
    best, text, chosen = max(readings, key=lambda r: r[0])
    rivals = [r for r in readings if r[2].intent != chosen.intent]
    rival = max(rivals, key=lambda r: r[0]) if rivals and not exact else None
    close = rival is not None and best >= min_confidence and best - rival[0] < rival_margin
    return Reading(text if best > 0 else "", best, best < min_confidence, utterance, hypotheses,
                   rival[1] if close else "", chosen)
