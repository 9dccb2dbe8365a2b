"""The host's sound cues, generated with numpy: no sound files to ship or lose.

Each cue has its own character so players learn them without looking: a rising
chime for your turn, a bright arpeggio for correct, a falling low tone for wrong,
a harsh buzz for Keep Cool's time-out, a rattle for dice, a snare roll before a
reveal, a fanfare for game over, a dry tick for the last seconds, a sparkle when a
card is won. Cues are rendered once per (name, rate) and cached, read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

PEAK = 0.89
"""Peak level of every cue (-1 dBFS), the same as speech at full volume."""
MAX_RMS = 0.3
"""A dense sound (the buzzer) peaking at PEAK would be far louder than speech: cap its RMS."""
FADE_S = 0.004
"""Fade at both ends so no cue starts or stops with a click."""


class UnknownCue(KeyError):
    """A cue name that does not exist; the message lists those that do."""


def _t(duration: float, rate: int) -> np.ndarray:
    return np.arange(int(round(duration * rate))) / rate


def _tone(
    freq: float,
    duration: float,
    rate: int,
    partials: tuple[float, ...] = (1.0,),
    decay: float = 0.0,
    attack: float = 0.005,
    release: float = 0.03,
) -> np.ndarray:
    """A note: harmonics with relative amplitudes `partials`, a quick attack, exponential
    decay, and a release to zero (a note cut off mid-swing clicks)."""
    t = _t(duration, rate)
    wave = sum(amp * np.sin(2 * np.pi * freq * (k + 1) * t) for k, amp in enumerate(partials))
    envelope = np.minimum(1.0, t / attack) * np.exp(-decay * t)
    envelope *= np.clip((duration - t) / release, 0.0, 1.0)
    return wave * envelope


def _place(parts: list[tuple[float, np.ndarray]], duration: float, rate: int) -> np.ndarray:
    """Mix (start seconds, audio) parts into one buffer `duration` long."""
    out = np.zeros(int(round(duration * rate)))
    for start, audio in parts:
        i = int(round(start * rate))
        n = min(len(audio), len(out) - i)
        out[i : i + n] += audio[:n]
    return out


def _noise_burst(
    duration: float, rate: int, rng: np.random.Generator, low: float, high: float, decay: float
) -> np.ndarray:
    """Band-limited noise with a sharp attack: the body of clicks, rattles and snares."""
    n = int(round(duration * rate))
    spectrum = np.fft.rfft(rng.standard_normal(n))
    freqs = np.fft.rfftfreq(n, 1 / rate)
    spectrum[(freqs < low) | (freqs > high)] = 0
    burst = np.fft.irfft(spectrum, n)
    return burst / (np.max(np.abs(burst)) or 1) * np.exp(-decay * _t(duration, rate))


def your_turn(rate: int) -> np.ndarray:
    """Two soft rising bell notes (E5, A5)."""
    bell = (1.0, 0.35, 0.12)
    return _place(
        [(0.0, _tone(659.3, 0.22, rate, bell, decay=9)), (0.14, _tone(880.0, 0.32, rate, bell, decay=7))], 0.46, rate
    )


def correct(rate: int) -> np.ndarray:
    """A bright rising major arpeggio (C5 E5 G5 C6)."""
    notes = (523.3, 659.3, 784.0, 1046.5)
    parts = [(0.07 * i, _tone(f, 0.3, rate, (1.0, 0.5, 0.25), decay=8)) for i, f in enumerate(notes)]
    return _place(parts, 0.55, rate)


def wrong(rate: int) -> np.ndarray:
    """Two falling low notes with a hollow, square-ish timbre."""
    square = (1.0, 0.0, 0.33, 0.0, 0.2, 0.0, 0.14)
    return _place(
        [(0.0, _tone(311.1, 0.22, rate, square, decay=4)), (0.2, _tone(233.1, 0.4, rate, square, decay=4))], 0.6, rate
    )


def buzzer(rate: int) -> np.ndarray:
    """Harsh and flat: two detuned sawtooth-like tones at 110 Hz, saturated, 1.2 s."""
    t = _t(1.2, rate)
    saw = lambda f: sum(np.sin(2 * np.pi * f * k * t) / k for k in range(1, 30))  # noqa: E731
    wave = np.tanh(2.5 * (saw(110.0) + saw(116.5)))
    return wave * np.minimum(1.0, t / 0.01) * np.clip((1.2 - t) / 0.04, 0.0, 1.0)


def dice(rate: int) -> np.ndarray:
    """A rattle: dice knocking together, then settling (clicks that thin out)."""
    rng = np.random.default_rng(6)
    starts = np.cumsum(rng.uniform(0.015, 0.04, 18) * np.linspace(1.0, 2.2, 18))
    parts = [
        (s, _noise_burst(0.03, rate, rng, 1800, 6000, decay=180) * rng.uniform(0.4, 1.0) * (1.1 - s / starts[-1] * 0.6))
        for s in starts
    ]
    return _place(parts, starts[-1] + 0.06, rate)


def drumroll(rate: int) -> np.ndarray:
    """A snare roll rising in loudness for 1.3 s, ending on a crash."""
    rng = np.random.default_rng(1)
    hits = np.arange(0.0, 1.3, 1 / 22)
    parts = [(s, _noise_burst(0.05, rate, rng, 300, 7000, decay=60) * (0.25 + 0.6 * s / 1.3)) for s in hits]
    parts.append((1.3, _noise_burst(0.25, rate, rng, 2000, 10000, decay=14)))
    return _place(parts, 1.55, rate)


def game_over(rate: int) -> np.ndarray:
    """A short fanfare: G4 C5 E5, then a held G5 over C5."""
    brass = (1.0, 0.6, 0.4, 0.25, 0.15)
    parts = [
        (0.0, _tone(392.0, 0.18, rate, brass, decay=3)),
        (0.16, _tone(523.3, 0.18, rate, brass, decay=3)),
        (0.32, _tone(659.3, 0.18, rate, brass, decay=3)),
        (0.48, _tone(784.0, 0.8, rate, brass, decay=2.5)),
        (0.48, 0.6 * _tone(523.3, 0.8, rate, brass, decay=2.5)),
    ]
    return _place(parts, 1.3, rate)


def tick(rate: int) -> np.ndarray:
    """A dry wood-block tick, 60 ms."""
    rng = np.random.default_rng(3)
    body = _tone(1200.0, 0.06, rate, (1.0, 0.0, 0.3), decay=90, attack=0.0005, release=0.01)
    return body + 0.3 * _noise_burst(0.06, rate, rng, 2000, 8000, decay=300)


def win_card(rate: int) -> np.ndarray:
    """A sparkle: a quick run of high bell notes going up."""
    notes = (1318.5, 1568.0, 2093.0, 2637.0)
    parts = [(0.045 * i, _tone(f, 0.25, rate, (1.0, 0.0, 0.0, 0.2), decay=14)) for i, f in enumerate(notes)]
    return _place(parts, 0.45, rate)


GENERATORS: dict[str, Callable[[int], np.ndarray]] = {
    "your_turn": your_turn,
    "correct": correct,
    "wrong": wrong,
    "buzzer": buzzer,
    "dice": dice,
    "drumroll": drumroll,
    "game_over": game_over,
    "tick": tick,
    "win_card": win_card,
}
NAMES = tuple(GENERATORS)


def _finish(audio: np.ndarray, rate: int) -> np.ndarray:
    """No DC, no clicks at the ends, peak at PEAK (RMS at most MAX_RMS), float32."""
    fade = min(len(audio) // 2, int(FADE_S * rate))
    ramp = np.linspace(0.0, 1.0, fade)
    audio[:fade] *= ramp
    audio[len(audio) - fade :] *= ramp[::-1]
    audio = audio - np.mean(audio)
    audio *= PEAK / np.max(np.abs(audio))
    rms = float(np.sqrt(np.mean(audio**2)))
    if rms > MAX_RMS:
        audio *= MAX_RMS / rms
    return audio.astype(np.float32)


@lru_cache(maxsize=64)
def cue(name: str, rate: int = 22_050) -> np.ndarray:
    """The cue `name` as float32 mono at `rate`, peak-normalised; cached and read-only."""
    if name not in GENERATORS:
        raise UnknownCue(f"no sound cue {name!r}; there are: {', '.join(NAMES)}")
    audio = _finish(GENERATORS[name](rate).astype(np.float64), rate)
    audio.setflags(write=False)
    return audio
