"""The awaited voice: the nearest voice's level over the room's talk, frame by frame.

At a table that talks, the endpointer hears speech as speech whoever says it: the
talk behind a player runs their reply on into a stretch too long for one, and what the
recogniser then reads is partly the talk's words. The player answering the host is the
nearest voice, though: louder than the talk behind it, which is several people further
away. So within one utterance a frame belongs to the nearest voice when it stands over
what the room's background reaches (the noise bed's level that the endpointer already
asks a candidate's loud part to stand over, voice/listening/endpoint.py `_stands_out`),
and the voice's frames, joined across the pauses between its words, are its stretch.

Its edges follow the voice further down, as the endpointer's start and end do (a
stricter line to begin than to go on): the frames next to the stretch that stand over
where a held reply goes on (`edge_db`, the bed's level a reply's quiet end must stand
over) belong to it too, with no longer break than a stop consonant's (EDGE_GAP_FRAMES),
so a soft first word or a last one under its peaks is kept.

One voice keeps its pitch: a talker who goes on as the player stops, nearly as loud,
speaks at another pitch. Each voiced frame's pitch is measured (pitch_hz, the peak of its
autocorrelation), the voice's own is the median of its loudest voiced frames, and a
voiced frame more than PITCH_SPAN_SEMITONES from it belongs to someone else (unvoiced
frames, consonants, belong to a voice only at its edges).

The nearest voice is nearer than the talk: at half the distance or less, so 6 dB louder
(NEARER_DB; sound falls 6 dB with each doubling of distance). A stretch whose mean power
stands less far over the rest of its utterance is one of the talk's own voices, louder
for a moment: five people talking, nobody nearer than the rest, are cut into no replies.

A pause as long as the one that ends a reply (the endpoint silence) ends the stretch:
the nearest voice fell silent, however the talk goes on behind it. Of several stretches
in one utterance (a talker near the microphone for a moment, then the player), the
one with the most voice in it is the reply: the others are read no more than the talk.

The endpointer asks this only in a loud room (host.contract.loud_room), where speech
runs to its length limit (voice/listening/endpoint.py `follow_after_ms`): in a quiet room every frame of speech
stands over the room, and in a kitchen's clatter a reply's quiet end under it is the
reply's own, which the stretch loses (docs/recognition.md, 2026-12-07).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from voice.audio_types import SAMPLE_RATE

NEARER_DB = 6.0
"""The nearest voice's mean power over the talk around it in its utterance: at half the
distance of the talk, or nearer."""
PITCH_SPAN_SEMITONES = 6.0
"""A voice's pitch in one short reply stays within half an octave of its median
(intonation falls by about that much over a sentence); further off, it is another voice."""
PITCH_RANGE_HZ = (70.0, 400.0)
"""Where people's voices are pitched, men's low to children's high."""
VOICED = 0.4
"""A frame whose autocorrelation peaks at least this high (of its energy) is voiced."""
NEAR_BEST = 0.85
"""A shorter period whose autocorrelation is at least this share of the best one's is the pitch."""
EDGE_GAP_FRAMES = 3
"""A break this many frames long (90 ms: the closure of a stop consonant) does not end a
voice's edge."""


@dataclass(frozen=True)
class VoiceStretch:
    """Where the nearest voice spoke within an utterance: frame indices, `last` included,
    counted from the utterance's first speech frame."""

    first: int
    last: int
    frames: int
    """How many of its frames stood over the room (its pauses not counted)."""
    heard_last: int = -1
    """The last frame of the utterance in which this voice stood over the room, in this
    stretch or a later one (-1: not known)."""


def pitch_hz(samples: np.ndarray) -> float | None:
    """The frame's pitch, from the peak of its normalised autocorrelation within
    PITCH_RANGE_HZ; None where it is not voiced (the peak under VOICED)."""
    x = samples.astype(np.float64) - float(np.mean(samples))
    n = 1 << (2 * len(x) - 1).bit_length()
    spectrum = np.fft.rfft(x, n)
    r = np.fft.irfft(spectrum * np.conj(spectrum), n)[: len(x)]
    if r[0] <= 0:
        return None
    low, high = int(SAMPLE_RATE / PITCH_RANGE_HZ[1]), int(SAMPLE_RATE / PITCH_RANGE_HZ[0])
    r = r[low : high + 1] / r[0]
    best = float(np.max(r))
    if best < VOICED:
        return None
    # the shortest period nearly as strong as the best: its multiples peak too (an octave low)
    peaks = (r[1:-1] >= NEAR_BEST * best) & (r[1:-1] >= r[:-2]) & (r[1:-1] >= r[2:])
    lag = low + 1 + int(np.argmax(peaks)) if peaks.any() else low + int(np.argmax(r))
    return SAMPLE_RATE / lag


def voice_pitch(levels: Sequence[float], pitches: Sequence[float | None], line_db: float) -> float | None:
    """The nearest voice's pitch: the median of the voiced frames' among the loudest half
    of those over `line_db` (None: too few voiced)."""
    over = sorted((level, i) for i, level in enumerate(levels) if level >= line_db)
    loudest = [pitches[i] for _, i in over[len(over) // 2 :]]
    voiced = [p for p in loudest if p is not None]
    return float(np.median(voiced)) if voiced else None


def same_voice(pitch: float | None, voice: float | None) -> bool:
    """Unvoiced (a consonant, or nothing to tell by), or within PITCH_SPAN_SEMITONES."""
    return pitch is None or voice is None or abs(12.0 * math.log2(pitch / voice)) <= PITCH_SPAN_SEMITONES


def voice_stretches(
    levels: Sequence[float],
    line_db: float,
    gap_frames: int,
    pitches: Sequence[float | None] | None = None,
    voice: float | None = None,
) -> list[VoiceStretch]:
    """The runs of frames at or over `line_db` (dB, the room's reach and the margin a voice
    stands over it), and with `pitches`, voiced at the `voice`'s pitch (same_voice), joined
    where fewer than `gap_frames` frames part them."""
    stretches: list[VoiceStretch] = []
    first = last = -1
    count = 0
    for i, level in enumerate(levels):
        if level < line_db or (pitches is not None and not (pitches[i] is not None and same_voice(pitches[i], voice))):
            continue
        if first >= 0 and i - last > gap_frames:
            stretches.append(VoiceStretch(first, last, count))
            first, count = -1, 0
        if first < 0:
            first = i
        last, count = i, count + 1
    if first >= 0:
        stretches.append(VoiceStretch(first, last, count))
    return stretches


def nearest_voice(
    levels: Sequence[float],
    line_db: float,
    gap_frames: int,
    edge_db: float | None = None,
    pitches: Sequence[float | None] | None = None,
) -> VoiceStretch | None:
    """The stretch with the most of the nearest voice in it (with `pitches`, each frame's
    pitch_hz: of its own pitch), its edges followed down to `edge_db` (None: not followed);
    None where no frame stood over the room."""
    pitch = voice_pitch(levels, pitches, line_db) if pitches is not None else None
    stretches = voice_stretches(levels, line_db, gap_frames, pitches, pitch)
    voice = max(stretches, key=lambda stretch: stretch.frames, default=None)
    if voice is None:
        return None
    voice = replace(voice, heard_last=stretches[-1].last)
    if edge_db is None:
        return voice
    ours = [same_voice(p, pitch) for p in pitches] if pitches is not None else [True] * len(levels)
    edges = [level >= edge_db and mine for level, mine in zip(levels, ours)]
    last = _edge(edges, voice.last, 1)
    return replace(voice, first=_edge(edges, voice.first, -1), last=last, heard_last=max(last, voice.heard_last))


def stands_over_the_rest(levels: Sequence[float], voice: VoiceStretch, nearer_db: float = NEARER_DB) -> bool:
    """The stretch's mean power stands `nearer_db` over the rest of the utterance's (True
    where the stretch is all of it: nothing around it to stand over)."""
    inside = levels[voice.first : voice.last + 1]
    rest = [*levels[: voice.first], *levels[voice.last + 1 :]]
    return not rest or _mean_power_db(inside) - _mean_power_db(rest) >= nearer_db


def _mean_power_db(levels: Sequence[float]) -> float:
    return 10.0 * math.log10(sum(10.0 ** (level / 10.0) for level in levels) / len(levels) + 1e-12)


def _edge(voiced: Sequence[bool], at: int, step: int) -> int:
    """How far from `at` (in the direction of `step`) the voice's frames go on, with breaks
    of at most EDGE_GAP_FRAMES."""
    edge, i = at, at + step
    while 0 <= i < len(voiced) and abs(i - edge) <= EDGE_GAP_FRAMES + 1:
        if voiced[i]:
            edge = i
        i += step
    return edge
