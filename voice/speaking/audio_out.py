"""Sound out: a speaker through PortAudio, or a WAV file holding the host's whole side.

Both take float audio at any rate and a session time to start at, and return when
the audio ends on the session clock, so the loop can skip the microphone audio
captured meanwhile (the host never hears itself).
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import wave
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import soxr

from voice.devices import AudioDeviceError, DeviceProblem, close_stream, find_device, sounddevice_module
from voice.listening.audio_in import MonotonicClock

log = logging.getLogger(__name__)


def as_float32(audio: np.ndarray) -> np.ndarray:
    """Mono float32 in [-1, 1] from float or integer PCM samples."""
    audio = np.asarray(audio)
    if audio.ndim == 2:
        audio = audio.mean(axis=1)
    if audio.dtype.kind in "iu":
        info = np.iinfo(audio.dtype)
        scale = 2.0 ** (info.bits - 1)
        offset = scale if audio.dtype.kind == "u" else 0.0
        return ((audio.astype(np.float64) - offset) / scale).astype(np.float32)
    return audio.astype(np.float32, copy=False)


def resampled(audio: np.ndarray, rate: int, to_rate: int) -> np.ndarray:
    return audio if rate == to_rate or not len(audio) else soxr.resample(audio, rate, to_rate, quality="HQ")


def _log_problem(problem: DeviceProblem) -> None:
    log.warning("%s", problem.message)


class SpeakerSink:
    """Plays through a PortAudio output device, one stream open for the whole game.

    A stream opened and drained for every sound leaves silence after each one (about
    2 s on PulseAudio, where draining waits for the server), so here one output
    stream is opened at the first sound and kept: its callback plays what is queued
    and silence in between, and a sound queued while another plays follows it without
    a gap. play() returns a moment (AHEAD_S) before its sound ends, giving the session
    time at which it will have been heard, so the next sound is queued in time and the
    ears know when the host falls silent. Audio goes out at the first sound's rate
    when the device accepts it (the voice's), else at the device's default rate.
    A device that fails is reported (not fatal: the game goes on, and the next sound
    opens the device afresh). close() waits for what is queued, then closes it.
    """

    AHEAD_S = 0.5
    """play() returns this long before its sound ends: the next one is queued by then."""
    LATENCY_S = 0.2
    """The device's buffer: enough that a busy machine never lets it run dry mid-sentence."""

    def __init__(
        self,
        device: int | str | None = None,
        *,
        clock: Callable[[], float] | None = None,
        on_problem: Callable[[DeviceProblem], None] = _log_problem,
    ):
        self.device = device
        self.clock = clock or MonotonicClock()
        self.on_problem = on_problem
        self.device_name = find_device(device, "output").name  # a clear error now, not mid-game
        self._stream = None
        self._rate = 0
        self._queue: deque[np.ndarray] = deque()
        self._lock = threading.Lock()
        self._heard_until = float("-inf")
        """Session time at which everything queued will have been heard."""

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        samples = as_float32(audio)
        try:
            stream = self._open(rate)
        except AudioDeviceError as error:
            self.on_problem(DeviceProblem("lost", f"The speaker {self.device_name!r} failed: {error}"))
            return max(at, self.clock()) + len(samples) / rate
        data = resampled(samples, rate, self._rate)
        soonest = max(self._heard_until, self.clock() + stream.latency)
        if at - soonest > 1.0:  # far ahead: wait rather than queue seconds of silence
            time.sleep(at - soonest - 0.5)
            soonest = max(self._heard_until, self.clock() + stream.latency)
        lead = np.zeros(max(0, int(round((at - soonest) * self._rate))), np.float32)
        with self._lock:
            self._queue.extend((lead, np.ascontiguousarray(data)))
        self._heard_until = soonest + (len(lead) + len(data)) / self._rate
        wait = self._heard_until - self.AHEAD_S - self.clock()
        if wait > 0:
            time.sleep(wait)
        return self._heard_until

    def close(self) -> None:
        """Let what is queued be heard, then close the device."""
        wait = self._heard_until - self.clock()
        if self._stream is not None and wait > 0:
            time.sleep(wait)
        self._drop()

    def _open(self, rate: int) -> Any:  # a sounddevice.OutputStream
        """The open stream, opened now if it is not (or the device stopped it)."""
        if self._stream is not None and self._stream.active:
            return self._stream
        self._drop()
        sd = sounddevice_module()
        dev = find_device(self.device, "output")
        self._rate = rate
        try:
            sd.check_output_settings(device=dev.index, samplerate=rate, channels=1, dtype="float32")
        except sd.PortAudioError:
            self._rate = int(dev.default_rate)
        try:
            stream = sd.OutputStream(
                device=dev.index,
                samplerate=self._rate,
                channels=1,
                dtype="float32",
                latency=self.LATENCY_S,
                callback=self._fill,
            )
            stream.start()
        except sd.PortAudioError as error:
            raise AudioDeviceError(f"cannot play on {dev.name!r}: {error}") from error
        self._stream, self._heard_until = stream, float("-inf")
        atexit.register(self._drop)  # a stream left open must not play into a closing interpreter
        return stream

    def _fill(self, out: np.ndarray, frames: int, time_info: object, status: object) -> None:
        """PortAudio's thread: the next queued samples, silence where there are none."""
        done = 0
        with self._lock:
            while done < frames and self._queue:
                piece = self._queue[0]
                take = min(frames - done, len(piece))
                out[done : done + take, 0] = piece[:take]
                done += take
                if take == len(piece):
                    self._queue.popleft()
                else:
                    self._queue[0] = piece[take:]
        out[done:] = 0

    def _drop(self) -> None:
        atexit.unregister(self._drop)
        stream, self._stream = self._stream, None
        with self._lock:
            self._queue.clear()
        close_stream(stream)


class WavSink:
    """Everything the host says and plays, on the session timeline, as a 16-bit mono WAV.

    Audio starts at `at` (silence fills the gap before it), or straight after the
    previous sound if that is still playing, as on a real speaker. The header is
    rewritten after every write, so the file is valid even if the process dies.
    """

    def __init__(self, path: str | Path, rate: int = 22050):
        self.path = Path(path)
        self.rate = rate
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._wav = wave.open(str(self.path), "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(rate)
        self._written = 0

    @property
    def end(self) -> float:
        """Session time at which everything written so far has finished playing."""
        return self._written / self.rate

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        samples = resampled(as_float32(audio), rate, self.rate)
        start = max(round(at * self.rate), self._written)
        self._pad_to(start)
        pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2")
        self._wav.writeframes(pcm.tobytes())
        self._written += len(pcm)
        return self.end

    def close(self) -> None:
        self._wav.close()

    def __enter__(self) -> WavSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pad_to(self, sample: int) -> None:
        chunk = self.rate  # a second at a time: long gaps need no big buffers
        while self._written < sample:
            n = min(chunk, sample - self._written)
            self._wav.writeframes(bytes(2 * n))
            self._written += n
