"""The host's one rule for a reply: act on it, ask "Did you mean ...?" first, or ask again.

The ears report what they measured of a reply and no more (host.contract.Evidence: how
well its words matched, a reading nearly as good, a sign it was cut, how far it stood over
the room's noise, whether two readings agreed); what that means for the game is decided
here alone. The session follows it live, the benchmarks count with it, and where the ears
must choose between readings themselves (a free reading that needs no second decoding, a
command after the wake word) partyhost hands them `acts` (host.contract.Acts), so the rule
is written once and a figure always means what a player would have met.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol

from .contract import Evidence, Understood, loud_room


class Verdict(Enum):
    """What the host does with a reply."""

    ACT = "act"
    ASK_FIRST = "ask first"
    """ "Did you mean ...?" before acting."""
    ASK_AGAIN = "ask again"


class Matched(Protocol):
    """What decide needs of a matcher's verdict (voice.understanding.matcher.Match fits)."""

    @property
    def intent(self) -> dict[str, Any] | None: ...

    @property
    def needs_confirmation(self) -> bool: ...


def decide(
    match: Matched, unsure: bool = False, cut: bool = False, snr_db: float | None = None, agreed: bool | None = None
) -> Verdict:
    """ASK_AGAIN when nothing was understood; ASK_FIRST for a middling match, when the
    ears heard another move nearly as well (`unsure`), when the reply may have been
    cut before its end (`cut`: the part heard may be a shorter order than the one said),
    or in a loud room (`snr_db`, loud_room) where the reading decoded inside the grammar
    and the free reading did not agree (`agreed` False: the decoded reading unsure, a poor
    fit to the audio, or changing the intent or a value the free reading heard; one that
    only adds values the noise hid agrees. None: only one reading was made, so there is
    nothing to compare); else ACT. The benchmarks call it with a reading's own match."""
    if match.intent is None:
        return Verdict.ASK_AGAIN
    if match.needs_confirmation or unsure or cut or (loud_room(snr_db) and agreed is False):
        return Verdict.ASK_FIRST
    return Verdict.ACT


class _Reported:
    """A reply's intent and the matcher's doubt, as decide reads a match."""

    def __init__(self, intent: dict[str, Any] | None, evidence: Evidence):
        self.intent, self.needs_confirmation = intent, evidence.middling


def verdict(heard: Understood) -> Verdict:
    """What the host does with `heard`, by decide on the evidence the ears reported with it."""
    evidence = heard.evidence
    return decide(
        _Reported(heard.intent, evidence), bool(evidence.rival), bool(evidence.cut), evidence.snr_db, evidence.agreed
    )


def acts(heard: Understood) -> bool:
    """Whether the host acts on `heard` unasked (host.contract.Acts, handed to the ears)."""
    return verdict(heard) is Verdict.ACT
