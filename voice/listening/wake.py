"""The wake word: a spoken name that addresses the host at any moment ("Okay Nabu, score").

The detector is microWakeWord, from the `pymicro-wakeword` wheel (the Open Home
Foundation's; Home Assistant Voice PE and ESPHome devices run the same models).
Its four models ship inside the wheel, with a TensorFlow Lite runtime for x86-64
and aarch64, and it reads 16 kHz frames 10 ms at a time for well under 1 % of one
core. Chosen over `pyopen-wakeword`, whose models also ship but cost about fifty
times the CPU (docs/smart-speaker.md, "Wake word").

The shipped models were trained on Piper-made speech and miss many voices unlike it,
higher voices above all (espeak-ng's women's voices woke the model in under half of
the clips). So the detector takes a second look at the same frames lowered by three
semitones (and so 19 % slower: resampled, soxr's stream), with a second copy of the
model, and fires when either look does: about half a per cent of a core more. The
figures, held-apart voices and false wakes are in docs/lab/smart-speaker.md, "Wake word".

It runs on the frames the ears already read (after the front end's gain), so it
needs no second microphone stream: `WakeWatch` passes every frame on unchanged and
remembers when the word was heard, on the session clock. The ears then take an
utterance in which it fired as said to the host, and read only what follows the
word (`command_start`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from host.errors import PartyhostError
from voice.audio_types import FRAME_MS, SAMPLE_RATE, Frame, pcm16
from voice.wake_words import OFF, WakeWord, shipped_wake_words

__all__ = ["OFF", "WakeWord", "shipped_wake_words", "WakeDetector", "WakeWatch", "WakeWordError", "command_start"]
REFRACTORY_S = 1.0
"""The detector stays above its line for several strides while one word is said:
fires this close together are one wake."""
CUT_SEARCH_S = 0.3
"""The word ends a little before the detector fires (measured 0.1-0.2 s later):
the command starts at the quietest 10 ms in this stretch before the fire."""
STEP = SAMPLE_RATE // 100  # the detector's 10 ms step
LOWERED_SEMITONES = 3.0
"""The second look's shift, chosen on tuning voices only (nine of lab/partyhost_lab/wake.py's
TUNING_VOICES, 90 clips; the model alone 63 %): at 2 semitones 79 %, at 3 84 %, at 4 70 %,
and a third look at 2 added nothing."""


class WakeWordError(PartyhostError):
    """The wake word engine or model cannot be loaded; the message says what to do."""


class _Look:
    """One copy of the model over one version of the audio: as it comes, or lowered."""

    def __init__(self, name: str, semitones: float):
        from pymicro_wakeword import MicroWakeWord, MicroWakeWordFeatures, Model

        self.model = MicroWakeWord.from_builtin(Model(name))
        self.features = MicroWakeWordFeatures()
        self.lowering = None
        if semitones:
            import soxr

            # Played back at 16 kHz, audio resampled to a higher rate sounds lower and slower.
            self.lowering = soxr.ResampleStream(SAMPLE_RATE, SAMPLE_RATE * 2 ** (semitones / 12), 1, dtype="float32")

    def fired_after(self, samples: np.ndarray, cutoff: float) -> float | None:
        """Seconds into this frame at which the model's probability passed `cutoff`, or None.
        A lowered look's steps do not line up with the frame's: it answers the frame's end."""
        if self.lowering is not None:
            samples = self.lowering.resample_chunk(samples)
        pcm = pcm16(samples)
        fired = None
        for step, features in enumerate(self.features.process_streaming(pcm)):
            probability = self.model.process_streaming_prob(features)
            if probability is not None and probability > cutoff and fired is None:
                fired = (
                    FRAME_MS / 1000
                    if self.lowering is not None
                    else min(FRAME_MS / 1000, (step + 1) * STEP / SAMPLE_RATE)
                )
        return fired


class WakeDetector:
    """One wake word's detector: float frames in, the time it fires out."""

    def __init__(self, name: str, lowered_semitones: float = LOWERED_SEMITONES):
        """`lowered_semitones` 0: the model's one look alone (as shipped, for comparison)."""
        word = shipped_wake_words().get(name)
        if word is None:
            known = ", ".join(shipped_wake_words()) or "none: install pymicro-wakeword"
            raise WakeWordError(f"wake word {name!r} is not one the engine ships ({known}), or {OFF!r}")
        try:
            self._looks = [_Look(name, 0.0)] + ([_Look(name, lowered_semitones)] if lowered_semitones else [])
        except (ImportError, OSError, ValueError) as error:
            raise WakeWordError(
                f"the wake word engine could not start ({error}); "
                'reinstall partyhost\'s dependencies, or set wake_word = "off"'
            ) from error
        self.word = word
        self.cutoff = float(self._looks[0].model.probability_cutoff)
        self._last_fire: float | None = None

    def push(self, frame: Frame) -> float | None:
        """The time the word was heard if it fires in this frame (end of its 10 ms step),
        else None."""
        after = [a for a in (look.fired_after(frame.samples, self.cutoff) for look in self._looks) if a is not None]
        if not after:
            return None
        fired = frame.t + min(after)
        if self._last_fire is not None and fired - self._last_fire < REFRACTORY_S:
            self._last_fire = fired
            return None
        self._last_fire = fired
        return fired

    def close(self) -> None:
        for look in self._looks:
            look.model.close()


class WakeWatch:
    """Frames pass through unchanged; the times the wake word was heard are kept until
    the ears take them (`take`)."""

    def __init__(self, detector: WakeDetector, keep_s: float = 30.0):
        self.detector = detector
        self.keep_s = keep_s
        self._fires: list[float] = []

    @property
    def word(self) -> WakeWord:
        return self.detector.word

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        for frame in frames:
            self.see(frame)
            yield frame

    def see(self, frame: Frame) -> bool:
        """Feed one frame; True if the word was heard in it."""
        fired = self.detector.push(frame)
        if fired is None:
            return False
        self._fires = [t for t in self._fires if t > fired - self.keep_s] + [fired]
        return True

    def take(self, start: float, end: float) -> float | None:
        """The first wake between start and end (session times), forgetting it and any before."""
        inside = [t for t in self._fires if start <= t <= end]
        if not inside:
            return None
        self._fires = [t for t in self._fires if t > inside[0]]
        return inside[0]

    def peek(self, start: float, end: float) -> bool:
        """Whether the word was heard between start and end, leaving it to `take`."""
        return any(start <= t <= end for t in self._fires)

    def forget(self) -> None:
        self._fires.clear()


def command_start(audio: np.ndarray, audio_start: float, fired: float) -> int:
    """Where the words after the wake word begin in `audio` (which starts at session time
    `audio_start`): the quietest 10 ms step in the CUT_SEARCH_S before the fire, so a
    pause after the word is cut in, and a word run straight on loses nothing of its own."""
    end = int(round((fired - audio_start) * SAMPLE_RATE))
    end = max(0, min(len(audio), end))
    begin = max(0, end - int(CUT_SEARCH_S * SAMPLE_RATE))
    if end - begin < STEP:
        return end
    steps = audio[begin : begin + (end - begin) // STEP * STEP].reshape(-1, STEP)
    quietest = int(np.argmin(np.mean(steps.astype(np.float64) ** 2, axis=1)))
    return begin + quietest * STEP
