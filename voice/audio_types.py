"""The values that flow through the speech loop, shared by its parts.

Everything inside the loop is 16 kHz mono float32 in [-1, 1], cut into 30 ms
frames (webrtcvad accepts 10, 20 or 30 ms). Each frame carries its start time on
the session clock, so a file input gives the same timeline on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

SAMPLE_RATE = 16_000
FRAME_MS = 30
FRAME_SAMPLES = SAMPLE_RATE * FRAME_MS // 1000


def pcm16(audio: np.ndarray) -> bytes:
    """float32 in [-1, 1] as 16-bit little-endian PCM (clipped, truncated toward zero): what
    webrtcvad, the wake word engine, PocketSphinx and the Wyoming protocol read."""
    return (np.clip(np.asarray(audio, dtype=np.float32), -1.0, 1.0) * 32767).astype("<i2").tobytes()


@dataclass(frozen=True)
class Frame:
    samples: np.ndarray  # float32, FRAME_SAMPLES long
    t: float  # start, seconds on the session clock


@dataclass(frozen=True)
class Utterance:
    """A stretch of speech found by the endpointer."""

    audio: np.ndarray  # float32 16 kHz mono, with a little lead-in and tail
    start: float  # session clock
    end: float  # session clock: when speech stopped (not when silence was confirmed)
    lead_s: float | None = None  # audio kept before `start` (None: not known); 0 means no lead-in
    forced: bool = False  # ended at the length limit, not by silence
    end_speech_prob: float | None = None
    """The neural VAD's highest speech probability in the silence that ended it, or in the
    last moments of one `forced` to end (None: not measured): high means the speech may
    well have gone on under the noise."""
    snr_db: float | None = None
    """How far the speech stood over the room's noise where it was said, in the speech
    band (the endpointer's noise bed against the utterance's own level; None: not
    measured): the host's reply policy trusts a reading less in a loud room (host/reply_policy.py)."""


class AudioSource(Protocol):
    """A microphone or a WAV file standing in for one."""

    def frames(self) -> Iterator[Frame]:
        """Frames in order, blocking for a live device; stops when the source ends."""

    def now(self) -> float:
        """The session clock: real time for a device, the file position for a file."""

    def skip_until(self, t: float) -> None:
        """Drop audio before t (the host was speaking); a file jumps ahead."""

    def next_frame_t(self) -> float:
        """Session time of the next frame frames() gives: a file's position; for a device,
        the oldest audio it still holds (it keeps what comes while nobody reads it)."""


class AudioSink(Protocol):
    """A speaker, or a WAV file holding everything the host said on one timeline."""

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        """Play audio starting at session time `at`; return when it ends (session time)."""


@dataclass(frozen=True)
class Hypothesis:
    """One reading of an utterance by a recognizer."""

    text: str
    confidence: float  # 0..1, the backend's own measure (documented per backend)
    details: dict[str, Any] | None = None


PROMPT_PHRASE = "prompt_phrase"
"""A key of Hypothesis.details, True where the hypothesis' words are a phrase written whole
in the prompt that steered the recogniser (Whisper's previous text): they may be the
prompt's words rather than the speaker's (voice/listening/steering.py)."""


class Recognizer(Protocol):
    """A speech recognizer that can be steered by the phrases of the current prompt."""

    name: str

    def compile(self, phrases: list[str]) -> Any:
        """Prepare a grammar (or a prompt) for these phrases; callers cache the result."""

    def recognize(self, audio: np.ndarray, grammar: Any) -> list[Hypothesis]:
        """n-best readings, best first; [] when nothing was recognised."""


TextScores = Callable[[np.ndarray, list[str], int], tuple[list[float], list[tuple[str, float]]]]
"""Forced scoring: (audio, texts, unprompted) -> the log-likelihood of each text as the
transcript, and the recogniser's own `unprompted` best readings scored the same way."""


@runtime_checkable
class ScoresTexts(Protocol):
    """A recognizer that may score given texts against the audio it last read (Whisper, and
    a remote recogniser whose last reading fell back to the local Whisper). Keep Cool's word
    check (voice/listening/wordcheck.py) uses it; other backends are left as they read."""

    def text_scorer(self) -> TextScores | None:
        """The scoring of the last reading's recogniser; None when it cannot score."""
