"""What the simulated players of `partyhost bench table` say: each line in the player's
voice at their level, and each repeat a new saying.

A person who says a line again says it anew: a little more slowly, and not at the same
pitch or loudness. Played the same audio again, a repeat would meet the recogniser's
same mistake every time, which makes a table look worse than it is, or, once a saying
is read right, better. So every repeat is a new synthesis (Piper's own variation, not
its cache), AGAIN_RATE as fast, moved in pitch and level by an amount drawn for that
player, line and repeat (the same on every run, so runs compare).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import numpy as np

from partyhost_lab.synthetic_speech import Voices, pitch_shifted
from voice.speaking.mixing import at_level

AGAIN_RATE = 0.9
"""A line said again is said this much more slowly, as people do."""
AGAIN_CENTS = (60.0, 200.0)
"""How far a repeat moves in pitch, up or down (a person's voice moves by a semitone or two)."""
AGAIN_DB = (-4.0, 3.0)
"""How much louder or quieter a repeat is (people lean in, or turn away)."""


@dataclass(frozen=True)
class Saying:
    """How one saying of a line differs from the first: its speed, pitch and level."""

    rate: float = 1.0
    cents: float = 0.0
    gain_db: float = 0.0


def saying(speaker: str, text: str, number: int) -> Saying:
    """The `number`th saying of a line (0: the first, as the voice says it)."""
    if number == 0:
        return Saying()
    draw = random.Random(f"{speaker}|{text}|{number}")
    cents = draw.uniform(*AGAIN_CENTS) * draw.choice((-1, 1))
    return Saying(AGAIN_RATE, round(cents), round(draw.uniform(*AGAIN_DB), 1))


class Speech:
    """What each player says, in their voice and at their level, each saying made once
    (one synthesiser shared by the tables playing at the same time, one line at a time)."""

    _speaking = threading.Lock()

    def __init__(self, voices: Voices, speakers: dict[str, str], levels: dict[str, float]):
        self.voices, self.speakers, self.levels = voices, speakers, levels
        self._made: dict[tuple[str, str, int], np.ndarray] = {}

    def __call__(self, speaker: str, text: str, number: int = 0) -> np.ndarray:
        """16 kHz audio of `speaker` saying `text` for the `number`th time (0: the first)."""
        key = (speaker, text, number)
        if key not in self._made:
            how = saying(speaker, text, number)
            with self._speaking:
                audio = self.voices.speak(self.speakers[speaker], text, how.rate, fresh=number > 0)
            self._made[key] = at_level(pitch_shifted(audio, how.cents), self.levels[speaker] + how.gain_db)
        return self._made[key]
