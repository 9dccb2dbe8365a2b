"""Sound cues: well-formed, each recognisably itself, and every cue the games ask for exists."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from voice.speaking.cues import MAX_RMS, NAMES, PEAK, UnknownCue, cue

RATE = 22_050
REPO = Path(__file__).resolve().parents[1]


def band_profile(audio: np.ndarray, rate: int = RATE, bands: int = 24) -> np.ndarray:
    """log10 share of energy in each of `bands` log-spaced bands (80 Hz to Nyquist)."""
    power = np.abs(np.fft.rfft(audio)) ** 2
    freqs = np.fft.rfftfreq(len(audio), 1 / rate)
    edges = np.geomspace(80, rate / 2, bands + 1)
    energy = np.array([power[(freqs >= lo) & (freqs < hi)].sum() for lo, hi in zip(edges, edges[1:])])
    return np.log10(energy / energy.sum() + 1e-6)


def flatness(audio: np.ndarray) -> float:
    """Spectral flatness: near 0 for tones, larger for noise."""
    power = np.abs(np.fft.rfft(audio)) ** 2 + 1e-12
    return float(np.exp(np.mean(np.log(power))) / np.mean(power))


def pitch_track(audio: np.ndarray, rate: int = RATE, frame_s: float = 0.04) -> list[float]:
    """Strongest frequency of each loud frame."""
    n = int(frame_s * rate)
    level = np.max(np.abs(audio))
    track = []
    for i in range(0, len(audio) - n, n):
        frame = audio[i : i + n]
        if np.max(np.abs(frame)) > 0.3 * level:
            spectrum = np.abs(np.fft.rfft(frame * np.hanning(n), 8 * n))
            track.append(float(np.argmax(spectrum) * rate / (8 * n)))
    return track


@pytest.mark.parametrize("name", NAMES)
def test_each_cue_is_well_formed(name):
    audio = cue(name, RATE)
    seconds = len(audio) / RATE
    assert audio.dtype == np.float32
    assert 0.03 <= seconds <= (1.7 if name == "drumroll" else 1.5), seconds
    peak = float(np.max(np.abs(audio)))
    rms = float(np.sqrt(np.mean(audio**2)))
    assert peak <= PEAK + 1e-6  # never clips
    assert peak == pytest.approx(PEAK, abs=1e-3) or rms == pytest.approx(MAX_RMS, abs=1e-3)
    assert rms > 0.03  # audible
    assert abs(float(np.mean(audio))) < 1e-3  # no DC
    assert abs(audio[0]) < 0.01 and abs(audio[-1]) < 0.01  # no click at either end


def test_drumroll_is_about_a_second_and_a_half():
    assert 1.3 <= len(cue("drumroll", RATE)) / RATE <= 1.7


def test_cues_follow_the_sample_rate():
    for name in NAMES:
        assert abs(len(cue(name, 16_000)) / 16_000 - len(cue(name, RATE)) / RATE) < 0.002


def test_cues_are_cached_and_read_only():
    assert cue("dice", RATE) is cue("dice", RATE)
    with pytest.raises(ValueError):
        cue("dice", RATE)[0] = 1.0


def test_an_unknown_cue_names_the_known_ones():
    with pytest.raises(UnknownCue, match="your_turn"):
        cue("trumpet", RATE)


def test_every_pair_of_cues_differs_clearly_in_spectrum():
    """RMS distance between log band-energy profiles (1.0 = a factor of 10 per band)."""
    profiles = {name: band_profile(cue(name, RATE)) for name in NAMES}
    for a, b in itertools.combinations(NAMES, 2):
        distance = float(np.sqrt(np.mean((profiles[a] - profiles[b]) ** 2)))
        assert distance > 0.6, (a, b, distance)


def test_each_cue_has_its_character():
    track = {name: pitch_track(cue(name, RATE)) for name in ("your_turn", "correct", "wrong", "win_card")}
    for name in ("your_turn", "correct", "win_card"):
        assert track[name][-1] > track[name][0] * 1.2, name  # rises
    assert track["wrong"][-1] < track["wrong"][0] / 1.2  # falls, and low
    assert max(track["wrong"]) < 400
    noisy = {name: flatness(cue(name, RATE)) for name in NAMES}
    assert min(noisy["dice"], noisy["drumroll"]) > 10 * max(
        noisy[n] for n in NAMES if n not in ("dice", "drumroll", "tick")
    )
    buzzer = cue("buzzer", RATE)
    assert np.sqrt(np.mean(buzzer**2)) / np.max(np.abs(buzzer)) > 0.7  # dense, harsh, flat
    assert len(cue("tick", RATE)) == min(len(cue(n, RATE)) for n in NAMES)


def test_every_cue_the_games_ask_for_exists():
    """Cue names in host/games sources (sound("...") and *_CUE constants) all render."""
    used = set()
    for source in (REPO / "host").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bsound\(\s*"(\w+)"', text))
        used |= set(re.findall(r'\b\w*CUE\w*\s*=\s*"(\w+)"', text))
    assert {"your_turn", "wrong", "game_over"} <= used  # the scan found them
    assert used <= set(NAMES), used - set(NAMES)
