"""`partyhost bench wake`: how well the wake word works, measured as a game hears it.

Every clip goes through the chain of a live game: frames of 30 ms, the front end
(voice/frontend.py), the wake word's watch (voice/wake.py) and, for commands, the
ears themselves (voice/ears.py: endpointer, recogniser, matcher).

- detection: the wake word said alone and before a command by held-apart synthetic
  voices (HELD_VOICES: never listened to while the wake word code was written;
  DESIGN_VOICES were), clean and with each shared noise at 10 dB SNR;
- false wakes per hour: the shared noises, five-voice table chatter made from the
  people's recordings (partyhost/chatter_bench.py), and chatter sentences said by
  every voice, none of which says the wake word;
- commands at a Keep Cool turn: the eight commands of scripts/measure_host_commands.py
  after the wake word instead of "host", at the same two tables, voices and noise;
- idle CPU: the detector's share of one core on a quiet room, beside the front end
  and endpointer that run anyway.

The people's recordings (../shared/audio) never say a wake word, so detection on
people cannot be measured from them; they serve the false-wake figure.
"""
from __future__ import annotations

import random
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame
from voice.mixing import padded

from .synthetic_speech import CHATTER, ESPEAK_VOICES, NOISES, Voices, load_noise, mix_at_snr

DESIGN_VOICES = ("piper-1", "espeak-en-us")
"""Listened to while voice/wake.py was written (where the word ends, where to cut)."""
HELD_VOICES = ("piper-0.85", "piper-1.2", "espeak-en-gb", "espeak-en-us+m3", "espeak-en-us+f2",
               "espeak-en-gb-x-rp+f4", "espeak-en-029", "espeak-en-gb-scotland", "espeak-en-us-nyc")
"""Never listened to while designing: the detection figure is theirs alone."""
COMMANDS = {"scores": "score", "repeat that": "repeat", "help": "help", "relaxed mode": "relaxed",
            "pause": "pause", "whose turn is it": "whose_turn", "undo": "undo",
            "what can I say": "what_can_i_say"}
"""Commands at a Keep Cool turn, after the prefix ("host, scores"), and the intent each means."""
COMMAND_TABLES = [
    {"words": ["kettle", "candle", "pencil", "apple", "bread", "island", "mirror", "lemon"],
     "roster": ["Ana", "Ben", "Cy"]},
    {"words": ["tiger", "window", "river", "pillow", "mouse", "glove", "rocket", "needle", "forest",
               "guitar", "engine", "coffee"],
     "roster": ["Ana", "Ben", "Cy", "Dee"]},
]
"""Two tables of words in play (the recogniser's prompt is full of them)."""
COMMAND_VOICES = ["piper-0.85", "piper-1", "piper-1.2"] + [f"espeak-{v}" for v in ESPEAK_VOICES]
"""The voices "host, ..." was measured with (docs/keep-cool-live.md)."""
DETECTION_AFTER = ("", "what's the score", "pause")
SNR_DB = 10.0


@dataclass(frozen=True)
class Rate:
    """`hits` of `n`, as a share."""

    hits: int
    n: int

    @property
    def share(self) -> float:
        return self.hits / self.n if self.n else 0.0

    def __str__(self) -> str:
        return f"{self.share:6.1%} ({self.hits}/{self.n})"


class ClipSource:
    """A clip in memory as the ears' microphone (voice.audio_types.AudioSource)."""

    def __init__(self, audio: np.ndarray):
        self.audio, self._t = audio, 0.0

    def frames(self) -> Iterator[Frame]:
        for i in range(len(self.audio) // FRAME_SAMPLES):
            self._t = i * FRAME_SAMPLES / SAMPLE_RATE
            yield Frame(self.audio[i * FRAME_SAMPLES:(i + 1) * FRAME_SAMPLES], self._t)

    def now(self) -> float:
        return self._t

    def skip_until(self, t: float) -> None:
        pass

    def next_frame_t(self) -> float:
        return self._t


def wakes_in(audio: np.ndarray, wake_word: str) -> list[float]:
    """When the wake word was heard in `audio`, through the live chain's front end."""
    from voice.frontend import FrontEnd
    from voice.wake import WakeDetector
    front, detector = FrontEnd(), WakeDetector(wake_word)
    times = []
    for frame in ClipSource(audio).frames():
        fired = detector.push(front.process(frame))
        if fired is not None:
            times.append(fired)
    detector.close()
    return times


def detection(voices: Voices, wake_word: str, names: tuple[str, ...] = HELD_VOICES,
              seed: int = 5) -> dict[str, Rate]:
    """Clips in which the word was heard, by condition (clean and each noise)."""
    from voice.wake import shipped_wake_words
    phrase = shipped_wake_words()[wake_word].phrase
    noises, rng = {name: load_noise(name) for name in NOISES}, random.Random(seed)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for voice in voices.names_given(names):
        for after in DETECTION_AFTER:
            speech = voices.speak(voice, f"{phrase}, {after}" if after else phrase)
            for condition in ("clean", *NOISES):
                audio = speech if condition == "clean" else mix_at_snr(speech, noises[condition], SNR_DB, rng)
                counts[condition][0] += bool(wakes_in(padded(audio), wake_word))
                counts[condition][1] += 1
    rates = {condition: Rate(*c) for condition, c in counts.items()}
    rates["all"] = Rate(sum(r.hits for r in rates.values()), sum(r.n for r in rates.values()))
    return rates


@dataclass(frozen=True)
class FalseWakes:
    """Wakes heard in audio that never says the word, by source, and the hours listened."""

    wakes: dict[str, int]
    hours: dict[str, float]

    @property
    def per_hour(self) -> float:
        return sum(self.wakes.values()) / sum(self.hours.values())

    @property
    def upper_95(self) -> float:
        """The rate's one-sided 95 % upper bound (Poisson; 3/hours with none heard)."""
        from math import exp, factorial
        k, hours = sum(self.wakes.values()), sum(self.hours.values())
        rate = (k + 1.0) / hours
        while sum(exp(-rate * hours) * (rate * hours) ** i / factorial(i) for i in range(k + 1)) > 0.05:
            rate += 0.001
        return rate


def false_wakes(voices: Voices, wake_word: str, babble_minutes: float = 45.0) -> FalseWakes:
    from .chatter_bench import babble
    sources: dict[str, np.ndarray] = {name: load_noise(name) for name in NOISES}
    sources["table chatter (people)"] = babble(babble_minutes * 60)
    said = [padded(voices.speak(voice, sentence)) for voice in voices.names_given(DESIGN_VOICES + HELD_VOICES)
            for sentence in CHATTER]
    sources["chatter sentences (synthetic)"] = np.concatenate(said)
    wakes = {name: len(wakes_in(audio, wake_word)) for name, audio in sources.items()}
    hours = {name: len(audio) / SAMPLE_RATE / 3600 for name, audio in sources.items()}
    return FalseWakes(wakes, hours)


def commands(voices: Voices, wake_word: str | None, understand: Callable[..., Any] | None = None,
             seed: int = 3) -> dict[tuple[str, str], Rate]:
    """Commands understood at a Keep Cool turn (keep-cool/word) through the ears, by
    condition and voice group ("held" or "design"); `wake_word` None: said after "host"."""
    from host.games import grammar_slots
    from voice.ears import VoiceEars
    from voice.endpoint import Endpointer
    from voice.frontend import FrontEnd
    from voice.matcher import Matcher
    from voice.wake import WakeDetector, WakeWatch, shipped_wake_words
    from .bench import BenchPrompt
    from .config import Settings
    from .voiceio import reader_for
    reader, matcher = reader_for(Settings()), Matcher()     # as a live game reads, checks and all
    prefix = shipped_wake_words()[wake_word].phrase if wake_word else "host"
    music, rng = load_noise("music"), random.Random(seed)
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for voice in voices.names_given(COMMAND_VOICES):
        group = "design" if voice in DESIGN_VOICES else "held"
        for said, intent in COMMANDS.items():
            clean = voices.speak(voice, f"{prefix}, {said}")
            for condition in ("clean", f"music@{SNR_DB:g}dB"):
                audio = clean if condition == "clean" else mix_at_snr(clean, music, SNR_DB, rng)
                for table in COMMAND_TABLES:
                    prompt = BenchPrompt("keep-cool/word", grammar_slots("keep-cool/word", table), 8.0)
                    wake = WakeWatch(WakeDetector(wake_word)) if wake_word else None
                    ears = VoiceEars(ClipSource(padded(audio)), Endpointer(), reader, matcher,
                                     busy_until=lambda: 0.0, front_end=FrontEnd(), wake=wake)
                    heard = ears.hear(prompt)
                    if heard is not None and heard.intent is None and heard.text and not heard.ignored:
                        got = matcher.match(prompt.name, heard.text, prompt.slots).intent
                    else:
                        got = heard.intent if heard is not None else None
                    counts[(condition, group)][0] += (got or {}).get("intent") == intent
                    counts[(condition, group)][1] += 1
                    if understand:
                        understand(voice, said, condition, heard, got)
    return {key: Rate(*c) for key, c in counts.items()}


def idle_cpu(wake_word: str, seconds: float = 60.0) -> dict[str, float]:
    """Share of one core for a quiet room: the front end and endpointer alone, and with
    the wake word's detector as well."""
    from voice.endpoint import Endpointer
    from voice.frontend import FrontEnd
    from voice.wake import WakeDetector
    rng = np.random.default_rng(1)
    audio = (rng.standard_normal(int(seconds * SAMPLE_RATE)) * 0.003).astype(np.float32)
    frames = list(ClipSource(audio).frames())
    shares = {}
    for name, detector in (("front end + endpointer", None), ("with the wake word", WakeDetector(wake_word))):
        front, endpointer = FrontEnd(), Endpointer()
        started = time.process_time()
        for frame in frames:
            frame = front.process(frame)
            if detector is not None:
                detector.push(frame)
            endpointer.push(frame)
        shares[name] = (time.process_time() - started) / seconds
    shares["wake word alone"] = shares["with the wake word"] - shares["front end + endpointer"]
    return shares


def command(wake_word: str, babble_minutes: float = 45.0, quick: bool = False) -> int:
    """Print every figure (`quick`: a few voices and minutes, to try the bench)."""
    voices = Voices(noise_scale=0.0)
    held = HELD_VOICES[:2] if quick else HELD_VOICES
    print(f"wake word: {wake_word}")
    cpu = idle_cpu(wake_word, 10.0 if quick else 60.0)
    print("idle CPU, share of one core: " + ", ".join(f"{k} {v:.2%}" for k, v in cpu.items()))
    rates = detection(voices, wake_word, held)
    print("detection, held-apart voices: " + ", ".join(f"{k} {v}" for k, v in rates.items()))
    found = false_wakes(voices, wake_word, 2.0 if quick else babble_minutes)
    print(f"false wakes: {sum(found.wakes.values())} in {sum(found.hours.values()):.2f} h = "
          f"{found.per_hour:.2f}/h (95 % upper bound {found.upper_95:.2f}/h); by source: "
          + ", ".join(f"{k} {found.wakes[k]} in {found.hours[k] * 60:.1f} min" for k in found.wakes))
    if not quick:
        for prefix in (wake_word, None):
            said = prefix or "host"
            for (condition, group), rate in sorted(commands(voices, prefix).items()):
                print(f"commands at a Keep Cool turn after {said!r}: {condition:<12} {group:<7} {rate}")
    return 0
