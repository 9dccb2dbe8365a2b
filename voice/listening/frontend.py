"""The microphone's front end: automatic gain (and, if asked, noise suppression) before
the endpointer, and the input level of what was heard.

A soft voice or a player at the far end of the table reaches a laptop microphone
30-45 dB below full scale; the endpointer and the recogniser were tuned on speech at
ordinary level and missed such voices. Two stages lift them: a gain that follows
the room (RoomGain: up to 30 dB, so a quiet room and the voices in it come up
together), then WebRTC's audio processing (the `webrtc-noise-gain` package, as Home
Assistant's voice satellites use it: a high-pass, about 7 dB more gain, and noise
suppression when asked). Chosen by measurement among four PyPI front ends, whose own
gain alone could not span the range (docs/lab/recognition.md, "Hearing every player").

The front end also remembers the level of each frame as it came in (before any
gain), so the ears can log how loud each utterance really was (`input_level`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from voice.audio_types import FRAME_MS, FRAME_SAMPLES, SAMPLE_RATE, Frame, pcm16

CHUNK = SAMPLE_RATE // 100  # the processors take 10 ms at a time
LEVEL_HISTORY_S = 30.0  # longer than any utterance (the endpointer cuts at 6 s)
SILENT_DBFS = -120.0


@dataclass(frozen=True)
class FrontEndConfig:
    """`agc`: raise quiet speech to a steady level; `noise_suppression`: WebRTC's
    suppression level 0 (off) .. 4; `target_dbfs`: the level WebRTC's gain aims for
    (below full scale, 0..31); `floor_target_dbfs`, `max_gain_db`: the room-following
    gain (RoomGain) lifts a quiet room's background to this level, by at most this;
    `limit_dbfs`: its ceiling for peaks, below full scale by a bit more than WebRTC's
    own gain adds (about 7 dB), so a loud voice leaves the front end unclipped
    (measured: at -1 instead, full-scale voices came out clipped and were read worse)."""

    agc: bool = True
    noise_suppression: int = 0
    webrtc_agc: bool = True
    target_dbfs: int = 3
    floor_target_dbfs: float = -58.0
    max_gain_db: float = 30.0
    limit_dbfs: float = -8.0

    @property
    def uses_webrtc(self) -> bool:
        return (self.agc and self.webrtc_agc) or self.noise_suppression > 0


@dataclass(frozen=True)
class InputLevel:
    """How loud an utterance arrived, before the gain: peak and RMS in dBFS."""

    peak_dbfs: float
    rms_dbfs: float


def dbfs(value: float) -> float:
    return 20.0 * math.log10(value) if value > 0 else SILENT_DBFS


class RoomGain:
    """Gain that lifts a quiet room (and so a quiet voice in it) into the range the
    endpointer and the recogniser were tuned for.

    WebRTC's digital gain adds a fixed 7 dB or so (measured: a -45 dBFS word came out at
    -38), far from the 40 dB between a soft far voice and a near loud one. This stage
    follows the room's background level, not the speech: the gain is what brings the
    background to `floor_target_dbfs` (never below 0 dB, never above `max_gain_db`),
    rises at most `slew_db_s` and only while nobody speaks. The endpointer compares
    speech with the same background, so a rising gain raises both together and never
    looks like speech starting. A frame that would clip takes the gain down at once,
    and it stays down until the room is quiet again (a loud voice needs no help); a
    rise is ramped across the frame, so it makes no click.
    """

    SPEECH_OVER_FLOOR_DB = 6.0  # frames this far above the background hold the gain

    def __init__(
        self,
        floor_target_dbfs: float,
        max_gain_db: float,
        limit_dbfs: float = -1.0,
        slew_db_s: float = 3.0,
        rise_s: float = 2.0,
        fall_s: float = 0.3,
    ):
        self.target, self.max_gain, self.limit_db = floor_target_dbfs, max_gain_db, limit_dbfs
        self.step = slew_db_s * FRAME_MS / 1000
        self.rise = 1.0 - math.exp(-FRAME_MS / 1000 / rise_s)
        self.fall = 1.0 - math.exp(-FRAME_MS / 1000 / fall_s)
        self.floor: float | None = None
        self.gain_db: float | None = None
        self._last_gain: float | None = None

    def __call__(self, samples: np.ndarray) -> np.ndarray:
        level = dbfs(float(np.sqrt(np.mean(samples.astype(np.float64) ** 2))))
        level = max(level, -100.0)  # digital silence
        if self.floor is None:
            self.floor = level
        quiet = level < self.floor + self.SPEECH_OVER_FLOOR_DB
        self.floor += (level - self.floor) * (self.fall if level < self.floor else self.rise)
        wanted = min(self.max_gain, max(0.0, self.target - self.floor))
        if self.gain_db is None:
            self.gain_db = wanted
        elif quiet:
            self.gain_db += max(-self.step, min(self.step, wanted - self.gain_db))
        peak_db = dbfs(float(np.max(np.abs(samples), initial=0.0)))
        self.gain_db = min(self.gain_db, self.limit_db - peak_db)  # a loud voice: down at once
        before, self._last_gain = self._last_gain, 10 ** (self.gain_db / 20)
        if before is None or self._last_gain <= before:
            return np.clip(samples * self._last_gain, -1.0, 1.0).astype(np.float32)  # down: at once
        ramp = np.linspace(before, self._last_gain, len(samples), dtype=np.float32)  # up: no click
        return np.clip(samples * ramp, -1.0, 1.0).astype(np.float32)


class FrontEnd:
    """Frames in, processed frames out, same times; remembers each frame's input level."""

    def __init__(self, config: FrontEndConfig | None = None):
        self.config = c = config or FrontEndConfig()
        self._processor = None
        if c.uses_webrtc:
            from webrtc_noise_gain import AudioProcessor

            self._processor = AudioProcessor(c.target_dbfs if c.agc and c.webrtc_agc else 0, c.noise_suppression)
        self._room_gain = RoomGain(c.floor_target_dbfs, c.max_gain_db, c.limit_dbfs) if c.agc else None
        self._levels: deque[tuple[float, float, float]] = deque(  # (t, peak, mean square)
            maxlen=int(LEVEL_HISTORY_S * 1000 / FRAME_MS)
        )

    def process(self, frame: Frame) -> Frame:
        samples = frame.samples
        self._levels.append(
            (frame.t, float(np.max(np.abs(samples), initial=0.0)), float(np.mean(samples.astype(np.float64) ** 2)))
        )
        if self._room_gain is not None:
            samples = self._room_gain(samples)
        if self._processor is None:
            return frame if samples is frame.samples else Frame(samples, frame.t)
        pcm = pcm16(samples)
        out = b"".join(
            self._processor.Process10ms(pcm[i : i + 2 * CHUNK]).audio for i in range(0, 2 * FRAME_SAMPLES, 2 * CHUNK)
        )
        return Frame(np.frombuffer(out, dtype="<i2").astype(np.float32) / 32768.0, frame.t)

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        for frame in frames:
            yield self.process(frame)

    def input_level(self, start: float, end: float) -> InputLevel | None:
        """The level that came in between start and end (session times), if still remembered."""
        inside = [(peak, square) for t, peak, square in self._levels if start - 1e-6 <= t < end]
        if not inside:
            return None
        peak = max(p for p, _ in inside)
        rms = math.sqrt(sum(s for _, s in inside) / len(inside))
        return InputLevel(round(dbfs(peak), 1), round(dbfs(rms), 1))
