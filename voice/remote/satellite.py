"""A Wyoming satellite as the table's microphone (SatelliteSource) and speaker (SatelliteSink).

The source is voice.listening.audio_in.MicSource with the satellite's AudioChunk stream in
place of PortAudio's callback: the same block timing, resampling to 16 kHz,
framing, skip_until and reconnection. Unlike a local microphone, whose silence
keeps the clock running, a lost satellite stops the session clock
(PausingClock): the prompt stays open, a turn clock does not run out while nobody
can be heard, and the game carries on where it stopped when the satellite is back.

The sink streams the host's sounds as AudioChunk events, paced a little ahead of
real time, and returns when each has been heard, so the mouth's busy_until and the
ears' half-duplex rule hold as with a local speaker. Sounds that follow each other
go out between one AudioStart and one AudioStop: wyoming-satellite starts its
player (--snd-command) afresh after every AudioStop, which left a gap of up to
2 s after every sentence; the stop is sent once the host has fallen silent.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np
import soxr
from wyoming.audio import AudioChunk, AudioStart, AudioStop

from voice.devices import AudioDeviceError, DeviceProblem
from voice.listening.audio_in import MicSource
from voice.remote.satellite_link import SatelliteLink, SatelliteUnavailable
from voice.speaking.audio_out import as_float32

log = logging.getLogger(__name__)

SAMPLE_WIDTHS = {2: "<i2", 4: "<i4"}
"""PCM widths (bytes) a satellite's microphone may send, as numpy dtypes."""
RESYNC_S = 1.0
"""Chunks over a network arrive in bursts; their times follow the sample count unless
they stray this far from the clock (a local sound card: 0.2 s)."""
PLAY_CHUNK_S = 0.1
PLAY_LEAD_S = 0.3
"""Sound is sent this far ahead of playing, so the satellite's player never runs dry."""
PLAY_LAG_S = 0.15
"""Sound ends this much later on the satellite than it was sent (its player's start and
buffer); the host counts as speaking until then, so the ears never catch its tail."""
STOP_AFTER_S = 0.4
"""AudioStop is sent this long after the last sound ended, unless another one began."""


def _log_problem(problem: DeviceProblem) -> None:
    (log.info if problem.kind == "recovered" else log.warning)("%s", problem.message)


class PausingClock:
    """Session time that stands still while the table cannot be heard."""

    def __init__(self) -> None:
        self._origin = time.monotonic()
        self._paused_at: float | None = None
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            now = self._paused_at if self._paused_at is not None else time.monotonic()
            return now - self._origin

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def pause(self) -> None:
        with self._lock:
            if self._paused_at is None:
                self._paused_at = time.monotonic()

    def resume(self) -> None:
        with self._lock:
            if self._paused_at is not None:
                self._origin += time.monotonic() - self._paused_at
                self._paused_at = None


def pcm_block(chunk: AudioChunk) -> np.ndarray:
    """An AudioChunk's samples as float32 [frames, channels]."""
    dtype = SAMPLE_WIDTHS.get(chunk.width)
    if dtype is None:
        raise ValueError(f"{chunk.width * 8}-bit audio is not supported (16 or 32-bit PCM)")
    ints = np.frombuffer(chunk.audio, dtype=dtype)
    usable = len(ints) // chunk.channels * chunk.channels
    scale = np.float32(2.0 ** (8 * chunk.width - 1))
    return (ints[:usable].astype(np.float32) / scale).reshape(-1, chunk.channels)


class SatelliteSource(MicSource):
    """The satellite's microphone as an AudioSource (16 kHz 30 ms frames on the session clock)."""

    def __init__(
        self,
        link: SatelliteLink,
        *,
        clock: PausingClock | None = None,
        on_problem: Callable[[DeviceProblem], None] = _log_problem,
        retry_s: float = 1.0,
        stall_s: float = 2.0,
        wait_for_device: bool = False,
    ):
        super().__init__(
            clock=clock or PausingClock(),
            on_problem=on_problem,
            retry_s=retry_s,
            stall_s=stall_s,
            block_ms=64,
            wait_for_device=wait_for_device,
        )
        self.link = link
        self.resync_s = RESYNC_S
        self._first_chunk = threading.Event()
        self._chunk_rate = 0
        self._bad_format = ""

    # -- MicSource's stream, over the link

    def _start_stream(self) -> None:
        self._stream = None
        self._first_chunk.clear()
        try:
            self.link.listen(self._on_chunk)
        except SatelliteUnavailable as error:
            raise AudioDeviceError(str(error)) from error
        if not self._first_chunk.wait(self.stall_s):
            self.link.drop()
            raise AudioDeviceError(
                f"The satellite {self.link.name} sends no microphone audio: "
                "check its --mic-command (e.g. arecord -r 16000 -c 1 -f S16_LE -t raw)."
            )
        if self._bad_format:
            self.link.drop()
            raise AudioDeviceError(f"The satellite {self.link.name} sends {self._bad_format}")
        self._prepare(self.link.name, self._chunk_rate)
        if isinstance(self.clock, PausingClock):
            self.clock.resume()
        self._stream = self.link

    def _on_chunk(self, chunk: AudioChunk) -> None:
        """The link's thread: like PortAudio's callback, hand the block on and nothing more."""
        try:
            block = pcm_block(chunk)
        except ValueError as error:
            self._bad_format = str(error)
            self._first_chunk.set()
            return
        if self._stream is None:
            self._chunk_rate = chunk.rate  # the first chunk tells the format
            self._first_chunk.set()
            return
        if chunk.rate != self.device_rate:
            block = soxr.resample(block, chunk.rate, self.device_rate)
        self._callback(block, len(block), None, None)

    def _stop_stream(self) -> None:
        if self._stream is not None:
            self._stream = None
            self.link.drop()  # a stalled stream gets a fresh connection

    def _lost(self) -> bool:
        return self._stream is None or not self.link.connected or time.monotonic() - self._last_block_at > self.stall_s

    def _drop_stream(self, why: str) -> None:
        if isinstance(self.clock, PausingClock):
            self.clock.pause()  # the game waits while nobody can be heard
        why = "stopped sending microphone audio" if self.link.connected else "went away"
        self._stop_stream()
        self.on_problem(
            DeviceProblem(
                "lost",
                f"The satellite {self.link.name} {why}; the game waits for it, trying again every {self.retry_s:g} s.",
            )
        )

    def _reopen(self) -> None:
        self._start_stream()

    def _back_message(self) -> str:
        return f"The satellite {self.link.name} is back."


class SatelliteSink:
    """Plays through the satellite, blocking until the sound has been heard.

    While the satellite is unreachable the sound waits (reported once) and is played
    whole when it is back: the game waits rather than talk to nobody.
    """

    def __init__(
        self,
        link: SatelliteLink,
        *,
        clock: Callable[[], float],
        on_problem: Callable[[DeviceProblem], None] = _log_problem,
        retry_s: float = 1.0,
        lead_s: float = PLAY_LEAD_S,
        lag_s: float = PLAY_LAG_S,
    ):
        self.link, self.clock, self.on_problem = link, clock, on_problem
        self.retry_s, self.lead_s, self.lag_s = retry_s, lead_s, lag_s
        self._lost = False
        self._open: tuple[int, int] | None = None
        """(connection, rate) of the AudioStart sent and not yet stopped."""
        self._stop_timer: threading.Timer | None = None
        self._stop_lock = threading.Lock()
        try:
            link.ensure_connected()  # a clear error now, not mid-game
        except SatelliteUnavailable as error:
            raise AudioDeviceError(str(error)) from error

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        samples = as_float32(audio)
        wait = at - self.clock()
        if wait > 0:
            time.sleep(wait)
        pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()
        duration = len(samples) / rate
        self._keep_open()
        while True:
            self._wait_for_link()
            started, begun = self.clock(), time.monotonic()
            try:
                self._stream(pcm, rate, begun)
            except SatelliteUnavailable as error:
                self._report_lost(str(error))
                continue  # played again from its start once the link is back
            break
        left = begun + duration - time.monotonic()
        if left > 0:
            time.sleep(left)
        with self._stop_lock:
            self._stop_timer = threading.Timer(STOP_AFTER_S + self.lag_s, self._stop)
            self._stop_timer.daemon = True
            self._stop_timer.start()
        return max(self.clock(), started + duration) + self.lag_s

    def close(self) -> None:
        """Send the AudioStop still owed (the host's last words)."""
        self._keep_open()
        self._stop()

    def _stream(self, pcm: bytes, rate: int, begun: float) -> None:
        """AudioStart unless one is open on this connection at this rate, then the chunks
        a little ahead of real time (the AudioStop follows once the host falls silent)."""
        step = max(2, int(rate * PLAY_CHUNK_S) * 2)
        if self._open != (self.link.generation, rate):
            self._stop()  # another rate: a stream of its own
            self.link.send([AudioStart(rate=rate, width=2, channels=1).event()])
            self._open = (self.link.generation, rate)
        for offset in range(0, len(pcm), step):
            due = begun + offset / 2 / rate - self.lead_s
            if (ahead := due - time.monotonic()) > 0:
                time.sleep(ahead)
            self.link.send([AudioChunk(rate=rate, width=2, channels=1, audio=pcm[offset : offset + step]).event()])

    def _keep_open(self) -> None:
        """Another sound follows: the AudioStop planned after the last one is not sent."""
        with self._stop_lock:
            if self._stop_timer is not None:
                self._stop_timer.cancel()
                self._stop_timer = None

    def _stop(self) -> None:
        """AudioStop for the open stream, if its connection still stands."""
        with self._stop_lock:
            opened, self._open, self._stop_timer = self._open, None, None
            if opened is not None and opened[0] == self.link.generation:
                try:
                    self.link.send([AudioStop().event()])
                except SatelliteUnavailable:
                    pass  # gone: the next sound starts afresh

    def _wait_for_link(self) -> None:
        while True:
            try:
                self.link.ensure_connected()
            except SatelliteUnavailable as error:
                self._report_lost(str(error))
                time.sleep(self.retry_s)
                continue
            if self._lost:
                self._lost = False
                self.on_problem(DeviceProblem("recovered", f"The satellite {self.link.name} is back."))
            return

    def _report_lost(self, why: str) -> None:
        if not self._lost:
            self._lost = True
            self.on_problem(
                DeviceProblem(
                    "lost",
                    f"The host's voice cannot reach the satellite: {why}; "
                    f"the game waits for it, trying again every {self.retry_s:g} s.",
                )
            )
