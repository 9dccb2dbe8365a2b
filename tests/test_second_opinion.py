"""The second ear at a Keep Cool turn (voice/listening/second_opinion.py): a word taken
only where both ears write it, with stand-ins whose first choices the test sets; the
real Moonshine is in tests/test_asr_moonshine.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_wordcheck import FakeWhisper

from host.contract import Prompt
from host.games import grammar_slots
from host.reply_policy import acts
from voice.asr import ModelMissingError
from voice.asr.moonshine import Judgement, Preloaded
from voice.audio_types import Hypothesis, Utterance
from voice.listening import wordcheck
from voice.listening.pipeline import Reader, read_checked
from voice.listening.second_opinion import AGREE_LINE
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


SILENCE = Utterance(np.zeros(16000, np.float32), 0, 1)


def read(whisper, moonshine):
    return read_checked(whisper, Matcher(), TURN, SILENCE, second=Preloaded(lambda: moonshine), acts=acts)


def word_in_play(reading, prompt=TURN):
    """The word in play the host would take from the reading, or None."""
    return wordcheck.word_in_play(Matcher().table(prompt.name, prompt.slots), reading)


def passes_whisper(word="kettle", rival=" Cattle."):
    """Whisper took the word and its own check let it through; its other reading was `rival`."""
    bare = " " + word.capitalize() + "."
    return FakeWhisper(word, {bare: -3.0, f" A {word}.": -4.0, rival: -2.0}, [rival])


# ---- two ears: a word in play ----------------------------------------------------


def test_a_word_in_play_both_ears_write_is_taken():
    moonshine = FakeMoonshine({"Kettle": -2.0, "Cattle": -4.0}, free="Kettle.")
    reading = read(passes_whisper(), moonshine)
    assert reading.text == "kettle" and reading.heard_as == ()
    assert word_in_play(reading) == "kettle"
    assert moonshine.asked == [["Kettle", "A kettle", "Cattle"]]  # one question, no rescue


@pytest.mark.parametrize(
    ("likelihood", "free", "taken"),
    [
        ({"Kettle": -1.0, "Cattle": -4.0}, "Cattle.", False),  # it would write Whisper's other reading
        ({"Kettle": -1.01 - AGREE_LINE, "Cattle": -1.0}, "", False),  # it finds that one likelier by too little
        ({"Kettle": -1.0 + AGREE_LINE, "Cattle": -1.0}, "", True),  # ... or by enough: the ears agree
    ],
)
def test_a_word_in_play_is_taken_only_where_the_second_ear_agrees(likelihood, free, taken):
    reading = read(passes_whisper(), FakeMoonshine(likelihood, free=free))
    assert (word_in_play(reading) == "kettle") is taken
    assert reading.heard_as == (() if taken else ("kettle", "cattle") if free else ("kettle",))


def test_a_near_sounding_clue_is_no_hit_unless_both_ears_write_the_word_in_play():
    """Issue 56: "tune" said at a table with "dune", which the prompt steers Whisper to."""
    dune = replace(TURN, slots=grammar_slots("keep-cool/word", {"words": ["dune", "candle"], "roster": ["Ana"]}))
    whisper = FakeWhisper("dune", {" Dune.": -3.0, " A dune.": -4.0, " Tune.": -3.5}, [" Tune."])
    reading = read_checked(
        whisper, Matcher(), dune, SILENCE, second=Preloaded(lambda: FakeMoonshine({}, "Tune.")), acts=acts
    )
    assert reading.heard_as == ("dune", "tune")
    assert word_in_play(reading, dune) is None


def test_a_reading_said_exactly_like_the_word_in_play_is_the_same_word():
    # "colonel" is said as "kernel": Whisper writing it so agrees with Moonshine's "Kernel".
    whisper = FakeWhisper("colonel", {" Kernel.": -3.0, " A kernel.": -4.0, " Cattle.": -5.0}, [" Cattle."])
    reading = read(whisper, FakeMoonshine({}, free="Kernel."))
    assert word_in_play(reading) == "kernel" and reading.heard_as == ()


# ---- two ears: a clue --------------------------------------------------------------


@pytest.mark.parametrize("free", ["Fruit.", "A fruit.", "", "Candle."])
def test_a_clue_stays_the_clue_whisper_wrote_unless_both_ears_named_a_word_in_play(free):
    """Moonshine writing a lone word freely is no judge of a clue (it writes "There,
    little gate-goat." for "alligator"); a word in play Whisper did not name is no hit."""
    moonshine = FakeMoonshine({"Candle": -1.0}, free=free)
    reading = read(FakeWhisper("fruit", {}, [" Fruit."]), moonshine)
    assert reading.text == "fruit" and reading.heard_as == () and word_in_play(reading) is None
    assert moonshine.asked == [["Fruit", "A fruit"]]  # one question: no word in play Whisper did not name


def test_a_word_in_play_whisper_was_unsure_of_is_taken_when_both_ears_name_it():
    reading = read(Unsure("kettle", {}, []), FakeMoonshine({}, free="A kettle."))
    assert not reading.rejected and reading.text == "kettle"


def test_speech_whisper_was_unsure_of_stays_unread_with_what_each_ear_wrote():
    reading = read(Unsure("fruit", {}, []), FakeMoonshine({}, free="A fruit."))
    assert reading.rejected and reading.heard_as == ("fruit",)
    candle = read(Unsure("kettle", {}, []), FakeMoonshine({}, free="Candle."))  # two words in play
    assert candle.rejected and candle.heard_as == ("kettle",)


def test_a_word_whisper_s_check_threw_out_is_taken_when_the_second_ear_writes_it():
    """Whisper's steered reading named "kettle", its check took it for "cattle": where
    Moonshine would write "kettle" itself, both ears named it."""
    whisper = FakeWhisper("kettle", {" Kettle.": -9.0, " A kettle.": -9.0, " Cattle.": -1.0}, [" Cattle."])
    both = read(whisper, FakeMoonshine({}, free="Kettle."))
    assert word_in_play(both) == "kettle" and both.heard_as == ()
    clue = read(whisper, FakeMoonshine({}, free="Cattle."))
    assert clue.text == "cattle" and clue.heard_as == () and word_in_play(clue) is None


def test_at_a_table_deal_a_clue_is_a_clue():
    """The table deal: the host knows no words, so nothing is in doubt."""
    table_deal = replace(TURN, slots=grammar_slots("keep-cool/word", {"words": [], "roster": ["Ana", "Ben"]}))
    moonshine = Preloaded(lambda: FakeMoonshine({"Fruit": -1.0}, free="Kettle."))
    reading = read_checked(
        FakeWhisper("fruit", {}, [" Fruit."]), Matcher(), table_deal, SILENCE, second=moonshine, acts=acts
    )
    assert reading.text == "fruit" and reading.heard_as == ()


def test_a_command_or_a_claim_is_never_taken_for_a_word():
    moonshine = FakeMoonshine({}, free="Kettle.")
    assert read(FakeWhisper("host pause", {}, []), moonshine).text == "host pause"
    assert moonshine.asked == []


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
    ears = VoiceEars(
        EndedInput(), Endpointer(), Reader(None, second, acts=acts), matcher=Matcher(), busy_until=lambda: 0.0
    )
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


def test_the_plural_of_a_word_in_play_both_ears_write_is_that_word():
    whisper = FakeWhisper("kettles", {" Kettles.": -3.0, " A kettles.": -4.0, " Cattle.": -5.0}, [" Cattle."])
    reading = read(whisper, FakeMoonshine({}, free="Kettles."))
    assert word_in_play(reading) == "kettles" and reading.heard_as == ()
