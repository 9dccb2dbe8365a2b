"""Was the start of an utterance heard? A reply whose first words were lost is never a move.

The ears listen only when the host is silent (half-duplex), and the endpointer keeps
a short lead-in before the first speech it finds. A player who began while the host
was still talking, or whose speech ran on across the endpointer's length limit,
reaches the recogniser without its beginning: "card six with spot on" said across
the host's last words came out as "we play card two", and was played. The sign is
in the audio the endpointer cut: a whole utterance begins and ends in room sound
(its lead-in and its tail); a cut one begins in speech, its first frames well above
its tail, even when they fall in a quiet stretch between two words. A lead-in of
chatter or steady noise is as loud as the tail after it, so it is not taken for a
lost start.
"""

from __future__ import annotations

import numpy as np

from voice.audio_types import FRAME_MS, FRAME_SAMPLES, Utterance

ONSET_FRAMES = 3
"""The first 90 ms are what is compared with the room."""
ROOM_FRAMES = 6
"""The last 180 ms (the endpointer keeps 240 ms after the speech) stand for the room."""
OVER_ROOM_DB = 10.0
"""A start this far above the room was already speech."""
OPENED_WITHIN_S = 0.5
"""Speech found this soon after listening opened may have begun before it."""

BEGAN_BEFORE_LISTENING = "began before listening"
CLIPPED_AT_FRONT = "clipped at the front"


def _frame_db(audio: np.ndarray) -> np.ndarray:
    n = len(audio) // FRAME_SAMPLES
    frames = audio[: n * FRAME_SAMPLES].astype(np.float64).reshape(n, FRAME_SAMPLES)
    return 10.0 * np.log10(np.mean(frames**2, axis=1) + 1e-12)


def missed_start(utterance: Utterance, listening_from: float | None = None) -> str:
    """Why the utterance's start was not heard, or "" if it was.

    BEGAN_BEFORE_LISTENING: speech was already going on when listening opened (the
    player spoke over the host, or before the ears were open); CLIPPED_AT_FRONT: later
    on, the endpointer's audio begins in speech with no lead-in (speech ran on past
    the length limit that cut the utterance before it).
    """
    levels = _frame_db(utterance.audio)
    if len(levels) < ONSET_FRAMES + ROOM_FRAMES:
        return ""
    room = float(np.median(levels[-ROOM_FRAMES:]))
    if float(np.max(levels[:ONSET_FRAMES])) < room + OVER_ROOM_DB:
        return ""
    if listening_from is not None and utterance.start - listening_from < OPENED_WITHIN_S:
        return BEGAN_BEFORE_LISTENING
    if utterance.lead_s is not None and utterance.lead_s < FRAME_MS / 1000:
        return CLIPPED_AT_FRONT
    return ""
