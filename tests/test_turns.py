"""The clock of a timed turn (voice/listening/turns.py), on the session clock of synthetic frames.

A stand-in endpointer hears speech exactly where the test puts it: it sees an
onset at the first voiced frame, confirms the utterance START_FRAMES frames later
(as the real one needs a few voiced frames) and ends it END_S after the speech.
Times are frame times, so every assertion is exact and deterministic.
"""

from __future__ import annotations

import numpy as np

from voice.audio_types import FRAME_SAMPLES, Frame, Utterance
from voice.listening.turns import listen_for_turn, tick_times

FRAME_S = 0.03
START_FRAMES = 4
END_S = 0.5


class ScriptedEndpointer:
    def __init__(self, speech: list[tuple[float, float]]):
        self.speech = speech
        self._onset: float | None = None
        self._voiced = 0
        self.in_speech = False

    def _interval(self, t: float):
        return next(((a, b) for a, b in self.speech if a <= t < b), None)

    def onset(self):
        return self._onset

    def push(self, frame: Frame):
        interval = self._interval(frame.t)
        if interval and self._onset is None:
            self._onset = interval[0]
        if interval:
            self._voiced += 1
            self.in_speech = self.in_speech or self._voiced >= START_FRAMES
        if self._onset is not None and not interval:
            start, end = next((a, b) for a, b in self.speech if a == self._onset)
            if frame.t >= end + END_S:
                self._onset, self._voiced, self.in_speech = None, 0, False
                return Utterance(np.zeros(1, np.float32), start, end)
        return None

    def flush(self):
        return None


def frames(from_t: float, until_t: float = 30.0):
    k = round(from_t / FRAME_S)
    while k * FRAME_S < until_t:
        yield Frame(np.zeros(FRAME_SAMPLES, np.float32), k * FRAME_S)
        k += 1


def test_ticks_once_a_second_in_the_last_seconds():
    assert tick_times(8.0, 3) == [5.0, 6.0, 7.0]
    assert tick_times(8.0, 2.5) == [5.0, 6.0, 7.0]
    assert tick_times(8.0, None) == [] and tick_times(8.0, 0) == []


def test_silence_times_out_at_the_deadline_with_three_ticks_before():
    played = []
    result = listen_for_turn(ScriptedEndpointer([]), frames(0.6), 0.6, 8.0, 3.0, played.append)
    assert result.timed_out and result.utterance is None
    assert played == ["tick"] * 3
    # frame-exact: each tick on the first frame that reaches past its time
    assert all(0 < t - (0.6 + k) <= FRAME_S + 1e-9 for (_, t), k in zip(result.cues, (5, 6, 7)))


def test_the_time_out_comes_on_the_first_frame_after_the_deadline():
    seen = []

    def stamped():
        for frame in frames(0.0):
            seen.append(frame.t)
            yield frame

    result = listen_for_turn(ScriptedEndpointer([]), stamped(), 0.0, 8.01)
    assert result.timed_out and 8.01 < seen[-1] + FRAME_S <= 8.01 + FRAME_S  # the frame 7.98-8.01 ...
    result = listen_for_turn(ScriptedEndpointer([]), stamped(), 0.0, 8.0)
    assert result.timed_out and 8.0 < seen[-1] + FRAME_S <= 8.0 + FRAME_S + 1e-9


def test_a_word_ends_the_turn_and_no_tick_plays_after_it():
    result = listen_for_turn(ScriptedEndpointer([(2.0, 2.6)]), frames(0.0), 0.0, 8.0, 3.0)
    assert not result.timed_out and (result.utterance.start, result.utterance.end) == (2.0, 2.6)
    assert result.cues == []


def test_no_tick_while_someone_speaks():
    result = listen_for_turn(ScriptedEndpointer([(5.8, 6.5)]), frames(0.0), 0.0, 8.0, 3.0)
    assert [round(t) for _, t in result.cues] == [5]  # 6 s falls inside the word
    assert result.utterance.start == 5.8


def test_a_word_across_the_buzzer_belongs_to_this_turn():
    result = listen_for_turn(ScriptedEndpointer([(7.7, 8.4)]), frames(0.0), 0.0, 8.0, 3.0)
    assert not result.timed_out and result.utterance.start == 7.7


def test_a_word_begun_just_before_the_buzzer_is_waited_for():
    # First voiced frame 30 ms before the deadline: the endpointer confirms it only
    # after the deadline, and it still belongs to this turn.
    result = listen_for_turn(ScriptedEndpointer([(7.965, 8.6)]), frames(0.0), 0.0, 8.0)
    assert not result.timed_out and result.utterance.start == 7.965


def test_a_word_begun_after_the_buzzer_is_not_this_turns():
    result = listen_for_turn(ScriptedEndpointer([(8.1, 8.6)]), frames(0.0), 0.0, 8.0)
    assert result.timed_out


def test_untimed_prompts_wait_for_speech():
    result = listen_for_turn(ScriptedEndpointer([(20.0, 20.5)]), frames(0.0), 0.0, None, 3.0)
    assert result.utterance.start == 20.0 and result.cues == []
