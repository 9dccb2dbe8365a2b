"""Endpointing: where utterances start and end in a stream of frames.

A frame counts as speech when webrtcvad says so AND its energy in the speech band
stands clearly above an adaptive noise floor and above what the background of the
last seconds reaches. webrtcvad alone calls nearly every frame of a running tap,
pink noise or music "speech"; the floor (which follows steady background sound
while nobody speaks) is what makes a party's hum not count, and the bed's reach
(NoiseBed) what makes its chatter and clatter not count; a candidate whose loud part
does not stand out of that bed is a burst of it and is dropped.
Speech starts after a few such frames, ends after a stretch of silence, and is cut
at a maximum length.

Clatter and music still pass that test now and then, so each finished candidate is
confirmed by a neural voice-activity model (Silero VAD, shipped inside
faster-whisper): a candidate whose peak speech probability stays below
`confirm_speech_prob` is dropped. On the real-speech scenes of tests/test_endpoint.py
(silence, pink noise, tap, dishes, music at 10 dB SNR, and the noises alone) that
check at 0.5 removed 54 of 57 false candidates and lost 1 of 1,772 real ones.

The same model also follows a reply frame by frame (SileroStream) while it is being
heard: a stretch the energy test calls silence, but in which the model still hears
speech, holds the reply open (`hold_speech_prob`), for at most `hold_max_ms` after
the last frame the energy test heard. In kitchen noise the quiet end of an order
("with lots of almond milk") sinks under what the bed reaches, and the reply used to
end there. What the model hears in the silence that ended a reply, heard afresh, is kept
on the utterance (Utterance.end_speech_prob): the reader takes a high one as a sign the
reply may have been cut (voice/listening/reading.py cut_sign).

In a loud room the endpointer also follows the nearest voice (voice/listening/nearest.py):
the talk behind a player is speech too, and used to run their reply on into a stretch
too long for one, which the ears set aside unread. Where speech there runs to the length
limit, it is handed over as the nearest voice's stretch alone, or, where that voice is
still speaking, the talk before it is let go and the voice heard on.
"""

from __future__ import annotations

import bisect
import logging
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
import webrtcvad

from host.contract import loud_room  # where host and voice meet: the idea of a loud room
from voice.audio_types import FRAME_MS, FRAME_SAMPLES, SAMPLE_RATE, Frame, Utterance, pcm16
from voice.listening.nearest import VoiceStretch, nearest_voice, pitch_hz, stands_over_the_rest

FRAME_SECONDS = FRAME_MS / 1000
log = logging.getLogger(__name__)

SpeechCheck = Callable[[np.ndarray], float]
"""Audio (16 kHz float32) -> how likely it holds speech, 0..1."""


@dataclass(frozen=True)
class EndpointConfig:
    """Endpointer settings; the defaults suit commands said across a table."""

    vad_aggressiveness: int = 2  # webrtcvad 0 (lenient) .. 3 (strict)
    start_frames: int = 4  # speech frames among the last `start_window` to start
    start_window: int = 6
    start_snr_db: float = 7.0  # a frame's energy above the noise floor to start speech
    continue_snr_db: float = 3.5  # ... and to keep it going (hysteresis)
    min_level_dbfs: float = -55.0  # quieter frames are never speech (digital silence, hiss)
    band_hz: tuple[float, float] = (200.0, 3500.0)  # where energy is compared with the floor
    end_silence_ms: int = 500  # non-speech that ends an utterance
    max_ms: int = 6000  # longer speech is cut here
    pre_roll_ms: int = 300  # lead-in kept before the first speech frame (noise hides onsets)
    tail_ms: int = 240  # silence kept after the last speech frame
    min_speech_ms: int = 120  # utterances with less speech are clicks and knocks
    confirm_speech_prob: float | None = 0.5  # Silero peak probability to keep a candidate; None: off
    floor_rise_s: float = 1.5  # time constant of the floor rising to louder background
    floor_fall_s: float = 0.15  # ... and falling to quieter background
    bed_window_s: float = 4.0  # background remembered for how high an unsteady bed reaches
    bed_start_percentile: float = 95.0  # speech starts above this share of that background ...
    bed_continue_percentile: float = 98.0  # ... and goes on above this share (one frame, not 4 of 6)
    bed_over_floor_db: float = 20.0  # the most a bed reaches over the floor (a room gone quiet is quiet)
    stand_percentile: float = 90.0  # an utterance's loud part (this share of its frames under it) ...
    stand_over_bed_db: float = 3.0  # ... stands this far over what the bed reaches to start, or it is the bed
    hold_speech_prob: float | None = 0.6  # neural speech probability that keeps a reply going; None: off
    hold_max_ms: int = 800  # ... for at most this long after the last frame the energy test heard
    hold_percentile: float = 80.0  # ... in a frame louder than this share of the bed's frames ...
    hold_over_bed_db: float = 3.0  # ... by this much (chatter as steady as the bed is the bed)
    follow_nearest: bool = True  # in a loud room, the utterance is the nearest voice's stretch (nearest.py) ...
    follow_after_ms: int = 6000  # ... once it has run this long (the length limit: max_ms)


class BandLevel:
    """A frame's energy within the speech band, in dBFS (a full-scale sine there is -3).

    Limiting the band keeps rumble, hum and hiss (much of a tap's or pink noise's
    energy) out of the comparison with the floor; it found more words in noise, with
    better boundaries, than the broadband level did.
    """

    def __init__(self, low_hz: float, high_hz: float, n: int = FRAME_SAMPLES):
        self.n_fft = 1 << (n - 1).bit_length()
        self.window = np.hanning(n)
        freqs = np.fft.rfftfreq(self.n_fft, 1 / SAMPLE_RATE)
        self.band = (freqs >= low_hz) & (freqs < high_hz)
        self.scale = 2.0 / (self.n_fft * float(np.sum(self.window**2)))

    def __call__(self, samples: np.ndarray) -> float:
        spectrum = np.fft.rfft(samples * self.window, self.n_fft)
        power = float(np.sum(np.abs(spectrum[self.band]) ** 2)) * self.scale
        return 10.0 * math.log10(power + 1e-12)


def _mean_power_db(levels: Iterable[float]) -> float:
    """The mean power of frames given in dB, in dB."""
    return 10.0 * math.log10(float(np.mean(np.power(10.0, np.asarray(list(levels)) / 10.0))) + 1e-12)


def _frames(ms: int) -> int:
    return max(0, math.ceil(ms / FRAME_MS))


class SileroCheck:
    """Peak speech probability of a stretch of audio, by the Silero VAD model that
    faster-whisper ships (onnxruntime, about 0.2 ms per 32 ms of audio on one core)."""

    CHUNK = 512
    DITHER_DBFS = -80.0
    """Speech framed by digital silence (WAV fixtures; no microphone makes it) fooled the
    model into doubting short words; a faint hiss, far below any room's, set it right."""

    def __init__(self) -> None:
        from faster_whisper.vad import get_vad_model

        self.model = get_vad_model()

    def __call__(self, audio: np.ndarray) -> float:
        n = (len(audio) // self.CHUNK + 1) * self.CHUNK  # whole chunks, a little silence after
        padded = np.zeros(n, dtype=np.float32)
        padded[: len(audio)] = audio
        hiss = np.random.default_rng(0).standard_normal(n) * 10 ** (self.DITHER_DBFS / 20)
        return float(np.max(self.model(padded + hiss.astype(np.float32))))


class SileroStream:
    """Silero's speech probability frame by frame: the model's state carried from one
    512-sample chunk to the next, as the model is meant to run on a live stream. It
    runs only while speech is heard (docs/recognition.md has its cost)."""

    CHUNK, CONTEXT = 512, 64

    def __init__(self, check: SileroCheck | None = None) -> None:
        """`check`: the confirmation's model, so it loads once."""
        self.check = check or SileroCheck()
        self.session = self.check.model.session
        self.reset()

    def peak(self, audio: np.ndarray) -> float:
        """The highest probability in `audio`, heard afresh: on a stream the model's
        probability lags a reply's real end into the quiet after it, so a reply's kept
        tail is heard alone to tell whether it went on."""
        return self.check(audio)

    def reset(self) -> None:
        """Forget the state and any audio not yet taken (a new reply begins)."""
        self.h = np.zeros((1, 1, 128), dtype=np.float32)
        self.c = np.zeros((1, 1, 128), dtype=np.float32)
        self.context = np.zeros(self.CONTEXT, dtype=np.float32)
        self.buffer = np.zeros(0, dtype=np.float32)
        self.last = 0.0

    def feed(self, samples: np.ndarray) -> float:
        """Take some audio; the probability of the latest whole chunk (the last one while
        too little has come for a new chunk)."""
        self.buffer = np.concatenate([self.buffer, samples.astype(np.float32, copy=False)])
        while len(self.buffer) >= self.CHUNK:
            chunk, self.buffer = self.buffer[: self.CHUNK], self.buffer[self.CHUNK :]
            batch = np.concatenate([self.context, chunk])[None, :]
            out, self.h, self.c = self.session.run(None, {"input": batch, "h": self.h, "c": self.c})
            self.context = chunk[-self.CONTEXT :]
            self.last = float(np.ravel(out)[-1])
        return self.last


class SpeechStream(Protocol):
    """What follows a reply frame by frame (SileroStream, or a test's stand-in)."""

    def reset(self) -> None: ...

    def feed(self, samples: np.ndarray) -> float: ...

    def peak(self, audio: np.ndarray) -> float:
        """The highest speech probability in a short stretch, heard afresh."""
        ...


def default_speech_check() -> SpeechCheck | None:
    """SileroCheck, or None (with a warning) where faster-whisper/onnxruntime are missing."""
    try:
        return SileroCheck()
    except (ImportError, RuntimeError, OSError) as error:
        log.warning("no neural speech check (%s); utterances are not confirmed", error)
        return None


class NoiseBed:
    """How high the background reaches: percentiles of the levels of the last few
    seconds' frames that were not speech.

    The floor (NoiseFloor) follows the quiet moments of the background, which is what
    a steady hum or a quiet room needs. Chatter, clatter and music around a table are
    not steady: their frames swing well above their quiet moments, so measured from
    the floor alone a party's noise counted as speech, a reply's end never came and
    replies ran on to the length limit (docs/lab/recognition.md, "A reply's end over a
    party's noise"). Speech must also stand above what this bed reaches. A frame
    joins it only once it can no longer start speech, so a reply's own first frames
    never raise the bar for the next one.
    """

    MIN_FRAMES = 10  # fewer remembered frames say nothing yet

    def __init__(self, window_s: float):
        self.levels: deque[float] = deque(maxlen=max(self.MIN_FRAMES, round(window_s / FRAME_SECONDS)))
        self._sorted: list[float] = []  # the same levels in order: a percentile is one look-up

    def add(self, level_db: float) -> None:
        if len(self.levels) == self.levels.maxlen:
            del self._sorted[bisect.bisect_left(self._sorted, self.levels[0])]
        self.levels.append(level_db)
        bisect.insort(self._sorted, level_db)

    def power_db(self) -> float | None:
        """The remembered background's mean power in dB (None: too little known yet)."""
        if len(self.levels) < self.MIN_FRAMES:
            return None
        return _mean_power_db(self.levels)

    def reach(self, percentile: float) -> float:
        """The level under which this share of the remembered background stayed (-inf:
        too little known yet)."""
        if len(self._sorted) < self.MIN_FRAMES:
            return -math.inf
        return self._sorted[round(percentile / 100 * (len(self._sorted) - 1))]


class NoiseFloor:
    """The background level in dBFS: follows quieter sound fast and louder sound slowly."""

    def __init__(self, rise_s: float, fall_s: float, lowest_db: float):
        self.rise = 1.0 - math.exp(-FRAME_SECONDS / rise_s)
        self.fall = 1.0 - math.exp(-FRAME_SECONDS / fall_s)
        self.lowest = lowest_db  # digital silence would otherwise sink it to -120
        self.level: float | None = None

    def update(self, level_db: float) -> None:
        level_db = max(level_db, self.lowest)
        if self.level is None:
            self.level = level_db
        else:
            rate = self.fall if level_db < self.level else self.rise
            self.level += (level_db - self.level) * rate

    def raise_to(self, level_db: float) -> None:
        self.level = level_db if self.level is None else max(self.level, level_db)


@dataclass
class _Speech:
    """An utterance being collected."""

    start: float  # first speech frame
    frames: list[Frame]  # pre-roll and everything since
    levels: list[float]
    last_speech_end: float
    speech_frames: int
    silent_run: int = 0
    ahead: Utterance | None = None  # what it will be if the silence goes on (pending())
    heard_end: float = 0.0  # end of the last frame the energy test took for speech
    voice_line: float = -math.inf  # a frame this loud is the nearest voice's (nearest.py) ...
    voice_edge: float = -math.inf  # ... and this loud, next to its frames, too
    pitches: list[float | None] = field(default_factory=list)  # each level's frame's pitch (nearest.py)


class Endpointer:
    """Frames in, Utterances out: push() frame by frame, or iterate with utterances()."""

    def __init__(
        self,
        config: EndpointConfig | None = None,
        speech_check: SpeechCheck | None = None,
        speech_stream: SpeechStream | None = None,
    ):
        """`speech_check` replaces the Silero confirmation (used when confirm_speech_prob is set);
        `speech_stream` the frame-by-frame one (used when hold_speech_prob is set; by default
        Silero's, where the confirmation is Silero's too)."""
        self.config = c = config or EndpointConfig()
        self.speech_check = speech_check
        if speech_check is None and c.confirm_speech_prob is not None:
            self.speech_check = default_speech_check()
        self.stream = speech_stream
        if self.stream is None and c.hold_speech_prob is not None and isinstance(self.speech_check, SileroCheck):
            self.stream = SileroStream(self.speech_check)
        self.unconfirmed = 0  # candidates dropped by the speech check
        self.in_bed = 0  # ... and as part of the bed (NoiseBed)
        self.vad = webrtcvad.Vad(c.vad_aggressiveness)
        self.floor = NoiseFloor(c.floor_rise_s, c.floor_fall_s, c.min_level_dbfs)
        self.bed = NoiseBed(c.bed_window_s)
        self.level_db = BandLevel(*c.band_hz)
        self._recent: deque[tuple[Frame, float, bool]] = deque(
            maxlen=max(c.start_window, _frames(c.pre_roll_ms) + c.start_window)
        )
        self._speech: _Speech | None = None
        self._last_t: float | None = None

    @property
    def in_speech(self) -> bool:
        """Speech has started and not yet ended."""
        return self._speech is not None

    def onset(self) -> float | None:
        """When speech began, if it has or may just be beginning (a voiced frame among
        the last few, not yet enough to start an utterance); None in silence.

        A timed turn asks this at its deadline: a word begun just before the buzzer
        belongs to that turn even though it is confirmed a few frames after it.
        """
        if self._speech is not None:
            return self._speech.start
        window = list(self._recent)[-self.config.start_window :]
        return next((frame.t for frame, _, voiced in window if voiced), None)

    def pending(self) -> Utterance | None:
        """The utterance that the silence now running will end, once its audio is
        complete (the tail kept after the last speech has arrived), before that
        silence is long enough to confirm it. The same object is returned then, so
        the ears can read it ahead, in the rest of the endpoint silence. None while
        speech goes on or too little of it was heard; the speech check still decides
        at the end."""
        speech, c = self._speech, self.config
        if speech is None or speech.speech_frames * FRAME_MS < c.min_speech_ms or not self._stands_out(speech):
            return None
        voice, quiet = self._voice(speech)
        heard = speech if voice is None else self._voice_only(speech, voice)  # in a loud room, the voice's
        if (speech.silent_run if voice is None else quiet) < _frames(c.tail_ms):
            return None
        if speech.ahead is None or speech.ahead.end != heard.last_speech_end:
            speech.ahead = self._cut(heard)
        return speech.ahead

    def reset(self) -> None:
        """Forget a half-heard utterance and the lead-in (the noise floor is kept)."""
        self._recent.clear()
        self._speech = None
        self._last_t = None

    def push(self, frame: Frame) -> Utterance | None:
        """Take one frame; return an utterance when this frame completes one."""
        if self._last_t is not None and frame.t - self._last_t > 1.5 * FRAME_SECONDS:
            self.reset()  # a jump in time (the host spoke): no audio spans it
        self._last_t = frame.t
        level = self.level_db(frame.samples)
        if self.floor.level is None:
            self.floor.update(level)  # the first frame is taken for background
        if self._speech is None:
            return self._idle(frame, level)
        return self._speaking(frame, level)

    def flush(self) -> Utterance | None:
        """The stream ended: finish an utterance in progress, if it is long enough."""
        speech, self._speech = self._speech, None
        self._recent.clear()
        return self._finish(speech) if speech else None

    def utterances(self, frames: Iterable[Frame]) -> Iterator[Utterance]:
        for frame in frames:
            utterance = self.push(frame)
            if utterance is not None:
                yield utterance
        last = self.flush()
        if last is not None:
            yield last

    # -- states

    def _is_speech(self, frame: Frame, level: float, starting: bool) -> bool:
        """Voiced, and standing above both the floor (further to start speech than to
        keep it going) and what the bed reaches (at a higher share of it to keep going,
        where one frame is enough, than to start, where 4 of 6 are needed). The bed
        counts for at most `bed_over_floor_db` over the floor: a room that has just
        fallen quiet is heard as quiet, not as the noise of the last seconds."""
        c = self.config
        assert self.floor.level is not None
        snr_db, percentile = (
            (c.start_snr_db, c.bed_start_percentile) if starting else (c.continue_snr_db, c.bed_continue_percentile)
        )
        needed = max(self.floor.level + snr_db, self._bed_reach(percentile))
        if level < c.min_level_dbfs or level < needed:
            return False
        pcm = pcm16(frame.samples)
        return self.vad.is_speech(pcm, SAMPLE_RATE)

    def _idle(self, frame: Frame, level: float) -> Utterance | None:
        c = self.config
        voiced = self._is_speech(frame, level, starting=True)
        self._recent.append((frame, level, voiced))
        window = list(self._recent)[-c.start_window :]
        if sum(v for _, _, v in window) < c.start_frames:
            if len(self._recent) > c.start_window:  # a frame that can no longer start speech
                self.bed.add(self._recent[-c.start_window - 1][1])
            self.floor.update(level)
            return None
        first = next(i for i, (_, _, v) in enumerate(window) if v)
        start_i = len(self._recent) - len(window) + first
        recent = list(self._recent)
        lead = recent[max(0, start_i - _frames(c.pre_roll_ms)) :]
        last_voiced = max(i for i, (_, _, v) in enumerate(recent) if v)
        self._speech = _Speech(
            start=recent[start_i][0].t,
            frames=[f for f, _, _ in lead],
            levels=[lv for _, lv, _ in recent[start_i:]],
            last_speech_end=recent[last_voiced][0].t + FRAME_SECONDS,
            speech_frames=sum(v for _, _, v in window),
            silent_run=len(recent) - 1 - last_voiced,
            voice_line=self._bed_reach(c.bed_start_percentile) + c.stand_over_bed_db,
            voice_edge=self._bed_reach(c.hold_percentile) + c.hold_over_bed_db,
            pitches=[pitch_hz(f.samples) for f, _, _ in recent[start_i:]] if c.follow_nearest else [],
        )
        self._speech.heard_end = self._speech.last_speech_end
        if self.stream is not None:  # the model warms up on the lead-in, as on a stream
            self.stream.reset()
            self.stream.feed(np.concatenate([f.samples for f, _, _ in lead]))
        self._recent.clear()
        return None

    def _speaking(self, frame: Frame, level: float) -> Utterance | None:
        c, speech = self.config, self._speech
        assert speech is not None
        speech.frames.append(frame)
        speech.levels.append(level)
        if c.follow_nearest:
            speech.pitches.append(pitch_hz(frame.samples))
        prob = self.stream.feed(frame.samples) if self.stream is not None else 0.0
        if self._is_speech(frame, level, starting=False):
            speech.speech_frames += 1
            speech.silent_run = 0
            speech.last_speech_end = speech.heard_end = frame.t + FRAME_SECONDS
            speech.ahead = None
        elif self._held(speech, frame, level, prob):
            speech.silent_run = 0
            speech.last_speech_end = frame.t + FRAME_SECONDS  # the model heard the reply go on
            speech.ahead = None
        else:
            speech.silent_run += 1
        if speech.silent_run >= _frames(c.end_silence_ms):
            self._speech = None
            return self._finish(speech)
        voice, quiet = self._voice(speech)
        if voice is not None and quiet >= _frames(c.end_silence_ms):
            self._speech = None  # the nearest voice has fallen silent: the talk behind it is not its reply
            return self._finish(speech)
        if frame.t + FRAME_SECONDS - speech.start >= c.max_ms / 1000:
            if voice is not None and quiet < _frames(c.end_silence_ms) and voice.first > 0:
                self._speech = self._voice_only(speech, voice, keep_tail=True)  # the talk before it is let go
                return None
            self._speech = None
            # a sound this long is likely background that arrived: let the floor catch up
            self.floor.raise_to(float(np.percentile(speech.levels, 30)))
            speech.last_speech_end = frame.t + FRAME_SECONDS
            return self._finish(speech, cut=True)
        return None

    def _held(self, speech: _Speech, frame: Frame, level: float, prob: float) -> bool:
        """A frame the energy test calls silence, in which the neural VAD still hears the
        reply go on (its quiet end under the peaks of the bed), louder than the bed
        mostly is, and not long after the energy test last heard it (hysteresis: the
        model alone never starts a reply, nor keeps other people's chatter going)."""
        c = self.config
        if c.hold_speech_prob is None or self.stream is None or prob < c.hold_speech_prob:
            return False
        if not self._over_bed(level):
            return False
        return frame.t + FRAME_SECONDS - speech.heard_end <= c.hold_max_ms / 1000

    def _over_bed(self, level: float) -> bool:
        """Louder than the bed mostly is: where a held reply may go on."""
        c = self.config
        return level >= self._bed_reach(c.hold_percentile) + c.hold_over_bed_db

    def _bed_reach(self, percentile: float) -> float:
        """What the bed reaches, counted as at most `bed_over_floor_db` over the floor."""
        assert self.floor.level is not None
        return min(self.bed.reach(percentile), self.floor.level + self.config.bed_over_floor_db)

    def _stands_out(self, speech: _Speech) -> bool:
        """A voice over the bed is louder than the bed: a candidate whose loud part does
        not stand clear of what the bed reaches is a burst of the bed itself (one voice
        of the chatter louder for a moment), not someone speaking to the host."""
        c = self.config
        spoken = speech.levels[: max(1, round((speech.last_speech_end - speech.start) / FRAME_SECONDS))]
        loud = float(np.percentile(spoken, c.stand_percentile))
        return loud >= self._bed_reach(c.bed_start_percentile) + c.stand_over_bed_db

    def _finish(self, speech: _Speech, cut: bool = False) -> Utterance | None:
        """The utterance, unless it is too short, part of the bed (not checked for one
        `cut` at the length limit: the ears take that as table talk) or not speech."""
        c = self.config
        if speech.speech_frames * FRAME_MS < c.min_speech_ms:
            return None
        if not cut and not self._stands_out(speech):
            self.in_bed += 1
            return None
        ahead = speech.ahead
        voice, _ = self._voice(speech)
        if voice is not None:  # a loud room: the nearest voice's stretch alone
            cut = cut and voice.last == len(speech.levels) - 1
            speech = self._voice_only(speech, voice)
        utterance = ahead if ahead is not None and ahead.end == speech.last_speech_end else self._cut(speech)
        # what the model hears in the closing silence, or (cut at the limit) in its last moments
        last = speech.last_speech_end - (c.end_silence_ms / 1000 if cut else 0.0)
        closing = [
            f.samples
            for f in speech.frames
            if last - 1e-9 <= f.t < last + _frames(c.end_silence_ms) * FRAME_SECONDS - 1e-9
        ]
        prob = self.stream.peak(np.concatenate(closing)) if self.stream is not None and closing else None
        if cut or prob is not None:  # the same audio: a reading begun ahead of it stands (ears.py)
            utterance = replace(utterance, forced=cut, end_speech_prob=prob)
        if (
            self.speech_check is not None
            and c.confirm_speech_prob is not None
            and self.speech_check(utterance.audio) < c.confirm_speech_prob
        ):
            self.unconfirmed += 1
            return None
        return utterance

    def _voice(self, speech: _Speech) -> tuple[VoiceStretch | None, int]:
        """In a loud room, once the speech has run `follow_after_ms` (the length limit), the
        nearest voice's stretch within it (nearest.py) and how many frames ago it last stood
        over the room; (None, 0) before, in a quieter room, or where no voice stood over it
        for `min_speech_ms` or over the rest of the speech. Shorter speech is left as the
        endpointer found it: in a kitchen's clatter, cutting replies to their loud part
        lost the quiet ends of orders (docs/lab/recognition.md, 2026-12-07)."""
        c = self.config
        running_ms = len(speech.levels) * FRAME_MS
        if not c.follow_nearest or running_ms < c.follow_after_ms or not loud_room(self._snr_db(speech)):
            return None, 0
        gap = _frames(c.end_silence_ms)
        voice = nearest_voice(speech.levels, speech.voice_line, gap, speech.voice_edge, speech.pitches)
        if voice is None or voice.frames * FRAME_MS < c.min_speech_ms or not stands_over_the_rest(speech.levels, voice):
            return None, 0
        return voice, len(speech.levels) - 1 - voice.heard_last

    def _voice_only(self, speech: _Speech, voice: VoiceStretch, keep_tail: bool = False) -> _Speech:
        """The speech cut to the nearest voice's stretch, with the usual lead-in and tail (or,
        `keep_tail`, everything after it: the voice may still be speaking)."""
        start = speech.start + voice.first * FRAME_SECONDS
        end = speech.start + (voice.last + 1) * FRAME_SECONDS
        lead_from = start - self.config.pre_roll_ms / 1000
        kept = slice(voice.first, None if keep_tail else voice.last + 1)
        return replace(
            speech,
            start=start,
            frames=[f for f in speech.frames if f.t >= lead_from - 1e-9],
            levels=speech.levels[kept],
            pitches=speech.pitches[kept],
            last_speech_end=max(end, speech.last_speech_end) if keep_tail else end,
            heard_end=max(end, speech.heard_end) if keep_tail else end,
            speech_frames=voice.frames,
            ahead=None,
        )

    def _snr_db(self, speech: _Speech) -> float | None:
        """The room's SNR where this speech was said: the speech's mean power in the
        speech band, from its first frame to its last (pauses included, as a long-term
        speech level is measured), less the noise's, over the noise's mean power (the
        bed; the floor where the bed is too short yet, which reads a fluctuating room a
        little quieter than it is)."""
        assert self.floor.level is not None
        noise_db = self.bed.power_db()
        noise_db = self.floor.level if noise_db is None else noise_db
        spoken = speech.levels[: max(1, round((speech.last_speech_end - speech.start) / FRAME_SECONDS))]
        over = 10.0 ** ((_mean_power_db(spoken) - noise_db) / 10.0) - 1.0  # (speech + noise - noise) / noise
        return round(10.0 * math.log10(max(over, 1e-3)), 1)

    def _cut(self, speech: _Speech) -> Utterance:
        """The utterance's audio: the lead-in, the speech and a short tail."""
        keep_until = speech.last_speech_end + self.config.tail_ms / 1000
        frames = [f for f in speech.frames if f.t < keep_until - 1e-9]
        audio = np.concatenate([f.samples for f in frames]).astype(np.float32, copy=False)
        return Utterance(
            audio=audio,
            start=speech.start,
            end=speech.last_speech_end,
            lead_s=round(max(0.0, speech.start - frames[0].t), 3),
            snr_db=self._snr_db(speech),
        )
