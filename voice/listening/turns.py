"""Listening through a timed turn: the deadline, the last seconds' ticks, and speech across it.

Keep Cool is played against a clock: each player has a few seconds, the host
ticks in the last ones and sounds the buzzer when they run out. The ears listen
continuously; this module decides, frame by frame on the session clock, when a
turn has run out and when to tick, so the timing is as exact as the frames are
(30 ms: the turn runs out, and each tick plays, on the first frame that reaches
past its time, so at most one frame late) and is the same on every run from a
recording.

Rules of the clock (docs/keep-cool-live.md):
- the turn's time runs from `listening_from` (when the host fell silent after
  the turn cue) to the deadline;
- ticks play once a second in the last `warning` seconds, but never while
  someone is speaking (the host does not talk over a player, and a tick in the
  microphone would only blur the word);
- speech that began before the deadline is heard to its end and belongs to this
  turn; so does speech whose first voiced frames came just before the deadline
  but which the endpointer confirms only a few frames later;
- ticks are exempt from the half-duplex rule: they are short and quiet, and the
  endpointer never takes a 60 ms click for speech, so the ears stay open.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from voice.audio_types import FRAME_MS, Frame, Utterance

TICK = "tick"
TICK_GAIN = 0.35
"""Ticks are quieter than the other cues: a reminder, not an interruption."""
EPSILON = 1e-6
FRAME_SECONDS = FRAME_MS / 1000


class EndpointerLike(Protocol):
    @property
    def in_speech(self) -> bool: ...
    def onset(self) -> float | None: ...
    def push(self, frame: Frame) -> Utterance | None: ...
    def flush(self) -> Utterance | None: ...
    def pending(self) -> Utterance | None: ...


@dataclass
class TurnResult:
    """What happened in one turn: an utterance, or the time ran out (or the input ended)."""

    utterance: Utterance | None
    timed_out: bool
    cues: list[tuple[str, float]] = field(default_factory=list)  # (name, session time) played


def tick_times(deadline: float, warning: float | None) -> list[float]:
    """Once a second in the last `warning` seconds: 8 s turn, 3 s warning -> 5, 6, 7 s."""
    if not warning or warning <= 0:
        return []
    return [deadline - k for k in range(math.ceil(warning - EPSILON), 0, -1)]


def listen_for_turn(
    endpointer: EndpointerLike,
    frames: Iterator[Frame],
    listening_from: float,
    timeout: float | None,
    warning: float | None = None,
    play_cue: Callable[[str], None] | None = None,
    onset_grace_frames: int = 6,
    read_ahead: Callable[[Utterance], None] | None = None,
) -> TurnResult:
    """The next utterance of this turn, or timed_out once the deadline passes in silence.

    `onset_grace_frames`: after the deadline, how many frames to wait for speech
    whose first voiced frame came before it to be confirmed (the endpointer needs
    a few voiced frames to start an utterance). Only then is the time out late,
    by at most this many frames.
    `read_ahead(utterance)`: called at each frame while the endpointer has a pending
    utterance (Endpointer.pending), which may yet grow if speech resumes.
    """
    deadline = listening_from + timeout if timeout else None
    ticks = tick_times(deadline, warning) if deadline is not None else []
    result = TurnResult(None, False)
    late = 0
    for frame in frames:
        now = frame.t + FRAME_SECONDS  # this frame has been taken in: the clock reads its end
        while ticks and now > ticks[0] + EPSILON:
            ticks.pop(0)
            if not endpointer.in_speech and endpointer.onset() is None:
                if play_cue is not None:
                    play_cue(TICK)
                result.cues.append((TICK, now))
        utterance = endpointer.push(frame)
        if utterance is not None:
            result.utterance = utterance
            return result
        if read_ahead is not None and (pending := endpointer.pending()) is not None:
            read_ahead(pending)
        if deadline is not None and now > deadline + EPSILON and not endpointer.in_speech:
            onset = endpointer.onset()
            if onset is None or onset >= deadline - EPSILON or late >= onset_grace_frames:
                result.timed_out = True
                return result
            late += 1
    result.utterance = endpointer.flush()
    return result
