"""voice/asr/whisper.py on the real tiny.en model: real speech, Piper speech, noise.

The model loads once for the module (under a second); each reading takes ~0.1 s.
Real recordings come from ../shared/audio (skipped with a message when absent).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import understood

from voice.asr import ModelMissingError
from voice.asr.text_guards import HALLUCINATIONS
from voice.asr.whisper import (
    MAX_PROMPT_TOKENS,
    WhisperPrompt,
    WhisperRecognizer,
    WhisperSettings,
    collapse_repeats,
    prompt_text,
    rejection_reason,
    written_phrases,
)
from voice.audio_types import PROMPT_PHRASE, SAMPLE_RATE
from voice.understanding.matcher import Matcher

pytestmark = [pytest.mark.model, pytest.mark.audio]

LEAD, TAIL = np.zeros(3200, np.float32), np.zeros(4800, np.float32)  # as the endpointer cuts


@pytest.fixture(scope="module")
def whisper() -> WhisperRecognizer:
    return WhisperRecognizer()


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher()


def recording(shared_audio, name: str) -> np.ndarray:
    from voice.listening.audio_in import read_wav_16k

    return np.concatenate([LEAD, read_wav_16k(shared_audio / name), TAIL])


def noise(shared_audio, name: str, start_s: float, seconds: float = 1.5) -> np.ndarray:
    from voice.listening.audio_in import read_wav_16k

    audio = read_wav_16k(shared_audio / "noise" / f"{name}.wav")
    return audio[int(start_s * SAMPLE_RATE) : int((start_s + seconds) * SAMPLE_RATE)]


# ---- real human speech ---------------------------------------------------------


@pytest.mark.parametrize(
    "name, prompt, expect",
    [
        ("fsdd/7_jackson_0.wav", "common/number", {"intent": "number", "value": 7}),
        ("fsdd/3_jackson_2.wav", "common/number", {"intent": "number", "value": 3}),
        ("speech-commands/yes/439c84f4_nohash_1.wav", "common/yes_no", {"intent": "yes"}),
        ("speech-commands/no/439c84f4_nohash_1.wav", "common/yes_no", {"intent": "no"}),
    ],
)
def test_real_speech_becomes_the_right_intent(whisper, matcher, shared_audio, name, prompt, expect):
    assert understood(whisper, matcher, prompt, recording(shared_audio, name)) == expect


def test_piper_speech_in_a_large_grammar(whisper, matcher, say):
    """one-percent/bid has ~4,000 phrases; the prompt still steers Whisper to the right one."""
    assert understood(whisper, matcher, "one-percent/bid", say("twelve clovers")) == {
        "intent": "bid",
        "count": 12,
        "family": "clover",
    }
    assert understood(whisper, matcher, "common/number", say("fifty seven")) == {"intent": "number", "value": 57}


# ---- rejection -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, start, prompt",
    [
        ("running_tap", 40.0, "common/number"),
        ("music", 3.0, "common/number"),
        ("doing_the_dishes", 70.0, "common/yes_no"),
        ("pink_noise", 50.0, "common/number"),
    ],
)
def test_noise_and_music_are_not_acted_on(whisper, matcher, shared_audio, name, start, prompt):
    assert understood(whisper, matcher, prompt, noise(shared_audio, name, start)) is None


def test_silence_gives_nothing_to_act_on(whisper, matcher):
    assert understood(whisper, matcher, "common/number", np.zeros(SAMPLE_RATE, np.float32)) is None


def test_hypotheses_carry_the_raw_measures(whisper, matcher, shared_audio):
    table = matcher.table("common/yes_no")
    hypotheses = whisper.recognize(
        recording(shared_audio, "speech-commands/yes/439c84f4_nohash_1.wav"), whisper.compile(list(table.texts))
    )
    assert hypotheses and hypotheses == sorted(hypotheses, key=lambda h: -h.confidence)
    top = hypotheses[0]
    assert 0.5 <= top.confidence <= 1.0
    assert {"avg_logprob", "no_speech_prob", "raw"} <= set(top.details)
    assert top.details["avg_logprob"] <= 0 and 0 <= top.details["no_speech_prob"] <= 1


# ---- guards, prompts, caching ------------------------------------------------------


def test_repeats_are_said_once():
    assert collapse_repeats("Seven. Seven. Seven. Seven") == "Seven."
    assert collapse_repeats("So in, so in, so in, so") == "So in,"
    assert collapse_repeats("Fifty seven.") == "Fifty seven."
    assert collapse_repeats("one, two") == "one, two"


def test_stock_hallucinations_and_overlong_text_are_refused():
    grammar = WhisperPrompt(frozenset({"yes", "no", "thank you"}), "", (), 2, 12)
    settings = WhisperSettings()
    assert "thank you very much" in HALLUCINATIONS
    assert rejection_reason("thank you very much", -0.2, 0.1, grammar, settings) == "stock hallucination"
    assert rejection_reason("thank you", -0.2, 0.1, grammar, settings) is None  # a phrase here
    assert rejection_reason("yes no yes no yes no", -0.2, 0.1, grammar, settings) == "longer than any phrase"
    assert rejection_reason("yes", -1.5, 0.9, grammar, settings) == "no speech"
    assert rejection_reason("yes", -0.2, 0.1, grammar, settings) is None


@pytest.mark.parametrize("said, owner", [("Dee got it", "Dee"), ("that's Ben's", "Ben"), ("Ben has it", "Ben")])
def test_a_claim_at_a_keep_cool_turn_hears_the_name(whisper, matcher, say, said, owner):
    """The names are in Whisper's prompt beside the twelve words in play: without
    them "Dee got it" was read "he got it" and "that's Ben's" "that spans"."""
    from host.games import grammar_slots

    words = "kettle glove mouse river ladder denim bubble cork shuttle college condo actress".split()
    slots = grammar_slots("keep-cool/word", {"words": words, "roster": ["Ana", "Ben", "Cy", "Dee"]})
    assert understood(whisper, matcher, "keep-cool/word", say(said), slots) == {"intent": "hit", "owner": owner}


@pytest.mark.parametrize("said, intent", [("host, scores", "score"), ("host, relaxed mode", "relaxed")])
def test_a_command_at_a_keep_cool_turn_is_heard_though_host_is_misheard(whisper, matcher, say, said, intent):
    """tiny.en writes Piper's "host" as "alist", "a house" or "housed" (it is not in
    the prompt, which the words in play fill); the matcher takes any one word before
    a command for the prefix. "host, scores" was a clue before."""
    from host.games import grammar_slots

    words = "kettle candle pencil apple bread island mirror lemon".split()
    slots = grammar_slots("keep-cool/word", {"words": words, "roster": ["Ana", "Ben", "Cy"]})
    assert (understood(whisper, matcher, "keep-cool/word", say(said), slots) or {}).get("intent") == intent


def test_the_prompt_fits_the_token_limit_and_starts_with_the_prompts_own_phrases(whisper, matcher):
    texts = list(matcher.table("one-percent/bid").texts)
    encode = whisper._tokenizer.encode
    for budget in (20, 60, MAX_PROMPT_TOKENS):
        text = prompt_text(texts, encode, budget)
        assert text and len(encode(" " + text)) <= budget
        assert text.lower().startswith(texts[0])
    compiled = whisper.compile(texts)
    assert len(compiled.prompt_tokens) <= MAX_PROMPT_TOKENS + 3


def test_numbers_said_alone_get_room_for_every_tens_word(whisper, matcher):
    """The 60-token prompt of a 0-100 reply ended at "Fifty", and "sixty" was read
    "sixteen"; the extra room goes to bare numbers only, so a card prompt is unchanged."""
    encode = whisper._tokenizer.encode
    numbers = list(matcher.table("keep-it-100/tiebreak").texts)
    assert "Sixty." not in prompt_text(numbers, encode, 60)
    longer = prompt_text(numbers, encode, 60, 20)
    assert all(f"{tens}." in longer for tens in ("Sixty", "Seventy", "Eighty", "Ninety", "One hundred"))
    assert len(encode(" " + longer)) <= 80
    cards = list(matcher.table("centurion/play_card").texts)
    assert prompt_text(cards, encode, 60, 20) == prompt_text(cards, encode, 60)


def test_the_phrases_written_in_a_prompt_are_known_and_a_reading_of_one_is_marked(whisper, matcher, say):
    """A reading that is a phrase of its own prompt may be the prompt's words, not the
    speaker's (voice/listening/steering.py): the recogniser says which readings are."""
    assert written_phrases("We play card one. What's the score? Undo.") == {
        "we play card one",
        "what's the score",
        "undo",
    }
    assert written_phrases("kettle candle lemon") == frozenset()  # bare words: no phrase
    prompt = whisper.compile(list(matcher.table("keep-it-100/predict").texts))
    assert {"lower", "you're right"} <= prompt.written
    [hypothesis, *_] = whisper.recognize(say("lower"), prompt)
    assert hypothesis.text == "lower" and hypothesis.details[PROMPT_PHRASE]
    [bet, *_] = whisper.recognize(say("lower"), whisper.compile(["higher", "spot on"]))
    assert PROMPT_PHRASE not in bet.details


def test_compiled_prompts_are_cached_by_phrase_set(matcher):
    recognizer = WhisperRecognizer()
    texts = list(matcher.table("keep-it-100/place").texts)
    first = recognizer.compile(texts)
    assert recognizer.compile(list(texts)) is first
    assert recognizer._cache.builds == 1
    assert recognizer.compile(texts[:10]) is not first


def test_a_missing_model_says_what_to_do(tmp_path):
    with pytest.raises(ModelMissingError, match="model.bin"):
        WhisperRecognizer(model_path=tmp_path)


def test_forced_scores_favour_what_was_said_and_do_not_depend_on_the_kept_encoding(whisper, shared_audio):
    """score_texts on real speech: the spoken digit outscores another, and the encoder
    output kept from recognize() gives exactly the scores a fresh encoding gives."""
    audio = recording(shared_audio, "fsdd/7_jackson_0.wav")
    whisper.recognize(audio, whisper.compile(["seven", "two"]))  # keeps this encoding
    kept, readings = whisper.score_texts(audio, [" Seven.", " Two."], 2)
    whisper._last_encoded = None
    fresh, again = whisper.score_texts(audio, [" Seven.", " Two."], 2)
    assert kept == fresh and readings == again
    assert kept[0] > kept[1] + 3
    three = recording(shared_audio, "fsdd/3_jackson_2.wav")
    after_seven = whisper.score_texts(three, [" Three.", " Seven."], 2)  # not the kept clip's
    whisper._last_encoded = None
    assert whisper.score_texts(three, [" Three.", " Seven."], 2) == after_seven
    assert after_seven[0][0] > after_seven[0][1]
