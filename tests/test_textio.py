"""Typed play: a Keep Cool turn refused for two words keeps its clock running."""
from __future__ import annotations

import io
import time

from host.engine import Prompt
from partyhost.textio import TextEars

TURN = Prompt("keep-cool/word", "Ana", "", timeout=8.0)


def test_the_same_prompt_asked_again_at_once_gets_what_is_left_of_its_time():
    ears = TextEars(io.StringIO())
    assert ears._time_left(TURN) == 8.0
    time.sleep(0.05)
    left = ears._time_left(Prompt("keep-cool/word", "Ana", "", timeout=8.0))   # asked again
    assert 7.0 < left < 8.0


def test_another_prompt_or_a_passed_deadline_starts_a_fresh_clock():
    ears = TextEars(io.StringIO())
    ears._time_left(TURN)
    assert ears._time_left(Prompt("keep-cool/word", "Ben", "", timeout=8.0)) == 8.0   # next turn
    ears._timed = (TURN, time.monotonic() - 1)                                       # ran out
    assert ears._time_left(TURN) == 8.0
