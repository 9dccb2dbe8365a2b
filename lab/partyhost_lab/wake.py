"""`partyhost bench wake`: how well the wake word works, measured as a game hears it.

Every clip goes through the chain of a live game, built as the live ears build it
(partyhost/listening_chain.py): frames of 30 ms, the front end (voice/listening/frontend.py),
the wake word's watch (voice/listening/wake.py) and, for commands, the ears themselves
(voice/listening/ears.py: endpointer, recogniser, matcher).

- detection, by voice family: the wake word said alone and before a command by
  held-apart synthetic voices (FAMILIES: Piper at speeds 0.8-1.25 and two semitones
  up or down, espeak-ng's men's and women's voices; none was listened to, or measured,
  while the detector was designed or tuned: DESIGN_VOICES and TUNING_VOICES were),
  clean and with each shared noise at 10 dB SNR; with the detector as it ships (two
  looks) and with the model's one look alone, for comparison;
- false wakes per hour: hours of table chatter and noise that never say the word,
  each ten-minute stretch a new random mix (chatter_and_noise): one to five people
  talking at once from the people's recordings (lab/partyhost_lab/chatter.py), a shared
  noise from a random offset at a random level, chatter sentences said by synthetic
  voices at random moments and levels, and a random overall level;
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from math import exp, factorial
from typing import Any

import numpy as np

from partyhost.config import Settings
from partyhost.listening_chain import endpointer_for, front_end, listening_chain, wake_watch
from partyhost_lab.synthetic_speech import (
    CHATTER,
    ESPEAK_VOICES,
    NOISES,
    Voices,
    load_noise,
    mix_at_snr,
    pitch_shifted,
)
from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame
from voice.listening.wake import LOWERED_SEMITONES
from voice.speaking.mixing import padded

DESIGN_VOICES = ("piper-1", "espeak-en-us")
"""Listened to while voice/listening/wake.py was written (where the word ends, where to cut)."""
TUNING_VOICES = (
    "piper-0.9",
    "piper-1.1",
    "espeak-en-us+m1",
    "espeak-en-us+m5",
    "espeak-en-us+f1",
    "espeak-en-us+f4",
    "espeak-en-us+f5",
    "espeak-en-gb+f1",
    "espeak-en-gb+f2",
    "espeak-en-gb+f3",
    "espeak-en-gb+m6",
    "espeak-en-gb-x-gbclan",
)
"""Measured while the detector's second look was chosen (voice/listening/wake.py): in no figure."""
FAMILIES = {
    "Piper, speeds 0.8-1.25": tuple(f"piper-{speed:g}" for speed in (0.8, 0.85, 0.95, 1.05, 1.15, 1.2, 1.25)),
    "Piper, 2 semitones up or down": tuple(
        f"piper-{speed:g}@{cents:+d}" for speed in (0.8, 1.0, 1.25) for cents in (200, -200)
    ),
    "espeak-ng, men's voices": (
        "espeak-en-gb",
        "espeak-en-us+m3",
        "espeak-en-029",
        "espeak-en-gb-scotland",
        "espeak-en-us-nyc",
        "espeak-en-us+m2",
        "espeak-en-gb+m4",
        "espeak-en-us+m7",
        "espeak-en-gb-x-rp",
        "espeak-en-us+Andy",
        "espeak-en-gb+Edward",
        "espeak-en-us+Mike",
    ),
    "espeak-ng, women's voices": (
        "espeak-en-us+f2",
        "espeak-en-gb-x-rp+f4",
        "espeak-en-gb+f5",
        "espeak-en-us+f3",
        "espeak-en-us+Annie",
        "espeak-en-gb+Linda",
        "espeak-en-us+Alicia",
        "espeak-en-gb+Belinda",
        "espeak-en-us+grandma",
        "espeak-en-gb+Steph",
    ),
}
"""The held-apart voices, by family: the detection figures are theirs alone. "NAME@CENTS" is
NAME's speech moved that many cents in pitch (sox), its speed unchanged."""
HELD_VOICES = tuple(voice for family in FAMILIES.values() for voice in family)
COMMANDS = {
    "scores": "score",
    "repeat that": "repeat",
    "help": "help",
    "relaxed mode": "relaxed",
    "pause": "pause",
    "whose turn is it": "whose_turn",
    "undo": "undo",
    "what can I say": "what_can_i_say",
}
"""Commands at a Keep Cool turn, after the prefix ("host, scores"), and the intent each means."""
COMMAND_TABLES = [
    {
        "words": ["kettle", "candle", "pencil", "apple", "bread", "island", "mirror", "lemon"],
        "roster": ["Ana", "Ben", "Cy"],
    },
    {
        "words": [
            "tiger",
            "window",
            "river",
            "pillow",
            "mouse",
            "glove",
            "rocket",
            "needle",
            "forest",
            "guitar",
            "engine",
            "coffee",
        ],
        "roster": ["Ana", "Ben", "Cy", "Dee"],
    },
]
"""Two tables of words in play (the recogniser's prompt is full of them)."""
COMMAND_VOICES = ["piper-0.85", "piper-1", "piper-1.2"] + [f"espeak-{v}" for v in ESPEAK_VOICES]
"""The voices "host, ..." was measured with (docs/lab/keep-cool-live.md)."""
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
            yield Frame(self.audio[i * FRAME_SAMPLES : (i + 1) * FRAME_SAMPLES], self._t)

    def now(self) -> float:
        return self._t

    def skip_until(self, t: float) -> None:
        pass

    def next_frame_t(self) -> float:
        return self._t


def speak(voices: Voices, voice: str, text: str) -> np.ndarray:
    """`voices.speak`, with "NAME@CENTS" for NAME moved CENTS in pitch (sox's `pitch`)."""
    name, _, cents = voice.partition("@")
    return pitch_shifted(voices.speak(name, text), float(cents or 0))


def wakes_in(
    audio: np.ndarray, wake_word: str, lowered_semitones: float = LOWERED_SEMITONES, settings: Settings | None = None
) -> list[float]:
    """When the wake word was heard in `audio`, through the front end of a game with these
    settings (None: as shipped); `lowered_semitones` 0: the model's one look alone."""
    from voice.listening.wake import WakeDetector

    front, detector = front_end(settings or Settings()), WakeDetector(wake_word, lowered_semitones)
    times = []
    for frame in ClipSource(audio).frames():
        fired = detector.push(front.process(frame))
        if fired is not None:
            times.append(fired)
    detector.close()
    return times


def detection(
    voices: Voices,
    wake_word: str,
    families: dict[str, tuple[str, ...]] = FAMILIES,
    looks: dict[str, float] | None = None,
    seed: int = 5,
    settings: Settings | None = None,
) -> dict[tuple[str, str, str], Rate]:
    """Clips in which the word was heard, by (detector, family, condition): conditions are
    clean, each noise, and "all"; detectors are `looks` (name: lowered semitones);
    `settings`: the game's whose front end hears them (None: as shipped)."""
    from voice.listening.wake import shipped_wake_words

    looks = looks or {"as shipped (two looks)": LOWERED_SEMITONES, "one look (the model alone)": 0.0}
    phrase = shipped_wake_words()[wake_word].phrase
    noises, rng = {name: load_noise(name) for name in NOISES}, random.Random(seed)
    counts: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for family, names in families.items():
        voices.names_given(name.partition("@")[0] for name in names)  # no espeak-ng: said, not skipped
        for voice in names:
            for after in DETECTION_AFTER:
                speech = speak(voices, voice, f"{phrase}, {after}" if after else phrase)
                for condition in ("clean", *NOISES):
                    audio = padded(
                        speech if condition == "clean" else mix_at_snr(speech, noises[condition], SNR_DB, rng)
                    )
                    for look, semitones in looks.items():
                        heard = bool(wakes_in(audio, wake_word, semitones, settings))
                        for key in ((look, family, condition), (look, family, "all")):
                            counts[key][0] += heard
                            counts[key][1] += 1
    return {key: Rate(*c) for key, c in counts.items()}


@dataclass(frozen=True)
class FalseWakes:
    """Wakes heard in audio that never says the word, and the hours listened."""

    wakes: int
    hours: float

    @property
    def per_hour(self) -> float:
        return self.wakes / self.hours

    @property
    def upper_95(self) -> float:
        """The rate's one-sided 95 % upper bound (Poisson, exact: 3.0 / hours with none heard)."""

        def at_most_k(rate: float) -> float:
            mean = rate * self.hours
            return sum(exp(-mean) * mean**i / factorial(i) for i in range(self.wakes + 1))

        low, high = 0.0, (self.wakes + 10) * 10 / self.hours
        for _ in range(60):
            low, high = ((low + high) / 2, high) if at_most_k((low + high) / 2) > 0.05 else (low, (low + high) / 2)
        return high


SEGMENT_S = 600.0
"""Each stretch of chatter and noise is a new random mix this long."""

SENTENCE_VOICES = (
    "piper-0.85",
    "piper-1.2",
    "espeak-en-gb",
    "espeak-en-us+m3",
    "espeak-en-us+f2",
    "espeak-en-029",
    "espeak-en-gb-scotland",
    "espeak-en-us+Annie",
)
"""Who says the chatter sentences of the false-wake mixes (none of them says the word)."""


@dataclass
class MixParts:
    """What every stretch is mixed from: people's takes, noises, synthetic chatter sentences."""

    takes: list[np.ndarray]
    noises: list[np.ndarray]
    sentences: list[np.ndarray]

    @classmethod
    def load(cls, voices: Voices) -> MixParts:
        from partyhost_lab.chatter import takes

        said = [
            voices.speak(voice, sentence)
            for voice in voices.names_given(DESIGN_VOICES + SENTENCE_VOICES)
            for sentence in CHATTER
        ]
        return cls(takes(), [load_noise(name) for name in NOISES], said)


def _rms_dbfs(audio: np.ndarray) -> float:
    return 10 * np.log10(np.mean(audio.astype(np.float64) ** 2) + 1e-20)


def chatter_and_noise(parts: MixParts, seed: int, seconds: float = SEGMENT_S) -> np.ndarray:
    """One random stretch of a table that never says the wake word: one to five people
    talking at once (each at its own level), a shared noise from a random offset at
    -50 to -25 dBFS, synthetic chatter sentences every 2-20 s at -32 to -20 dBFS, and the
    whole raised or lowered by -10 to +6 dB (near and far microphones)."""
    from partyhost_lab.chatter import babble

    rng = np.random.default_rng(seed)
    audio = babble(seconds, seed=seed, voices=int(rng.integers(1, 6)), pool=parts.takes).astype(np.float64)
    noise = parts.noises[int(rng.integers(len(parts.noises)))]
    noise = np.resize(np.roll(noise, -int(rng.integers(len(noise)))), len(audio))
    audio += noise * 10 ** ((rng.uniform(-50, -25) - _rms_dbfs(noise)) / 20)
    at = int(rng.uniform(0, 20) * SAMPLE_RATE)
    while at < len(audio):
        sentence = parts.sentences[int(rng.integers(len(parts.sentences)))]
        end = min(len(audio), at + len(sentence))
        audio[at:end] += sentence[: end - at] * 10 ** ((rng.uniform(-32, -20) - _rms_dbfs(sentence)) / 20)
        at = end + int(rng.uniform(2, 20) * SAMPLE_RATE)
    audio *= 10 ** (rng.uniform(-10, 6) / 20)
    return np.clip(audio, -1, 1).astype(np.float32)


_PARTS: MixParts | None = None
"""A worker process's parts, set once by the pool's initializer (not sent with every job)."""


def _keep_parts(parts: MixParts) -> None:
    global _PARTS
    _PARTS = parts


def _wakes_in_stretch(job: tuple[str, int, float, Settings]) -> tuple[int, float, int]:
    wake_word, seed, seconds, settings = job
    assert _PARTS is not None, "the pool's initializer gives every worker the parts"
    audio = chatter_and_noise(_PARTS, seed, seconds)
    return seed, len(audio) / SAMPLE_RATE, len(wakes_in(audio, wake_word, settings=settings))


def false_wakes(
    voices: Voices,
    wake_word: str,
    hours: float,
    jobs: int = 1,
    first_seed: int = 1000,
    progress: Callable[[int, float, int], None] | None = None,
    settings: Settings | None = None,
) -> FalseWakes:
    """Wakes in `hours` of chatter and noise, ten-minute mixes with seeds from `first_seed`,
    `jobs` at a time (processes); `progress(seed, seconds, wakes)` after each; `settings`:
    the game's whose front end hears them (None: as shipped)."""
    from multiprocessing import get_context

    parts = MixParts.load(voices)
    stretches = max(1, round(hours * 3600 / SEGMENT_S))
    seconds = min(SEGMENT_S, hours * 3600)
    work = [(wake_word, first_seed + i, seconds, settings or Settings()) for i in range(stretches)]
    wakes, heard = 0, 0.0
    with get_context("fork").Pool(jobs, initializer=_keep_parts, initargs=(parts,)) as pool:
        for seed, length, found in pool.imap_unordered(_wakes_in_stretch, work):
            wakes, heard = wakes + found, heard + length
            if progress:
                progress(seed, length, found)
    return FalseWakes(wakes, heard / 3600)


def commands(
    voices: Voices,
    wake_word: str | None,
    understand: Callable[..., Any] | None = None,
    seed: int = 3,
    settings: Settings | None = None,
) -> dict[tuple[str, str], Rate]:
    """Commands understood at a Keep Cool turn (keep-cool/word) through the ears of a game
    with these settings (None: as shipped), by condition and voice group ("held" or
    "design"); `wake_word` None: said after "host"."""
    from host.games import grammar_slots
    from partyhost.bench.manifest import bench_prompt
    from voice.listening.wake import OFF, shipped_wake_words
    from voice.understanding.matcher import Matcher

    chain, matcher = listening_chain(settings or Settings()), Matcher()  # as a live game hears, checks and all
    waking = replace(chain.settings, wake_word=wake_word or OFF)
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
                    prompt = bench_prompt("keep-cool/word", grammar_slots("keep-cool/word", table), 8.0)
                    ears = chain.ears(ClipSource(padded(audio)), matcher, wake=wake_watch(waking))
                    heard = ears.hear(prompt)
                    got = heard.intent if heard is not None else None  # understood by the ears
                    counts[(condition, group)][0] += (got or {}).get("intent") == intent
                    counts[(condition, group)][1] += 1
                    if understand:
                        understand(voice, said, condition, heard, got)
    return {key: Rate(*c) for key, c in counts.items()}


def idle_cpu(wake_word: str, seconds: float = 60.0, settings: Settings | None = None) -> dict[str, float]:
    """Share of one core for a quiet room: the front end and endpointer of a game with
    these settings (None: as shipped) alone, and with the wake word's detector as well."""
    from voice.listening.wake import WakeDetector

    settings = settings or Settings()
    rng = np.random.default_rng(1)
    audio = (rng.standard_normal(int(seconds * SAMPLE_RATE)) * 0.003).astype(np.float32)
    frames = list(ClipSource(audio).frames())
    shares = {}
    for name, detector in (("front end + endpointer", None), ("with the wake word", WakeDetector(wake_word))):
        front, endpointer = front_end(settings), endpointer_for(settings)
        started = time.process_time()
        for frame in frames:
            frame = front.process(frame)
            if detector is not None:
                detector.push(frame)
            endpointer.push(frame)
        shares[name] = (time.process_time() - started) / seconds
    shares["wake word alone"] = shares["with the wake word"] - shares["front end + endpointer"]
    return shares


def command(
    wake_word: str,
    hours: float = 10.0,
    jobs: int = 1,
    quick: bool = False,
    commands_too: bool = True,
    settings: Settings | None = None,
) -> int:
    """Print every figure (`quick`: a few voices and minutes, to try the bench), heard as
    a game with these settings hears (None: as shipped)."""
    voices = Voices(noise_scale=0.0)
    print(f"wake word: {wake_word}")
    cpu = idle_cpu(wake_word, 10.0 if quick else 60.0, settings)
    print("idle CPU, share of one core: " + ", ".join(f"{k} {v:.2%}" for k, v in cpu.items()))
    families = {family: names[:1] for family, names in FAMILIES.items()} if quick else FAMILIES
    rates = detection(voices, wake_word, families, settings=settings)
    for (look, family, condition), rate in sorted(rates.items()):
        if condition == "all":
            clean_and_noisy = ", ".join(f"{c} {rates[(look, family, c)].share:.0%}" for c in ("clean", *NOISES))
            print(f"detection, {look}, {family}: {rate} ({clean_and_noisy})")
    for look in sorted({key[0] for key in rates}):
        total = [rate for (lk, _, condition), rate in rates.items() if lk == look and condition == "all"]
        print(f"detection, {look}, every held-apart voice: {Rate(sum(r.hits for r in total), sum(r.n for r in total))}")
    found = false_wakes(
        voices,
        wake_word,
        2 / 60 if quick else hours,
        jobs,
        progress=lambda seed, seconds, wakes: print(
            f"  mix {seed}: {wakes} wakes in {seconds / 60:.0f} min", flush=True
        ),
        settings=settings,
    )
    print(
        f"false wakes: {found.wakes} in {found.hours:.2f} h of chatter and noise = {found.per_hour:.3f}/h "
        f"(95 % upper bound {found.upper_95:.3f}/h)"
    )
    if commands_too and not quick:
        for prefix in (wake_word, None):
            said = prefix or "host"
            for (condition, group), rate in sorted(commands(voices, prefix, settings=settings).items()):
                print(f"commands at a Keep Cool turn after {said!r}: {condition:<12} {group:<7} {rate}")
    return 0
