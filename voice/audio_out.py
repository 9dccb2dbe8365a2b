"""Sound out: a speaker through PortAudio, or a WAV file holding the host's whole side.

Both take float audio at any rate and a session time to start at, and return when
the audio ends on the session clock, so the loop can skip the microphone audio
captured meanwhile (the host never hears itself).
"""
from __future__ import annotations

import logging
import time
import wave
from pathlib import Path
from typing import Callable

import numpy as np
import soxr

from .audio_in import MonotonicClock
from .devices import AudioDeviceError, DeviceProblem, find_device, sounddevice_module

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
    """Plays through a PortAudio output device, blocking until the sound has been heard.

    Audio goes out at its own rate when the device accepts it, else resampled to the
    device's default rate. A device that fails while playing is reported (not
    fatal: the game goes on, and the next play opens the device afresh).
    """

    def __init__(self, device: int | str | None = None, *,
                 clock: Callable[[], float] | None = None,
                 on_problem: Callable[[DeviceProblem], None] = _log_problem):
        self.device = device
        self.clock = clock or MonotonicClock()
        self.on_problem = on_problem
        self.device_name = find_device(device, "output").name   # a clear error now, not mid-game

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        samples = as_float32(audio)
        wait = at - self.clock()
        if wait > 0:
            time.sleep(wait)
        started = self.clock()
        try:
            self._play_blocking(samples, rate)
        except AudioDeviceError as error:
            self.on_problem(DeviceProblem("lost", f"The speaker {self.device_name!r} failed: {error}"))
            return started + len(samples) / rate
        return self.clock()

    def _play_blocking(self, samples: np.ndarray, rate: int) -> None:
        sd = sounddevice_module()
        dev = find_device(self.device, "output")
        out_rate = rate
        try:
            sd.check_output_settings(device=dev.index, samplerate=rate, channels=1, dtype="float32")
        except sd.PortAudioError:
            out_rate = dev.default_rate
        data = resampled(samples, rate, out_rate)
        try:
            # stop() on leaving the block waits until every queued buffer has been played
            with sd.OutputStream(device=dev.index, samplerate=out_rate, channels=1,
                                 dtype="float32") as stream:
                stream.write(np.ascontiguousarray(data).reshape(-1, 1))
        except sd.PortAudioError as error:
            raise AudioDeviceError(f"cannot play on {dev.name!r}: {error}") from error


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

    def __enter__(self) -> "WavSink":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pad_to(self, sample: int) -> None:
        chunk = self.rate   # a second at a time: long gaps need no big buffers
        while self._written < sample:
            n = min(chunk, sample - self._written)
            self._wav.writeframes(bytes(2 * n))
            self._written += n
