"""The host's one rule for a reply: act on it, ask "Did you mean ...?" first, or ask again.

What the session does with a reply is `reply`'s one typed step (Act, Ask, AskChoices,
Miss, Refused), and what taking it came to is Taken (End, ListenAgain, or go on).

The ears report what they measured of a reply and no more (host.contract.Evidence: how
well its words matched, a reading nearly as good, a sign it was cut, how far it stood over
the room's noise, whether two readings agreed); what that means for the game is decided
here alone. The session follows it live, the benchmarks count with it, and where the ears
must choose between readings themselves (a free reading that needs no second decoding, a
command after the wake word) partyhost hands them `acts` (host.contract.Acts), so the rule
is written once and a figure always means what a player would have met.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, NoReturn, Protocol

from .contract import Ending, Evidence, Intent, Prompt, Understood, loud_room

if TYPE_CHECKING:  # the policy imports no game machinery: the session's Rules answer for it
    from .engine import RuleError
    from .narrowing import Trouble


def assert_never(value: NoReturn) -> NoReturn:
    """typing.assert_never (Python 3.11), for 3.10: mypy refuses a call it can reach, so a
    `match` that misses a kind of reply or verdict is found before it runs."""
    raise AssertionError(f"not handled: {value!r}")


class Verdict(Enum):
    """What the host does with a reply."""

    ACT = "act"
    ASK_FIRST = "ask first"
    """ "Did you mean ...?" before acting."""
    ASK_AGAIN = "ask again"


class Matched(Protocol):
    """What decide needs of a matcher's verdict (voice.understanding.matcher.Match fits)."""

    @property
    def intent(self) -> Intent | None: ...

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

    def __init__(self, intent: Intent | None, evidence: Evidence):
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


# ---------------------------------------------------------------- what the session does with a reply


@dataclass(frozen=True)
class Act:
    """Take the move, or carry out the command, as it was read."""

    intent: Intent


@dataclass(frozen=True)
class Ask:
    """Ask before acting: "Did you mean: <phrase>?", or, for a move read surely enough to
    act on but not to take back (`your_answer`), "Ben says lower: is that your answer?"."""

    intent: Intent
    phrase: str
    your_answer: bool = False


@dataclass(frozen=True)
class AskChoices:
    """Ask with the prompt's narrowed choices themselves (host/narrowing.py): a reading
    to ask about where some answer would be heard as "yes" ("right" in "lower, right or
    higher"), so a yes could not tell."""


@dataclass(frozen=True)
class Miss:
    """No move: nothing read surely, a spoken reading the player already said no to here,
    or a spoken move the rules refuse for a reason that would tell a secret (`secret`,
    already told to the player asked alone): answered as a reply not read."""

    secret: RuleError | None = None


@dataclass(frozen=True)
class Refused:
    """A reading to ask about that the rules refuse now: never asked about (the question
    would name it), a miss answered with the rules' reason."""

    refusal: RuleError


Reply = Act | Ask | AskChoices | Miss | Refused


class Rules(Protocol):
    """What the policy asks of the game about a reading now (host/clarifying.py, Clarifier)."""

    def said_no_to(self, prompt: Prompt, trouble: Trouble, intent: Intent) -> bool: ...

    def secret_refusal(self, prompt: Prompt, intent: Intent) -> RuleError | None: ...

    def refusal(self, prompt: Prompt, intent: Intent) -> RuleError | None: ...

    def yes_is_an_answer(self, prompt: Prompt) -> bool: ...

    def needs_surer(self, prompt: Prompt, heard: Understood, intent: Intent | None) -> bool: ...


def reply(prompt: Prompt, heard: Understood, trouble: Trouble, rules: Rules) -> Reply:
    """What the session does with `heard` at `prompt`, by its verdict and what the rules
    say of the move now. A spoken reading the player already said "no" to is a miss,
    never the same "Did you mean" again; typed or pressed, the move is the player's own
    choice and is taken. A spoken move refused for a reason that would tell a secret (a
    card the player to move does not hold) is answered as a reply not read: anyone may
    have said it."""
    judged = verdict(heard)
    intent = heard.intent
    if intent is None or judged is Verdict.ASK_AGAIN:
        return Miss()
    if heard.spoken and rules.said_no_to(prompt, trouble, intent):
        return Miss()
    secret = rules.secret_refusal(prompt, intent) if heard.spoken else None
    if secret is not None:
        return Miss(secret)
    match judged:
        case Verdict.ASK_FIRST:
            refusal = rules.refusal(prompt, intent)
            if refusal is not None:
                return Refused(refusal)
            return AskChoices() if rules.yes_is_an_answer(prompt) else Ask(intent, heard.phrase)
        case Verdict.ACT:
            surer = rules.needs_surer(prompt, heard, intent)  # a move that cannot be taken back
            return Ask(intent, heard.phrase, your_answer=True) if surer else Act(intent)
        case _:
            assert_never(judged)


# ---------------------------------------------------------------- what taking a reply came to


@dataclass(frozen=True)
class Chosen:
    """A move the player chose among the narrowed questions' choices (host/narrowing.py):
    taken as it is, with no reply of its own to keep for a correction."""

    intent: Intent


@dataclass(frozen=True)
class ListenAgain:
    """Listen again for the same prompt without saying it again: after "Sorry?", a missed
    start, or narrowed questions that found no move."""


@dataclass(frozen=True)
class End:
    """The session ends: the players quit, or the input ended."""

    ending: Ending


Taken = End | ListenAgain | None
"""What taking a reply came to: the session ends, the host listens again, or None: go on
(the prompt is asked anew, or the next one)."""


def ended(ending: Ending | None) -> End | None:
    """A common command's outcome (host/common_commands.py carry_out) as Taken."""
    return None if ending is None else End(ending)
