"""Keep Cool's match detection on people's recordings (../shared/audio/speech-commands),
through the live reading: Whisper steered by the words in play, its check, and the
second listener. `partyhost bench keep-cool --real` measures the same on all of them;
this checks a few that the shipped rules get right, so that a change that breaks
them on real voices shows here and not only in a benchmark."""

from __future__ import annotations

import pytest

from host.reply_policy import acts
from partyhost.bench.manifest import Listener
from voice.asr.moonshine import Preloaded
from voice.listening.audio_in import read_wav_16k
from voice.listening.pipeline import Reader
from voice.recognizers import make_recognizer
from voice.speaking.mixing import padded
from voice.understanding.matcher import Matcher

pytestmark = [pytest.mark.slow, pytest.mark.model, pytest.mark.audio]

DECK = ["kettle", "candle", "pencil", "apple", "island", "mirror", "lemon", "river", "tiger", "window"]
GO_IN_PLAY = ["go", "seven", *DECK]
NO_IN_PLAY = ["no", "seven", *DECK]  # "go" is one sound from "no": a hard clue here


@pytest.fixture(scope="module")
def listener():
    return Listener(Reader(make_recognizer("whisper"), Preloaded(), acts=acts), Matcher())


def heard(listener, shared_audio, recording: str, words: list[str]) -> str | None:
    audio = padded(read_wav_16k(shared_audio / "speech-commands" / recording))
    intent = listener.understand("keep-cool/word", {"words": words, "roster": ["Ana", "Ben", "Cy"]}, audio).intent
    assert intent is not None and intent["intent"] == "word"  # at a turn, speech is a word or a clue
    return intent["word"]


MISSED_THROUGH_THE_GAIN = pytest.mark.xfail(
    strict=True,
    reason="through the live front end (its gain, which the bench once left out) the speech check "
    "doubts this speaker's short 'go' (Silero 0.41 < 0.5): the live ears hear nothing",
)


@pytest.mark.parametrize(
    "recording", ["go/2f813234_nohash_1.wav", pytest.param("go/37e8db82_nohash_1.wav", marks=MISSED_THROUGH_THE_GAIN)]
)
def test_a_word_in_play_is_a_hit_and_the_same_word_beside_its_neighbour_is_a_clue(listener, shared_audio, recording):
    assert heard(listener, shared_audio, recording, GO_IN_PLAY) == "go"
    assert heard(listener, shared_audio, recording, NO_IN_PLAY) is None


def test_the_neighbour_itself_is_a_hit_only_where_it_is_in_play(listener, shared_audio):
    assert heard(listener, shared_audio, "no/2f813234_nohash_1.wav", NO_IN_PLAY) == "no"
    assert heard(listener, shared_audio, "no/2f813234_nohash_1.wav", GO_IN_PLAY) is None


@pytest.mark.parametrize(
    "recording, words, expected",
    [
        ("seven/37e8db82_nohash_1.wav", NO_IN_PLAY, "seven"),
        ("five/2f813234_nohash_1.wav", GO_IN_PLAY, None),  # a clue: no word in play
        ("six/5fe4a278_nohash_0.wav", NO_IN_PLAY, None),
    ],
)
def test_other_people_s_words(listener, shared_audio, recording, words, expected):
    assert heard(listener, shared_audio, recording, words) == expected
