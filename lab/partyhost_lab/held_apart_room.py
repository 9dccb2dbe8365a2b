"""The held-apart table's party: a noisy room that no test, threshold or tuning has heard.

The party room of the benches (lab/partyhost_lab/chatter.py's party_noise) is made of the
people's recordings and the dishes and music of ../shared/audio/noise, and those same
recordings set test thresholds (tests/test_endpoint.py, tests/test_kitchen.py,
tests/test_asr_*.py) and the wake word's false-wake figure. A figure measured in that
room is not held apart. This room is made another way, from nothing the project uses:

- talk: sentences no bench or fixture says (TALK), by espeak-ng voices no bench speaks
  with (TALKERS), several at once;
- a kitchen: plates and cutlery clinking, synthesised (decaying high partials);
- music: a synthesised band (chords, a bass line, a hi-hat) at 112 beats a minute.

Mixed by power 2 : 1 : 1, as the tuning party's chatter, dishes and music are.
"""

from __future__ import annotations

import numpy as np

from partyhost_lab.chatter import by_power
from partyhost_lab.synthetic_speech import Voices
from voice.audio_types import SAMPLE_RATE

TALKERS = ("espeak-en-gb+Alex", "espeak-en-us+zac", "espeak-en-gb-x-rp+quincy", "espeak-en-us+anika")
"""Voices held apart for the room's talk: no bench, fixture or test speaks with them,
nor does the held-apart table's own players (lab/partyhost_lab/table.py)."""
TALK = (
    "did you see the match on saturday it went to extra time",
    "we are thinking of painting the kitchen a sort of pale green",
    "the bus was twenty minutes late again this morning",
    "she has started learning the cello at last",
    "can somebody open a window it is getting stuffy",
    "my cousin moved to the coast and never looked back",
    "these crisps are the spicy ones be careful",
    "I still have not finished that book you lent me",
    "the garden needs a good weeding before the weekend",
    "who is driving home tonight",
    "they built a new bakery on the corner of our street",
    "honestly the last episode was a bit of a let down",
)
"""Table talk that no bench or fixture says (lab/partyhost_lab/synthetic_speech.py's CHATTER is another list)."""
POWER = (("talk", 2.0), ("kitchen", 1.0), ("music", 1.0))
LIVELY_POWER = (("talk", 8.0), ("kitchen", 1.0), ("music", 1.0))
LIVELY_PEOPLE = 2
"""A lively table: two people talking close by, their talk most of the room's power (as
lab/partyhost_lab/chatter.py's LIVELY)."""
BPM = 112


def held_apart_party(voices: Voices, seconds: float, seed: int = 41, lively: bool = False) -> np.ndarray:
    """`seconds` of the held-apart party (`lively`: a lively table's talk) at unit RMS."""
    rng = np.random.default_rng(seed)
    people, power = (LIVELY_PEOPLE, LIVELY_POWER) if lively else (4, POWER)
    made = {
        "talk": talk(voices, seconds, rng, people),
        "kitchen": kitchen(seconds, rng),
        "music": music(seconds, rng),
    }
    return by_power([(made[name], share) for name, share in power], seconds, rng)


def talk(voices: Voices, seconds: float, rng: np.random.Generator, people: int = 4) -> np.ndarray:
    """`people` talking at once, each a talker saying the sentences in a random order with
    short pauses, at their own level."""
    n = int(seconds * SAMPLE_RATE)
    said = {(who, text): voices.speak(who, text) for who in TALKERS for text in TALK}
    out = np.zeros(n)
    for person in range(people):
        who, level = TALKERS[person % len(TALKERS)], 10 ** (rng.uniform(-8, 0) / 20)
        at = int(rng.uniform(0, 2) * SAMPLE_RATE)
        while at < n:
            audio = said[(who, TALK[rng.integers(len(TALK))])]
            end = min(n, at + len(audio))
            out[at:end] += audio[: end - at] / (np.sqrt(np.mean(audio**2)) + 1e-9) * level
            at = end + int(rng.uniform(0.2, 1.2) * SAMPLE_RATE)
    return out.astype(np.float32)


def kitchen(seconds: float, rng: np.random.Generator, per_second: float = 2.5) -> np.ndarray:
    """Plates and cutlery: clinks at random moments, each a few decaying high partials."""
    n = int(seconds * SAMPLE_RATE)
    out = np.zeros(n)
    t = np.arange(int(0.25 * SAMPLE_RATE)) / SAMPLE_RATE
    for at in np.sort(rng.uniform(0, n, int(seconds * per_second))).astype(int):
        clink = np.sum(
            [
                np.sin(2 * np.pi * rng.uniform(1800, 7000) * t + rng.uniform(0, 6.3))
                * np.exp(-t / rng.uniform(0.01, 0.08))
                for _ in range(3)
            ],
            axis=0,
        )
        end = min(n, at + len(t))
        out[at:end] += clink[: end - at] * 10 ** (rng.uniform(-18, 0) / 20)
    return out.astype(np.float32)


def music(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """A band in the next room: a chord a bar (I V vi IV), a bass note a beat, a hi-hat
    off the beat."""
    n = int(seconds * SAMPLE_RATE)
    beat = int(60 / BPM * SAMPLE_RATE)
    t = np.arange(beat) / SAMPLE_RATE
    key = 220.0 * 2 ** (rng.integers(0, 12) / 12)
    chords = ((0, 4, 7), (7, 11, 14), (9, 12, 16), (5, 9, 12))
    out = np.zeros(n + beat)
    for number, at in enumerate(range(0, n, beat)):
        root, *_ = notes = chords[number // 4 % len(chords)]
        chord = sum(_tone(key * 2 ** (step / 12), t) for step in notes) * np.exp(-t / 0.6)
        bass = _tone(key / 2 * 2 ** (root / 12), t) * np.exp(-t / 0.25) * 1.5
        hat = rng.standard_normal(beat) * np.exp(-np.maximum(t - 60 / BPM / 2, 0) / 0.02) * (t >= 60 / BPM / 2) * 0.3
        out[at : at + beat] += chord + bass + np.diff(hat, prepend=0.0)
    return out[:n].astype(np.float32)


def _tone(frequency: float, t: np.ndarray) -> np.ndarray:
    """A note with a few harmonics, as an instrument has."""
    return np.sum([np.sin(2 * np.pi * frequency * k * t) / k for k in (1, 2, 3)], axis=0)
