"""voice/speaking/mixing.py: one mix, three SNR measures, each holding the ratio it promises."""

import random

import numpy as np
import pytest

from voice.speaking import mixing


def _speech_with_pauses() -> np.ndarray:
    rng = np.random.default_rng(3)
    tone = 0.3 * np.sin(np.arange(8000) * 0.07).astype(np.float32)
    return np.concatenate([tone, np.zeros(8000, np.float32), 0.1 * tone, rng.normal(0, 1e-4, 4000).astype(np.float32)])


@pytest.mark.parametrize("measure", [mixing.LOUD_SAMPLES, mixing.LOUD_FRAMES, mixing.LOUDEST_FRAME])
def test_each_measure_gives_the_asked_snr(measure):
    speech = _speech_with_pauses()
    noise = np.random.default_rng(5).normal(0, 0.05, 64000).astype(np.float32)
    start = mixing.random_start(noise, len(speech), random.Random(1))
    mixed = mixing.mix(speech, noise, 6.0, start=start, measure=measure)
    added = (mixed - speech).astype(np.float64)
    speech_level = mixing._power(speech.astype(np.float64), measure)
    noise_level = mixing._loudest_frame_power(added) if measure == mixing.LOUDEST_FRAME else np.mean(added**2)
    assert 10 * np.log10(speech_level / noise_level) == pytest.approx(6.0, abs=0.01)


def test_the_measures_differ_on_speech_with_pauses():
    speech, noise = _speech_with_pauses(), np.ones(40000, np.float32) * 0.01
    gains = {
        m: np.abs(mixing.mix(speech, noise, 0.0, start=0, measure=m) - speech).max()
        for m in (mixing.LOUD_SAMPLES, mixing.LOUD_FRAMES, mixing.LOUDEST_FRAME)
    }
    assert len({round(float(g), 4) for g in gains.values()}) == 3


def test_short_noise_repeats_and_an_unknown_measure_is_refused():
    speech = _speech_with_pauses()
    assert len(mixing.mix(speech, np.ones(100, np.float32), 0.0, start=0)) == len(speech)
    with pytest.raises(ValueError, match="no SNR measure"):
        mixing.mix(speech, np.ones(100, np.float32), 0.0, start=0, measure="peak")


def test_padding_adds_silence_and_an_optional_room_floor():
    audio = np.ones(160, np.float32)
    quiet = mixing.padded(audio)
    assert len(quiet) == 160 + int((mixing.LEAD_S + mixing.TAIL_S) * 16000) and not quiet[:100].any()
    floor = mixing.padded(audio, np.random.default_rng(0))
    assert 0 < np.std(floor[:1000]) < 1e-3
