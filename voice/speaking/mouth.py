"""The host's spoken voice: host.session's Mouth over Piper, sound cues and an AudioSink.

Everything is placed on the session clock, one sound after another, and
`busy_until` says when the host falls silent: the ears drop what the microphone
caught before then, so the host never acts on its own voice (half-duplex).
While one sentence plays, the next is synthesised in a worker thread, so long
texts flow without gaps even when the sink blocks until a sound has played.
Secrets (`private`) never reach the speaker.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TextIO

import numpy as np

from voice.audio_types import AudioSink
from voice.speaking.cues import cue

RATE_STEPS = (0.7, 0.85, 1.0, 1.2, 1.4)
VOLUME_STEPS = (0.25, 0.5, 0.75, 1.0)
PAUSE_S = 0.1
"""Silence between two sounds that follow each other directly (a cue, then a prompt)."""


class Speaker(Protocol):
    """What the mouth needs from a TTS engine (voice.speaking.tts.PiperTTS)."""

    sample_rate: int
    rate: float
    volume: float

    def synthesize(self, text: str) -> Iterator[np.ndarray]: ...


def _nearest(steps: tuple[float, ...], value: float) -> int:
    return min(range(len(steps)), key=lambda i: abs(steps[i] - value))


class AudioMouth:
    """host.announcer.Mouth that speaks through an AudioSink at the session clock.

    `rate` and `volume` (from the config) snap to the nearest of RATE_STEPS and
    VOLUME_STEPS, the steps "slower"/"faster"/"louder"/"quieter" move along. Cues
    follow the volume too. `close()` stops the synthesis worker.
    """

    def __init__(
        self,
        tts: Speaker,
        sink: AudioSink,
        clock: Callable[[], float],
        *,
        rate: float = 1.0,
        volume: float = 0.75,
        on_private: Callable[[str, str], None] | None = None,
        show_private: bool = True,
        echo: bool = False,
        out: TextIO | None = None,
        pause_s: float = PAUSE_S,
    ):
        self.tts, self.sink, self.clock = tts, sink, clock
        self.on_private, self.show_private = on_private, show_private
        self.echo, self.out, self.pause_s = echo, out, pause_s
        self.rate_step = _nearest(RATE_STEPS, rate)
        self.volume_step = _nearest(VOLUME_STEPS, volume)
        self._apply_settings()
        self._quiet_since = clock()
        self._last_end: float | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tts")

    # ---- the Mouth protocol ---------------------------------------------

    def say(self, text: str) -> None:
        if self.echo:
            self._print(f"HOST: {text}")
        at, lead = self._next_slot()
        for audio in self._one_ahead(self.tts.synthesize(text)):
            at = self._play(audio, self.tts.sample_rate, at, lead)
            lead = 0.0

    def sound(self, name: str, gain: float = 1.0) -> None:
        """Play cue `name`; `gain` below 1 for quiet ones (a turn's last-seconds ticks)."""
        if self.echo:
            self._print(f"[sound: {name}]")
        audio = cue(name, self.tts.sample_rate) * np.float32(self.tts.volume * gain)
        self._play(audio, self.tts.sample_rate, *self._next_slot())

    def private(self, player: str, text: str) -> None:
        """A secret for one player: to the callback (the phone page), else the terminal if allowed."""
        if self.on_private is not None:
            self.on_private(player, text)
        elif self.show_private:
            self._print(f"[to {player} only] {text}")

    def adjust(self, change: str) -> str:
        """Apply "slower" | "faster" | "louder" | "quieter"; return what to say about it."""
        if change in ("slower", "faster"):
            step = self.rate_step + (1 if change == "faster" else -1)
            if not 0 <= step < len(RATE_STEPS):
                return f"I'm already speaking as {'fast' if change == 'faster' else 'slowly'} as I can."
            self.rate_step = step
            self._apply_settings()
            if RATE_STEPS[step] == 1.0:
                return "Back to normal speed."
            return f"Speaking speed is now {RATE_STEPS[step]:g} times normal."
        if change in ("louder", "quieter"):
            step = self.volume_step + (1 if change == "louder" else -1)
            if not 0 <= step < len(VOLUME_STEPS):
                return f"That's already as {'loud' if change == 'louder' else 'quiet'} as I go."
            self.volume_step = step
            self._apply_settings()
            return f"Volume is now {int(VOLUME_STEPS[step] * 100)} percent."
        raise ValueError(f"unknown adjustment {change!r}: slower, faster, louder or quieter")

    # ---- timing ---------------------------------------------------------

    @property
    def busy_until(self) -> float:
        """Session time at which the host's last sound ends (the ears ignore audio before it)."""
        return self._quiet_since if self._last_end is None else self._last_end

    def _next_slot(self) -> tuple[float, float]:
        """Where the next sound starts, and how much silence leads it.

        Right after another sound it waits for it to end, then pauses briefly; the
        pause is silence inside the audio, so it holds for sinks that play at once.
        """
        start = max(self.clock(), self.busy_until)
        if self._last_end is None:
            return start, 0.0
        return start, max(0.0, min(self.pause_s, self._last_end + self.pause_s - start))

    def _play(self, audio: np.ndarray, rate: int, at: float, lead: float) -> float:
        if lead > 0:
            audio = np.concatenate([np.zeros(int(round(lead * rate)), np.float32), audio])
        self._last_end = self.sink.play(audio, rate, at)
        return self._last_end

    def _one_ahead(self, pieces: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        """The pieces in order, each next one computed in the worker while this one plays."""
        pending = self._worker.submit(next, pieces, None)  # None: no more (a piece is never None)
        while (piece := pending.result()) is not None:
            pending = self._worker.submit(next, pieces, None)
            yield piece

    # ---- settings and text ----------------------------------------------

    def _apply_settings(self) -> None:
        self.tts.rate = RATE_STEPS[self.rate_step]
        self.tts.volume = VOLUME_STEPS[self.volume_step]

    def _print(self, line: str) -> None:
        out = self.out or sys.stdout  # looked up now: the terminal may have been replaced since
        out.write(line + "\n")
        out.flush()

    def close(self) -> None:
        """Stop the synthesis worker (after what it is doing)."""
        self._worker.shutdown(wait=True)
