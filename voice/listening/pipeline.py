"""The reading pipeline's front door: one utterance read against one prompt.

read_utterance (voice/listening/reading.py) picks the reading and its rival; then the check of
a word in play or of a number said alone (voice/listening/wordcheck.py); at other prompts
a look without the prompt at a reading the prompt may have put there, or at a command the
reading lost (voice/listening/steering.py); then, at Keep Cool's turns, the second listener
(voice/listening/second_opinion.py). The ears and every benchmark
read through here, so there is one way to read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.contract import Acts, Prompt  # where host and voice meet
from voice.audio_types import Recognizer, Utterance
from voice.listening.reading import RIVAL_MARGIN, Reading, read_utterance
from voice.listening.second_opinion import SecondOpinion, review
from voice.listening.steering import second_look
from voice.listening.wordcheck import CHECK_LINE, NUMBER_LINE, check_exact, check_number, word_in_play
from voice.understanding.matcher import Matcher


def read_checked(
    recognizer: Recognizer,
    matcher: Matcher,
    prompt: Prompt,
    utterance: Utterance,
    min_confidence: float = 0.5,
    line: float = CHECK_LINE,
    second: Any = None,
    number_line: float = NUMBER_LINE,
    rival_margin: float = RIVAL_MARGIN,
    in_grammar: bool = True,
    *,
    acts: Acts,
) -> Reading:
    """read_utterance (unsure within `rival_margin`), then the exact-intent check (see
    the module docstring; at other prompts the number check, at `number_line`), then
    the second listener's opinion if there is one, and wherever every reply is a phrase
    of the grammar (no fallback: not at a Keep Cool turn) the look without the prompt
    (voice/listening/steering.py). `second`: a
    voice.asr.moonshine.Preloaded (anything whose get() gives a voice.listening.second_opinion.Scorer
    or None); it is asked for only here, so no other prompt waits for it to load."""
    reading = read_utterance(
        recognizer, matcher, prompt, utterance, min_confidence, rival_margin, in_grammar, acts=acts
    )
    table = matcher.table(prompt.name, prompt.slots)
    if reading.posterior is None and not table.exact:  # (decoded inside the grammar: its regret is the check)
        reading = check_number(reading, recognizer, table, number_line)
    elif reading.posterior is None:
        reading = check_exact(reading, recognizer, table, line)
        scorer = second.get() if second is not None and matcher.second_listener_at(prompt.name) else None
        if scorer is not None:
            reading = review(reading, SecondOpinion(scorer, table, reading), word_in_play(table, reading))
    return second_look(reading, recognizer, table, in_grammar) if table.fallback is None else reading


@dataclass
class Reader:
    """What reads an utterance besides the prompt: the recogniser, the second listener
    and the lines of the checks. partyhost builds one from the settings in one place
    (partyhost/listening_chain.py reader_for), for the ears and the benchmarks alike."""

    recognizer: Recognizer
    second: Any = None
    """A voice.asr.moonshine.Preloaded second listener for exact prompts, or None."""
    word_check_line: float = CHECK_LINE
    number_check_line: float = NUMBER_LINE
    rival_margin: float = RIVAL_MARGIN
    """RIVAL_MARGIN, or another (0: never unsure)."""
    min_confidence: float = 0.5
    in_grammar: bool = True
    """Decode inside the prompt's grammar where the recogniser can (voice/understanding/grammar_decode.py)."""
    acts: Acts = field(kw_only=True)
    """The host's rule for acting on a reply unasked (host.reply_policy.acts), for the
    choices the ears make themselves: a free reading that needs no decoding inside the
    grammar, a command after the wake word."""

    def read(self, matcher: Matcher, prompt: Prompt, utterance: Utterance) -> Reading:
        return read_checked(
            self.recognizer,
            matcher,
            prompt,
            utterance,
            self.min_confidence,
            self.word_check_line,
            self.second,
            self.number_check_line,
            self.rival_margin,
            self.in_grammar,
            acts=self.acts,
        )
