"""Speech staged for a benchmark: padded as the endpointer hands it over, and mixed with
noise at a chosen signal-to-noise ratio.

One mix with three ways of measuring the speech's level, because the benchmarks we
compare against define SNR differently:
- LOUD_SAMPLES: the power of the samples above 2 % of the peak (the speech, not its
  pauses) against the noise's mean power: the project's synthetic fixtures;
- LOUD_FRAMES: the power of the 30 ms frames within 30 dB of the loudest against the
  noise's mean power: scripts/measure_asr.py on people's recordings;
- LOUDEST_FRAME: the loudest 2048-sample frame of each, speech and noise: Picovoice's
  speech-to-intent benchmark (`scripts/bench coffee`), so figures compare with theirs.
"""

from __future__ import annotations

import random

import numpy as np

from voice.audio_types import SAMPLE_RATE

LOUD_SAMPLES, LOUD_FRAMES, LOUDEST_FRAME = "loud samples", "loud frames", "loudest frame"
LEAD_S, TAIL_S = 0.4, 0.6  # silence around an utterance, as a microphone would give
ROOM_FLOOR = 3e-4  # a faint room's noise floor (RMS), when asked for


def padded(
    audio: np.ndarray, rng: np.random.Generator | None = None, lead_s: float = LEAD_S, tail_s: float = TAIL_S
) -> np.ndarray:
    """Silence before and after; with `rng`, a faint room floor under all of it."""
    out = np.concatenate(
        [np.zeros(int(lead_s * SAMPLE_RATE), np.float32), audio, np.zeros(int(tail_s * SAMPLE_RATE), np.float32)]
    )
    if rng is not None:
        out = out + rng.normal(0, ROOM_FLOOR, len(out))
    return out.astype(np.float32)


def speech_level_dbfs(speech: np.ndarray, measure: str = LOUD_SAMPLES) -> float:
    """The speech's level as `measure` defines it, in dB below full scale."""
    return 10 * float(np.log10(_power(speech.astype(np.float64), measure) + 1e-20))


def at_level(speech: np.ndarray, dbfs: float, measure: str = LOUD_SAMPLES) -> np.ndarray:
    """The speech brought to `dbfs` (its level as `measure` defines it)."""
    return (speech * 10 ** ((dbfs - speech_level_dbfs(speech, measure)) / 20)).astype(np.float32)


def speech_end(audio: np.ndarray) -> int:
    """Index just after the last sample within 40 dB of the loudest 10 ms (the end of
    the speech, not of the silence a synthesiser leaves after it)."""
    win = SAMPLE_RATE // 100
    n = len(audio) // win
    e = 10 * np.log10(np.mean(audio[: n * win].astype(np.float64).reshape(n, win) ** 2, axis=1) + 1e-12)
    return int(np.nonzero(e > e.max() - 40)[0][-1] + 1) * win


def random_start(noise: np.ndarray, length: int, rng: random.Random) -> int:
    """Where a stretch of `length` samples may begin in `noise`, chosen by `rng`."""
    return rng.randrange(max(1, len(noise) - length))


def mix(speech: np.ndarray, noise: np.ndarray, snr_db: float, *, start: int, measure: str = LOUD_SAMPLES) -> np.ndarray:
    """speech + the noise from `start` (repeated if short), scaled so the speech's level,
    as `measure` defines it, stands `snr_db` above the noise's. Not limited: the caller
    keeps the result in range as its benchmark does."""
    piece = np.resize(noise[start : start + len(speech)], len(speech)).astype(np.float64)
    speech_power = _power(speech.astype(np.float64), measure)
    noise_power = _loudest_frame_power(piece) if measure == LOUDEST_FRAME else float(np.mean(piece**2))
    gain = np.sqrt(speech_power / ((noise_power or 1e-12) * 10 ** (snr_db / 10)))
    return (speech + gain * piece).astype(np.float32)


def _power(speech: np.ndarray, measure: str) -> float:
    if measure == LOUD_SAMPLES:
        peak = np.abs(speech).max() if len(speech) else 0.0
        loud = speech[np.abs(speech) > 0.02 * peak] if peak > 0 else speech
        return float(np.mean(loud**2)) if len(loud) else 0.0
    if measure == LOUD_FRAMES:
        frame = int(0.03 * SAMPLE_RATE)
        energy = (speech[: len(speech) // frame * frame].reshape(-1, frame) ** 2).mean(axis=1)
        return float(energy[energy >= energy.max() * 1e-3].mean())
    if measure == LOUDEST_FRAME:
        return _loudest_frame_power(speech)
    raise ValueError(f"no SNR measure {measure!r}: use {LOUD_SAMPLES!r}, {LOUD_FRAMES!r} or {LOUDEST_FRAME!r}")


def _loudest_frame_power(audio: np.ndarray, frame: int = 2048) -> float:
    frames = audio[: len(audio) // frame * frame].reshape(-1, frame) if len(audio) >= frame else audio[None, :]
    return float((frames**2).mean(axis=1).max())
