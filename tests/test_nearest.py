"""The nearest voice within an utterance (voice/listening/nearest.py): its stretches, the
one with the most voice, its edges, and whether it stands over the talk around it."""

from __future__ import annotations

import numpy as np

from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE
from voice.listening.nearest import (
    VoiceStretch,
    nearest_voice,
    pitch_hz,
    same_voice,
    stands_over_the_rest,
    voice_stretches,
)

TALK, VOICE, SOFT = -40.0, -25.0, -33.0
LINE, EDGE = -30.0, -36.0


def test_frames_over_the_line_make_stretches_joined_across_short_pauses():
    levels = [TALK] * 3 + [VOICE] * 4 + [TALK] * 2 + [VOICE] * 3 + [TALK] * 6 + [VOICE] * 2
    assert voice_stretches(levels, LINE, gap_frames=3) == [VoiceStretch(3, 11, 7), VoiceStretch(18, 19, 2)]
    assert voice_stretches(levels, LINE, gap_frames=1) == [
        VoiceStretch(3, 6, 4),
        VoiceStretch(9, 11, 3),
        VoiceStretch(18, 19, 2),
    ]
    assert voice_stretches([TALK] * 10, LINE, gap_frames=3) == []


def test_the_stretch_with_the_most_voice_is_the_nearest_one():
    moment = [VOICE] * 2  # a talker louder for a moment
    reply = [VOICE] * 5
    levels = [TALK] * 2 + moment + [TALK] * 8 + reply + [TALK] * 8
    assert nearest_voice(levels, LINE, gap_frames=4) == VoiceStretch(12, 16, 5, heard_last=16)
    assert nearest_voice([TALK] * 10, LINE, gap_frames=4) is None


def test_its_edges_follow_the_voice_down_past_short_breaks_but_not_into_the_talk():
    # a soft first word, a break the length of a stop consonant, the loud part, a soft end
    levels = [TALK] * 4 + [SOFT] * 3 + [TALK] * 2 + [VOICE] * 5 + [SOFT] * 2 + [TALK] * 5 + [SOFT] + [TALK] * 3
    voice = nearest_voice(levels, LINE, gap_frames=3, edge_db=EDGE)
    assert voice == VoiceStretch(4, 15, 5, heard_last=15)  # the soft words kept; the talk's frame 5 on is not
    assert nearest_voice(levels, LINE, gap_frames=3) == VoiceStretch(9, 13, 5, heard_last=13)  # edges not followed


def test_a_voice_stands_over_the_rest_of_its_utterance_only_when_nearer_than_the_talk():
    voice = VoiceStretch(3, 6, 4)
    near = [TALK] * 3 + [TALK + 10] * 4 + [TALK] * 3
    about_as_loud = [TALK] * 3 + [TALK + 4] * 4 + [TALK + 2] * 3
    assert stands_over_the_rest(near, voice)
    assert not stands_over_the_rest(about_as_loud, voice)
    assert stands_over_the_rest([VOICE] * 4, VoiceStretch(0, 3, 4))  # nothing around it


def voiced_frame(f0: float) -> np.ndarray:
    """One frame of a voice-like sound: harmonics of `f0`."""
    t = np.arange(FRAME_SAMPLES) / SAMPLE_RATE
    return sum(np.sin(2 * np.pi * k * f0 * t) / k for k in range(1, 12)).astype(np.float32)


def test_a_frame_s_pitch_is_its_fundamental_and_noise_has_none():
    for f0 in (90.0, 120.0, 210.0, 330.0):
        assert pitch_hz(voiced_frame(f0)) == np.float64(SAMPLE_RATE / round(SAMPLE_RATE / f0)), f0
    hiss = np.random.default_rng(0).standard_normal(FRAME_SAMPLES).astype(np.float32)
    assert pitch_hz(hiss) is None
    assert pitch_hz(np.zeros(FRAME_SAMPLES, np.float32)) is None


def test_a_talker_at_another_pitch_going_on_after_the_voice_is_not_part_of_it():
    """As loud, right after the reply, but a fifth higher: the voice ends where it stops."""
    reply, talker = [VOICE] * 6, [VOICE - 2] * 6
    levels = [TALK] * 2 + reply + talker + [TALK] * 3
    pitches = [None] * 2 + [120.0, 118.0, 115.0, None, 112.0, 110.0] + [180.0] * 6 + [None] * 3
    voice = nearest_voice(levels, LINE, gap_frames=4, edge_db=EDGE, pitches=pitches)
    assert voice is not None and (voice.first, voice.last) == (2, 7)
    assert nearest_voice(levels, LINE, gap_frames=4, edge_db=EDGE) == VoiceStretch(2, 13, 12, heard_last=13)
    assert same_voice(None, 120.0) and same_voice(150.0, 120.0) and not same_voice(180.0, 120.0)
