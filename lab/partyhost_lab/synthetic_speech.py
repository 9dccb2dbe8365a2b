"""Speech and noise made for the benchmarks: synthetic speakers, party noise, mixing.

`partyhost bench keep-cool` and the measuring scripts speak with these voices and
mix in these noises; the recorded-speech fixtures of the tests (tests/speech_fixtures.py)
are built with them too. Voices: Piper's joe voice at several speeds (the host's own
voice, so the easiest), and espeak-ng voices when installed (other speakers, accents
and synthesiser: held-apart data). Noise comes from ../shared/audio/noise.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from collections.abc import Iterable

import numpy as np
import soundfile
import soxr

from host.errors import PartyhostError
from partyhost_lab.places import SHARED_AUDIO
from voice.audio_types import SAMPLE_RATE
from voice.speaking.mixing import LOUD_SAMPLES, mix, random_start

NOISES = ("doing_the_dishes", "running_tap", "pink_noise", "music")

CHATTER = [  # out-of-grammar talk around a table: must never become a move
    "could you pass me the bowl of chips please",
    "I think it is going to rain again tomorrow",
    "where did I leave my phone this time",
    "this song always reminds me of my summer holidays",
    "hang on a second my dog is barking at the door",
    "did anybody want another slice of pizza",
    "my sister is coming over later this evening",
    "I can never remember the rules of this one",
    "the traffic on the way here was terrible",
    "who finished the last of the orange juice",
    "we should order some food before it gets late",
    "I really like the colour of your new jumper",
    "that was a brilliant film we watched last week",
    "turn the heating down it is far too warm in here",
    "honestly I have no idea what is going on",
    "let me just check my messages quickly",
]
ESPEAK_VOICES = ("en-us", "en-gb", "en-us+m3", "en-us+f2", "en-gb-x-rp+f4", "en-029")
ESPEAK_WPM = 160  # espeak-ng's words a minute for every voice


class FixtureError(PartyhostError, RuntimeError):
    """A fixture set that cannot be built as asked (said, not a traceback)."""


class Voices:
    """Speech synthesis for fixtures: Piper (the host's voice) and espeak-ng voices."""

    def __init__(self, noise_scale: float | None = None):
        """noise_scale 0: Piper says each text the same way on every run (see PiperTTS)."""
        from voice.speaking.tts import PiperTTS

        self.piper = PiperTTS(warm_up=False, noise_scale=noise_scale)
        self.espeak = shutil.which("espeak-ng")

    def names(self, speeds: Iterable[float], espeak: bool) -> list[str]:
        """The voices to speak with: Piper at each speed, and espeak-ng's if asked for."""
        return self.names_given(
            [f"piper-{speed:g}" for speed in speeds] + [f"espeak-{v}" for v in ESPEAK_VOICES if espeak]
        )

    def names_given(self, names: Iterable[str]) -> list[str]:
        """`names` as they are; an espeak-ng voice without espeak-ng installed is an
        error, not a smaller set (held-apart voices would go missing unnoticed)."""
        names = list(names)
        if not self.espeak and any(name.startswith("espeak-") for name in names):
            raise FixtureError(
                "espeak-ng is not installed, so its voices cannot speak: install it "
                "(scripts/ci-system-deps) or choose only Piper voices."
            )
        return names

    def speak(self, voice: str, text: str, rate: float = 1.0, fresh: bool = False) -> np.ndarray:
        """16 kHz float32 speech of `text`; `rate` below 1 says it more slowly than the
        voice's own speed (a line said again); `fresh`: synthesised anew, not Piper's
        cached audio of the same words (Piper's own variation makes each saying differ)."""
        if voice.startswith("piper-"):
            if fresh:
                self.piper.clear_cache()
            self.piper.rate = float(voice.split("-", 1)[1]) * rate
            audio = np.concatenate(list(self.piper.synthesize(text)))
            return soxr.resample(audio, self.piper.sample_rate, SAMPLE_RATE).astype(np.float32)
        with tempfile.NamedTemporaryFile(suffix=".wav") as out:
            name = voice.split("-", 1)[1]
            subprocess.run(
                [self.espeak or "espeak-ng", "-v", name, "-s", str(round(ESPEAK_WPM * rate)), "-w", out.name, text],
                check=True,
                capture_output=True,
            )
            audio, rate = soundfile.read(out.name, dtype="float32")
        return soxr.resample(audio, rate, SAMPLE_RATE).astype(np.float32)


def pitch_shifted(audio: np.ndarray, cents: float) -> np.ndarray:
    """`audio` moved `cents` in pitch, its speed unchanged (sox's `pitch`)."""
    if not cents:
        return audio
    with tempfile.TemporaryDirectory() as folder:
        plain, shifted = f"{folder}/plain.wav", f"{folder}/shifted.wav"
        soundfile.write(plain, audio, SAMPLE_RATE)
        subprocess.run(["sox", plain, shifted, "pitch", f"{cents:g}"], check=True, capture_output=True)
        return soundfile.read(shifted, dtype="float32")[0]


def load_noise(name: str) -> np.ndarray:
    audio, rate = soundfile.read(SHARED_AUDIO / "noise" / f"{name}.wav", dtype="float32")
    if audio.ndim > 1:
        audio = audio.mean(axis=1)
    return soxr.resample(audio, rate, SAMPLE_RATE).astype(np.float32) if rate != SAMPLE_RATE else audio


def mix_at_snr(speech: np.ndarray, noise: np.ndarray, snr_db: float, rng: random.Random) -> np.ndarray:
    """speech + a random stretch of noise, SNR over the speech's loud samples
    (voice/speaking/mixing.py), brought under full scale when it would clip."""
    mixed = mix(speech, noise, snr_db, start=random_start(noise, len(speech), rng), measure=LOUD_SAMPLES)
    peak = np.abs(mixed).max()
    return mixed / peak * 0.9 if peak > 0.99 else mixed
