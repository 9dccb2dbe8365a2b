"""voice/recognizers.py: what can run here, the measured default, clear errors."""

from __future__ import annotations

import pytest

from voice.asr import CompiledCache, calibrate
from voice.recognizers import BACKENDS, DEFAULT_BACKEND, available_backends, backend_status, make_recognizer

pytestmark = pytest.mark.model


def test_the_embedded_backends_are_available_without_downloads(tmp_path):
    found = available_backends(tmp_path)
    assert "whisper" in found and "pocketsphinx" in found
    assert "vosk" not in found  # no English model in an empty folder
    assert set(found) <= set(BACKENDS)


def test_no_name_gives_the_measured_default():
    recognizer = make_recognizer(None)
    assert recognizer.name == DEFAULT_BACKEND == "whisper"
    assert make_recognizer("pocketsphinx").name == "pocketsphinx"


def test_an_unknown_backend_names_the_known_ones():
    with pytest.raises(ValueError, match="whisper, pocketsphinx, vosk"):
        make_recognizer("kaldi-9000")
    with pytest.raises(ValueError, match="known"):
        backend_status("kaldi-9000")


def test_confidence_line_lands_on_one_half():
    assert calibrate(-1.0, -1.0, 0.5) == pytest.approx(0.5)
    assert calibrate(-0.5, -1.0, 0.5) > 0.85 and calibrate(-1.5, -1.0, 0.5) < 0.15
    assert calibrate(3.0, 0.0, 1.0) > calibrate(2.0, 0.0, 1.0)


def test_compiled_cache_evicts_the_least_recent():
    evicted = []
    cache = CompiledCache(lambda phrases: list(phrases), size=2, on_evict=evicted.append)
    a = cache.get(["a"])
    cache.get(["b"])
    assert cache.get(("a",)) is a  # list or tuple: same phrase set
    cache.get(["c"])  # "b" is the least recently used
    assert evicted == [["b"]] and cache.builds == 3
