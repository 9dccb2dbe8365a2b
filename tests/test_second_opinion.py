"""The second listener's veto and rescue at a Keep Cool turn (voice/listening/second_opinion.py),
with stand-ins whose likelihoods the test sets; the real Moonshine is in
tests/test_asr_moonshine.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_wordcheck import FakeWhisper

from host.contract import Prompt
from host.games import grammar_slots
from voice.asr import ModelMissingError
from voice.asr.moonshine import Judgement, Preloaded
from voice.audio_types import Hypothesis, Utterance
from voice.listening.pipeline import Reader, read_checked
from voice.listening.second_opinion import RESCUE_FLOOR, RESCUE_LINE, VETO_LINE, Opinion, verdict
from voice.understanding.matcher import Matcher
from voice.understanding.normalize import normalize

pytestmark = [pytest.mark.model, pytest.mark.audio]


TURN = Prompt(
    "keep-cool/word",
    "Ana",
    "",
    slots=grammar_slots("keep-cool/word", {"words": ["kettle", "kernel", "candle"], "roster": ["Ana", "Ben"]}),
)


class FakeMoonshine:
    """Likelihoods from `likelihood` (-30 for any other text); `free` is what it would write."""

    def __init__(self, likelihood: dict[str, float], free: str = ""):
        self.likelihood, self.free = likelihood, free
        self.asked: list[list[str]] = []

    def judge(self, audio, texts):
        self.asked.append(list(texts))
        return [
            Judgement(self.likelihood.get(t, -30.0), bool(self.free) and normalize(t) == normalize(self.free))
            for t in texts
        ]


class Unsure(FakeWhisper):
    """Whisper's steered reading, at a confidence below the ears' line: not acted on."""

    def recognize(self, audio, grammar):
        return [Hypothesis(self.steered, 0.3, {"text": self.steered.capitalize() + "."})]


def read(whisper, moonshine):
    return read_checked(
        whisper, Matcher(), TURN, Utterance(np.zeros(16000, np.float32), 0, 1), second=Preloaded(lambda: moonshine)
    )


def passes_whisper(word="kettle", rival=" Cattle."):
    """Whisper took the word and its own check let it through; its other reading was `rival`."""
    bare = " " + word.capitalize() + "."
    return FakeWhisper(word, {bare: -3.0, f" A {word}.": -4.0, rival: -2.0}, [rival])


# ---- the veto ------------------------------------------------------------------


def test_a_word_the_second_listener_finds_much_less_likely_than_a_rival_is_a_clue():
    moonshine = FakeMoonshine({"Kettle": -9.0, "Cattle": -1.0})
    reading = read(passes_whisper(), moonshine)
    assert reading.text == "cattle" and not reading.rejected
    assert moonshine.asked == [["Kettle", "A kettle", "Cattle"]]  # one question, no rescue


def test_a_word_the_second_listener_agrees_with_stands():
    reading = read(passes_whisper(), FakeMoonshine({"Kettle": -2.0, "Cattle": -4.0}))
    assert reading.text == "kettle"


def test_the_veto_line_is_where_the_word_loses():
    just_in = FakeMoonshine({"Kettle": -1.0 + VETO_LINE, "Cattle": -1.0})
    just_out = FakeMoonshine({"Kettle": -1.01 + VETO_LINE, "Cattle": -1.0})
    assert read(passes_whisper(), just_in).text == "kettle"
    assert read(passes_whisper(), just_out).text == "cattle"


def test_a_reading_said_exactly_like_the_word_is_no_rival():
    # "colonel" is said as "kernel": Moonshine spelling it so is no evidence against it.
    moonshine = FakeMoonshine({"Kernel": -9.0, "Colonel": -1.0})
    assert read(passes_whisper("kernel", " Colonel."), moonshine).text == "kernel"


def test_a_likelier_other_word_in_play_is_too_close_to_call():
    # Whisper's other reading is another word in play: no hit for either.
    reading = read(passes_whisper(rival=" Candle."), FakeMoonshine({"Kettle": -9.0, "Candle": -1.0}))
    assert reading.rejected and reading.text == ""


def test_a_clue_stays_a_clue_unless_moonshine_would_have_written_a_word_in_play():
    moonshine = FakeMoonshine({}, free="Fruit.")
    reading = read(FakeWhisper("fruit", {}, [" Fruit."]), moonshine)
    assert reading.text == "fruit" and len(moonshine.asked) == 1  # one question: the rescue


# ---- the rescue ------------------------------------------------------------------


def test_a_word_both_listeners_name_is_rescued_from_a_low_confidence():
    moonshine = FakeMoonshine({}, free="A kettle.")
    reading = read(Unsure("kettle", {}, []), moonshine)
    assert not reading.rejected and reading.text == "kettle"
    assert len(moonshine.asked) == 1  # one question for all of the rescue


def test_when_whisper_named_a_word_in_play_only_that_word_can_be_rescued():
    moonshine = FakeMoonshine({}, free="Candle.")  # Whisper heard kettle
    assert read(Unsure("kettle", {}, []), moonshine).rejected


def test_when_whisper_named_none_a_word_moonshine_would_write_is_rescued():
    moonshine = FakeMoonshine({}, free="Candle.")
    reading = read(Unsure("fruit", {}, []), moonshine)
    assert not reading.rejected and reading.text == "candle"
    assert sorted(moonshine.asked[0]) == ["A candle", "A kernel", "A kettle", "Candle", "Fruit", "Kernel", "Kettle"]
    said_nothing_in_play = FakeMoonshine({}, free="Fruit.")
    assert read(Unsure("fruit", {}, []), said_nothing_in_play).rejected


def test_a_word_in_play_far_likelier_than_what_whisper_heard_is_rescued():
    """Whisper heard "fruit" (a clue); Moonshine finds "candle" likely, and likelier
    than "fruit" by more than RESCUE_LINE."""
    lead = RESCUE_LINE + 1
    rescued = read(FakeWhisper("fruit", {}, [" Fruit."]), FakeMoonshine({"Candle": -2.0, "Fruit": -2.0 - lead}))
    assert rescued.text == "candle" and not rescued.rejected


@pytest.mark.parametrize(
    "likelihood",
    [
        {"Candle": -2.0, "Fruit": -2.0 - RESCUE_LINE},  # not far enough ahead
        {"Candle": RESCUE_FLOOR - 0.5, "Fruit": RESCUE_FLOOR - 0.5 - 2 * RESCUE_LINE},  # unlikely in itself
    ],
)
def test_a_word_in_play_only_somewhat_likelier_stays_a_clue(likelihood):
    assert read(FakeWhisper("fruit", {}, [" Fruit."]), FakeMoonshine(likelihood)).text == "fruit"


def test_with_no_word_in_play_a_clue_is_a_clue():
    """The table deal: the host knows no words, so there is nothing to rescue."""

    table_deal = replace(TURN, slots=grammar_slots("keep-cool/word", {"words": [], "roster": ["Ana", "Ben"]}))
    moonshine = Preloaded(lambda: FakeMoonshine({"Fruit": -1.0}))
    reading = read_checked(
        FakeWhisper("fruit", {}, [" Fruit."]),
        Matcher(),
        table_deal,
        Utterance(np.zeros(16000, np.float32), 0, 1),
        second=moonshine,
    )
    assert reading.text == "fruit"


def test_a_command_or_a_claim_is_never_taken_for_a_word():
    moonshine = FakeMoonshine({}, free="Kettle.")
    assert read(FakeWhisper("host pause", {}, []), moonshine).text == "host pause"
    assert moonshine.asked == []


def test_a_word_whisper_s_check_threw_out_can_be_rescued():
    whisper = FakeWhisper("kettle", {" Kettle.": -9.0, " A kettle.": -9.0, " Cattle.": -1.0}, [" Cattle."])
    rescued = read(whisper, FakeMoonshine({}, free="Kettle."))
    assert rescued.text == "kettle"
    kept_out = read(whisper, FakeMoonshine({}, free="Cattle."))
    assert kept_out.text == "cattle"


# ---- the verdict, as the live loop and the benchmark both take it ---------------


@pytest.mark.parametrize(
    "took, opinion, expected",
    [
        (True, Opinion(), "kept"),  # nobody to compare with
        (True, Opinion(veto_margin=VETO_LINE), "kept"),
        (True, Opinion(veto_margin=VETO_LINE - 0.1), "vetoed"),
        (False, Opinion(), None),
        (False, Opinion(rescued="kettle"), "rescued"),
        (
            False,
            Opinion(likeliest="kettle", likeliest_score=RESCUE_FLOOR, likeliest_margin=RESCUE_LINE + 0.1),
            "likeliest",
        ),
        (False, Opinion(likeliest="kettle", likeliest_score=RESCUE_FLOOR, likeliest_margin=RESCUE_LINE), None),
        (False, Opinion(likeliest="kettle", likeliest_score=RESCUE_FLOOR - 0.1, likeliest_margin=9.0), None),
        (True, Opinion(likeliest="kettle", likeliest_score=0.0, likeliest_margin=9.0), "kept"),
    ],
)
def test_verdict(took, opinion, expected):
    assert verdict(took, opinion) == expected
    if expected in ("rescued", "likeliest"):
        assert verdict(took, opinion, rescue=False) is None


# ---- loading ----------------------------------------------------------------------


def test_a_missing_second_listener_is_said_once_and_the_game_goes_on():
    def missing():
        raise ModelMissingError("Moonshine's model is not installed: pip install moonshine-cpp")

    said = []
    preloaded = Preloaded(missing, report=said.append)
    assert preloaded.get() is None and preloaded.get() is None
    assert len(said) == 1 and "pip install moonshine-cpp" in said[0] and "Whisper" in said[0]


def test_the_second_listener_loads_only_for_a_game_with_exact_prompts():
    """Issue 43: Centurion matches a rank or a suit alone exactly too, but that is no
    word in play: Moonshine (its memory) is Keep Cool's alone."""
    from voice.listening.ears import VoiceEars
    from voice.listening.endpoint import Endpointer

    class EndedInput:  # a recording that has run out: every hear() returns at once
        def frames(self):
            return iter(())

        def now(self):
            return 0.0

        def skip_until(self, t):
            pass

        def next_frame_t(self):
            return 0.0

    loads = []
    second = Preloaded(lambda: loads.append("loaded") or FakeMoonshine({}))
    ears = VoiceEars(EndedInput(), Endpointer(), Reader(None, second), matcher=Matcher(), busy_until=lambda: 0.0)
    assert ears.hear(Prompt("keep-it-100/place", "Ana", "?")) is None
    assert ears.hear(Prompt("common/yes_no", "Ana", "?")) is None
    assert ears.hear(Prompt("centurion/play_card", "Ana", "?")) is None
    assert not second.started and loads == []
    ears.hear(Prompt("keep-cool/setup", None, "?"))  # Keep Cool's first question: loading begins
    assert second.started
    assert isinstance(second.get(), FakeMoonshine) and loads == ["loaded"]


def test_only_the_prompts_the_grammar_names_are_judged_again():
    matcher = Matcher()
    assert matcher.table("centurion/play_card").exact  # matched only as said ...
    assert not matcher.second_listener_at("centurion/play_card")  # ... but not judged by Moonshine
    assert not matcher.has_second_listener("centurion/play_card")
    assert matcher.second_listener_at("keep-cool/word") and matcher.has_second_listener("keep-cool/setup")
    assert not matcher.second_listener_at("keep-cool/setup")


def test_a_second_listener_named_as_a_bare_string_is_refused(tmp_path):
    from voice.understanding.grammar import Grammar, GrammarError

    grammar = tmp_path / "game.yaml"
    grammar.write_text("prompts:\n  game/word: []\nsecond_listener: game/word\n", encoding="utf-8")
    with pytest.raises(GrammarError, match="second_listener must be a list"):
        Grammar.load(grammar)
