"""Sound in: a WAV file standing in for a microphone, and a real microphone.

Both give 16 kHz mono float32 frames of 30 ms stamped with session-clock times
(audio_types). A file's clock is its position, so a run from a file is
deterministic and as fast as the CPU; a microphone's clock is monotonic real time.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
import soxr

from host.errors import PartyhostError, command
from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame
from voice.devices import AudioDeviceError, DeviceProblem, close_stream, find_device, rescan, sounddevice_module

log = logging.getLogger(__name__)

FRAME_SECONDS = FRAME_SAMPLES / SAMPLE_RATE
RESYNC_S = 0.2
"""Block times follow the sample count unless it strays this far from the clock."""
OVERFLOW_REPORT_S = 10.0
"""Lost microphone audio is reported at most this often."""
WAV_FORMATS = {"WAV", "WAVEX", "RF64"}


class AudioFileError(PartyhostError, ValueError):
    """A WAV input that is missing, unreadable or not a WAV; the message names the file."""


def frame_index(t: float) -> int:
    """The first frame starting at or after session time t."""
    return max(0, math.ceil(t / FRAME_SECONDS - 1e-6))


def to_mono(block: np.ndarray) -> np.ndarray:
    """Average the channels (a 2-D block is [frames, channels])."""
    return block if block.ndim == 1 else block.mean(axis=1, dtype=np.float32)


class _Framer:
    """Cuts a stream of 16 kHz samples into FRAME_SAMPLES pieces."""

    def __init__(self) -> None:
        self.pending = np.zeros(0, dtype=np.float32)

    def push(self, samples: np.ndarray) -> list[np.ndarray]:
        data = np.concatenate([self.pending, samples.astype(np.float32, copy=False)])
        whole = len(data) // FRAME_SAMPLES * FRAME_SAMPLES
        self.pending = data[whole:]
        return [data[i : i + FRAME_SAMPLES] for i in range(0, whole, FRAME_SAMPLES)]

    def flush(self) -> list[np.ndarray]:
        """The last partial frame padded with zeros, if any."""
        if not len(self.pending):
            return []
        last = np.zeros(FRAME_SAMPLES, dtype=np.float32)
        last[: len(self.pending)] = self.pending
        self.pending = np.zeros(0, dtype=np.float32)
        return [last]


class WavSource:
    """A WAV file as the microphone: any PCM/float format, rate and channel count.

    Frame k starts at k x 30 ms of the file. After the file, `tail_s` of silence
    follows so that a final utterance can be endpointed, then the frames stop.
    Calling frames() again continues where the previous iterator stopped.
    """

    def __init__(self, path: str | Path, tail_s: float = 1.5, block_s: float = 1.0):
        self.path = Path(path)
        self._file = _open_wav(self.path)
        self.rate = self._file.samplerate
        self.channels = self._file.channels
        self.duration = self._file.frames / self.rate
        self._block = max(1, int(block_s * self.rate))
        self._resampler = (
            None
            if self.rate == SAMPLE_RATE
            else soxr.ResampleStream(self.rate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
        )
        self._framer = _Framer()
        self._ready: deque[np.ndarray] = deque()  # decoded frames not yet handed out
        self._decoded = 0  # index of the frame at the head of _ready
        self._next = 0  # index of the next frame to hand out
        self._tail_left = math.ceil(tail_s / FRAME_SECONDS)
        self._file_done = False

    def frames(self) -> Iterator[Frame]:
        while True:
            samples = self._take(self._next)
            if samples is None:
                return
            frame = Frame(samples, self._next * FRAME_SECONDS)
            self._next += 1
            yield frame

    def now(self) -> float:
        return self._next * FRAME_SECONDS

    def skip_until(self, t: float) -> None:
        self._next = max(self._next, frame_index(t))

    def next_frame_t(self) -> float:
        return self.now()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> WavSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take(self, index: int) -> np.ndarray | None:
        """Frame `index` (decoding and dropping skipped frames on the way); None at the end."""
        while True:
            while self._ready and self._decoded < index:
                self._ready.popleft()
                self._decoded += 1
            if self._ready:
                self._decoded += 1
                return self._ready.popleft()
            more = self._decode_more()
            if more is None:
                return None
            self._ready.extend(more)

    def _decode_more(self) -> list[np.ndarray] | None:
        if not self._file_done:
            block = self._file.read(self._block, dtype="float32", always_2d=True)
            last = len(block) < self._block
            mono = to_mono(block)
            if self._resampler is not None:
                mono = self._resampler.resample_chunk(mono, last=last)
            frames = self._framer.push(mono)
            if last:
                self._file_done = True
                frames += self._framer.flush()
            return frames
        if self._tail_left > 0:
            n = min(self._tail_left, 50)
            self._tail_left -= n
            return [np.zeros(FRAME_SAMPLES, dtype=np.float32) for _ in range(n)]
        return None


def read_wav_16k(path: str | Path) -> np.ndarray:
    """A whole WAV file as 16 kHz mono float32 (for fixtures, benchmarks and tests)."""
    with soundfile.SoundFile(_checked(path)) as f:
        audio = to_mono(f.read(dtype="float32", always_2d=True))
        rate = f.samplerate
    return audio if rate == SAMPLE_RATE else soxr.resample(audio, rate, SAMPLE_RATE, quality="HQ")


def _checked(path: str | Path) -> Path:
    path = Path(path)
    if not path.is_file():
        raise AudioFileError(f"Input audio file {str(path)!r} does not exist (or is not a file).")
    return path


def _open_wav(path: Path) -> soundfile.SoundFile:
    _checked(path)
    try:
        f = soundfile.SoundFile(path)
    except (soundfile.LibsndfileError, RuntimeError, OSError) as error:
        raise AudioFileError(
            f"Cannot read {str(path)!r} as audio: {error}. Give a WAV file (PCM 8/16/24/32-bit or float)."
        ) from error
    if f.format not in WAV_FORMATS:
        f.close()
        raise AudioFileError(
            f"{str(path)!r} is a {f.format_info} file, not a WAV. "
            f"Convert it first, e.g. `sox {path.name} -r 16000 -c 1 out.wav`."
        )
    return f


# ---------------------------------------------------------------------------- microphone


class MonotonicClock:
    """Session time for live input: seconds since the clock was made."""

    def __init__(self) -> None:
        self.origin = time.monotonic()

    def __call__(self) -> float:
        return time.monotonic() - self.origin


def _log_problem(problem: DeviceProblem) -> None:
    (log.info if problem.kind == "recovered" else log.warning)("%s", problem.message)


class MicSource:
    """A microphone through PortAudio: device rate in, 16 kHz frames out.

    The audio callback only copies blocks into a queue; resampling and framing run
    in the consumer. Block times come from counting samples, re-anchored to the
    clock whenever capture jumped (an overflow, a restart). When the device
    disappears, `on_problem` hears about it, silent frames keep the session clock
    (and prompt deadlines) moving, and the device is reopened every `retry_s`.
    """

    def __init__(
        self,
        device: int | str | None = None,
        rate: int | None = None,
        *,
        clock: Callable[[], float] | None = None,
        on_problem: Callable[[DeviceProblem], None] = _log_problem,
        retry_s: float = 1.0,
        stall_s: float = 2.0,
        block_ms: int = 30,
        max_queue_s: float = 120.0,
        wait_for_device: bool = False,
    ):
        self.device, self.rate = device, rate
        self.clock = clock or MonotonicClock()
        self.on_problem = on_problem
        self.retry_s, self.stall_s, self.block_ms = retry_s, stall_s, block_ms
        self.max_queue_s = max_queue_s
        self.wait_for_device = wait_for_device
        self.resync_s = RESYNC_S
        self.device_name = ""
        self.device_rate = 0
        self.overflows = 0  # blocks PortAudio reported lost, since creation
        self.dropped = 0  # blocks dropped because nobody consumed them
        self._reported_overflows = 0
        self._last_report = -OVERFLOW_REPORT_S
        self._stream: Any = None  # a sounddevice InputStream (it ships no types), or a subclass's own source
        self._queue: queue.Queue[tuple[float, np.ndarray]] = queue.Queue()
        self._queue_max = 1
        self._next_block_t: float | None = None
        self._last_block_at = 0.0
        self._resampler: soxr.ResampleStream | None = None
        self._framer = _Framer()
        self._expected_t: float | None = None  # session time the next block should start at
        self._out_t = 0.0  # start time of the next frame out
        self._after_silence = False
        self._skip_to = 0.0
        self._closed = threading.Event()
        self._failed = threading.Event()

    # -- AudioSource

    def frames(self) -> Iterator[Frame]:
        if self._stream is None and not self._closed.is_set():
            self._open_first()
        while not self._closed.is_set():
            if self._stream is None:
                yield from self._reconnect()
                continue
            try:
                t, block = self._queue.get(timeout=0.1)
            except queue.Empty:
                if self._lost():
                    self._drop_stream("stopped delivering audio")
                continue
            self._report_overflows()
            yield from self._frames_of(t, block)

    def now(self) -> float:
        return self.clock()

    def skip_until(self, t: float) -> None:
        self._skip_to = max(self._skip_to, t)

    def next_frame_t(self) -> float:
        return max(self._out_t, self._skip_to)

    def open(self) -> None:
        """Open the device now (frames() does it otherwise); raises AudioDeviceError."""
        self._closed.clear()
        self._start_stream()

    def close(self) -> None:
        self._closed.set()
        self._stop_stream()

    def __enter__(self) -> MicSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the stream

    def _start_stream(self) -> None:
        sd = sounddevice_module()
        dev = find_device(self.device, "input")
        rate = int(self.rate or dev.default_rate)
        blocksize = max(1, rate * self.block_ms // 1000)
        self._failed.clear()
        stream = None
        errors = []
        for channels in dict.fromkeys((1, min(2, dev.inputs))):
            try:
                stream = sd.InputStream(
                    device=dev.index,
                    samplerate=rate,
                    channels=channels,
                    dtype="float32",
                    blocksize=blocksize,
                    latency="low",
                    callback=self._callback,
                    finished_callback=self._failed.set,
                )
                break
            except sd.PortAudioError as error:
                errors.append(error)
        if stream is None:
            raise AudioDeviceError(
                f"Cannot open the microphone {dev.name!r} at {rate} Hz: {errors[-1]}. "
                "Check that no other program holds it exclusively, try another device "
                f"(`{command()} devices`), or give a rate the device supports."
            )
        self._prepare(dev.name, rate)
        try:
            stream.start()
        except sd.PortAudioError as error:
            stream.close(ignore_errors=True)
            raise AudioDeviceError(f"Cannot start the microphone {dev.name!r}: {error}") from error
        self._stream = stream

    def _prepare(self, name: str, rate: int) -> None:
        """Fresh per-stream state: block timing, resampler, framer."""
        self._queue_max = max(1, int(self.max_queue_s * 1000 / self.block_ms))
        self._next_block_t = None
        self._resampler = (
            None if rate == SAMPLE_RATE else soxr.ResampleStream(rate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
        )
        self._framer = _Framer()
        self._expected_t = None
        self.device_name, self.device_rate = name, rate
        self._last_block_at = time.monotonic()

    def _stop_stream(self) -> None:
        stream, self._stream = self._stream, None
        close_stream(stream)

    def _callback(self, indata: np.ndarray, frames: int, time_info: object, status: object) -> None:
        """PortAudio's thread: copy the block and its time out, nothing more."""
        if getattr(status, "input_overflow", False):
            self.overflows += 1
        arrived = self.clock()
        duration = frames / self.device_rate
        start = arrived - duration
        if self._next_block_t is None or abs(start - self._next_block_t) > self.resync_s:
            self._next_block_t = start  # audio was lost, or the clocks drifted apart
        t = self._next_block_t
        self._next_block_t = t + duration
        self._last_block_at = time.monotonic()
        if self._queue.qsize() >= self._queue_max:
            try:
                self._queue.get_nowait()
                self.dropped += 1
            except queue.Empty:
                pass
        self._queue.put((t, to_mono(indata).copy()))

    def _lost(self) -> bool:
        stream = self._stream
        if stream is None:
            return True
        return self._failed.is_set() or not stream.active or time.monotonic() - self._last_block_at > self.stall_s

    def _drop_stream(self, why: str) -> None:
        name = self.device_name or "microphone"
        self._stop_stream()
        self.on_problem(
            DeviceProblem(
                "lost",
                f"The microphone {name!r} {why}; trying again every {self.retry_s:g} s. Check its cable or USB plug.",
            )
        )

    def _open_first(self) -> None:
        try:
            self._start_stream()
        except AudioDeviceError:
            if not self.wait_for_device:
                raise
            self.on_problem(DeviceProblem("lost", "No microphone yet; waiting for one."))

    def _reconnect(self) -> Iterator[Frame]:
        """Silence at real-time pace while retrying, so deadlines still pass."""
        next_try = time.monotonic()
        while not self._closed.is_set():
            if time.monotonic() >= next_try:
                try:
                    self._reopen()
                except AudioDeviceError as error:
                    log.debug("microphone still unavailable: %s", error)
                    next_try = time.monotonic() + self.retry_s
                else:
                    self.on_problem(DeviceProblem("recovered", self._back_message()))
                    return
            yield from self._silence_until(self.clock())
            time.sleep(min(0.05, self.retry_s))

    def _back_message(self) -> str:
        return f"The microphone {self.device_name!r} is back."

    def _reopen(self) -> None:
        """Open the device again; if PortAudio no longer lists it (a USB device replugged
        gets a new index), re-enumerate first. Re-enumerating stops every PortAudio
        stream, so it is only done when needed."""
        try:
            self._start_stream()
        except AudioDeviceError:
            try:
                rescan()
            except sounddevice_module().PortAudioError as error:
                raise AudioDeviceError(f"PortAudio could not list devices: {error}") from error
            self._start_stream()

    def _report_overflows(self) -> None:
        lost = self.overflows + self.dropped
        if lost > self._reported_overflows and time.monotonic() - self._last_report >= OVERFLOW_REPORT_S:
            self._reported_overflows = lost
            self._last_report = time.monotonic()
            self.on_problem(
                DeviceProblem(
                    "overflow",
                    f"Microphone audio was lost ({lost} blocks so far): the computer is too busy to keep up.",
                )
            )

    # -- blocks to frames

    def _frames_of(self, t: float, block: np.ndarray) -> Iterator[Frame]:
        end = t + len(block) / self.device_rate
        if end <= self._skip_to:
            self._expected_t = None  # a gap: restart resampling and framing
            return
        if self._expected_t is None or abs(t - self._expected_t) > 0.05:
            if self._resampler is not None:
                self._resampler.clear()
            self._framer = _Framer()
            if self._after_silence:  # silence stood in for the device until now
                yield from self._silence_until(t)
                self._after_silence = False
                t = max(t, self._out_t)
            self._out_t = t
        self._expected_t = end
        samples = block if self._resampler is None else self._resampler.resample_chunk(block)
        for piece in self._framer.push(samples):
            frame_t, self._out_t = self._out_t, self._out_t + FRAME_SECONDS
            if frame_t >= self._skip_to:
                yield Frame(piece, frame_t)

    def _silence_until(self, t: float) -> Iterator[Frame]:
        self._out_t = max(self._out_t, self._skip_to)
        while self._out_t + FRAME_SECONDS <= t:
            frame_t, self._out_t = self._out_t, self._out_t + FRAME_SECONDS
            yield Frame(np.zeros(FRAME_SAMPLES, dtype=np.float32), frame_t)
        self._expected_t = None
        self._after_silence = True
