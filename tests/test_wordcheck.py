"""The second look before a word in play is taken as said (voice/listening/wordcheck.py), with a
stand-in recogniser whose likelihoods the test sets."""

from __future__ import annotations

import numpy as np
import pytest

from host.contract import Prompt
from host.games import grammar_slots
from host.reply_policy import acts
from voice.audio_types import Hypothesis, Utterance
from voice.listening.pipeline import read_checked
from voice.understanding.matcher import Matcher

pytestmark = [pytest.mark.model, pytest.mark.audio]

WORDS = ["kettle", "candle"]


TURN = Prompt(
    "keep-cool/word", "Ana", "", slots=grammar_slots("keep-cool/word", {"words": WORDS, "roster": ["Ana", "Ben"]})
)


class FakeWhisper:
    """Reads `steered` (as the prompted decode would); scores texts from `likelihood`."""

    def __init__(self, steered: str, likelihood: dict[str, float], unsteered: list[str]):
        self.steered, self.likelihood, self.unsteered = steered, likelihood, unsteered
        self.scored: list[str] = []

    def compile(self, phrases):
        return phrases

    def recognize(self, audio, grammar):
        return [Hypothesis(self.steered, 0.9, {"text": self.steered.capitalize() + "."})]

    def text_scorer(self):
        return self.score_texts

    def score_texts(self, audio, texts, unprompted=3):
        self.scored += texts
        readings = [r for r in self.unsteered[:unprompted] if r not in texts]
        return ([self.likelihood.get(t, -20.0) for t in texts], [(r, self.likelihood.get(r, -20.0)) for r in readings])


def read(recognizer):
    return read_checked(recognizer, Matcher(), TURN, Utterance(np.zeros(16000, np.float32), 0, 1), acts=acts)


def test_a_word_steered_onto_a_word_in_play_is_taken_for_what_was_said():
    # The prompt made it write "kettle"; unsteered, "Cattle." is far likelier: a clue.
    fake = FakeWhisper("kettle", {" Kettle.": -9.0, " A kettle.": -11.0, " Cattle.": -3.0}, [" Cattle."])
    reading = read(fake)
    assert reading.text == "cattle" and not reading.rejected
    assert Matcher().match(TURN.name, reading.text, TURN.slots).intent["word"] is None


def test_a_word_about_as_likely_as_any_other_reading_stands():
    fake = FakeWhisper("kettle", {" Kettle.": -4.0, " A kettle.": -3.5, " Cattle.": -2.0}, [" Cattle."])
    assert read(fake).text == "kettle"  # 1.5 below its rival: within the line


def test_the_word_itself_is_never_its_own_rival():
    fake = FakeWhisper("a kettle", {" Kettle.": -2.0, " A kettle.": -1.0, " Kettles.": 0.0}, [" Kettles."])
    assert read(fake).text == "a kettle"


def test_clues_and_commands_are_not_checked():
    fake = FakeWhisper("fruit", {}, [" Fruit."])
    assert read(fake).text == "fruit" and fake.scored == []


def test_a_likelier_other_word_in_play_is_too_close_to_call():
    fake = FakeWhisper("kettle", {" Kettle.": -9.0, " A kettle.": -9.0, " Candle.": -2.0}, [" Candle."])
    reading = read(fake)
    assert reading.rejected and reading.text == ""


# ---- numbers said alone at the other prompts (check_number) --------------------------


NUMBER = Prompt("common/number", "Ana", "How many?")


def read_number(recognizer):
    return read_checked(recognizer, Matcher(), NUMBER, Utterance(np.zeros(16000, np.float32), 0, 1), acts=acts)


def test_a_number_far_less_likely_than_another_reading_is_asked_again():
    """Steered by the number prompt Whisper wrote "one"; unprompted, "On." is far likelier."""
    whisper = FakeWhisper("one", {" One.": -12.0, " A one.": -13.0, " On.": -1.0}, [" On."])
    reading = read_number(whisper)
    assert reading.rejected and reading.text == ""
    assert reading.hypotheses[-1].details["other"] == "On."


def test_a_number_within_the_line_stands():
    reading = read_number(FakeWhisper("one", {" One.": -6.0, " On.": -1.0}, [" On."]))  # 5 nats behind
    assert not reading.rejected and reading.text == "one"


def test_the_number_line_is_a_setting():
    """config.toml's number_check_line reaches the check: -100 acts on the number anyway."""
    whisper = FakeWhisper("one", {" One.": -12.0, " A one.": -13.0, " On.": -1.0}, [" On."])
    reading = read_checked(
        whisper, Matcher(), NUMBER, Utterance(np.zeros(16000, np.float32), 0, 1), number_line=-100.0, acts=acts
    )
    assert not reading.rejected and reading.text == "one"


def test_the_same_number_written_otherwise_is_no_rival():
    reading = read_number(FakeWhisper("seven", {" Seven.": -9.0, " 7.": -0.5}, [" 7."]))
    assert not reading.rejected and reading.text == "seven"


@pytest.mark.parametrize("said, rival", [("fifty seven", " Fifty heaven."), ("undo", " And you.")])
def test_other_replies_are_not_checked(said, rival):
    """Longer numbers were not measured; "undo" is "And you." to tiny.en unprompted."""
    whisper = FakeWhisper(said, {" " + said.capitalize() + ".": -20.0, rival: -1.0}, [rival])
    assert read_number(whisper).text == said and whisper.scored == []
