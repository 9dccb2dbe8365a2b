"""A table that plays through a voice assistant, for `partyhost bench serve`: what it says next.

It knows no game's rules. It reads the host's last answer: the menu's questions, a
yes-or-no, and the examples the host gives to "what can I say" (the same examples a
player hears), one of which it says as its move. Between moves it says the common
commands a table says mid-game (score, whose turn, repeat, undo), so every kind of
request is timed, the ones that change the game and the ones that do not.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from partyhost.served_games import PLAY_AGAIN

MENU_QUESTION = "Which game shall we play"
EXAMPLES = "You can say, for example:"
QUOTED = re.compile(r'"([^"]+)"')
PLAYERS = {
    "keep-it-100": "three",
    "zero-to-100": "four",
    "one-percent": "three",
    "centurion": "two",
    "keep-cool": "three",
}
SPOKEN_NAME = {
    "keep-it-100": "keep it 100",
    "zero-to-100": "zero to 100",
    "one-percent": "one percent",
    "centurion": "centurion",
    "keep-cool": "keep cool",
}
ASIDES = ("score", "whose turn", "repeat", "undo")
"""Commands said between moves; "undo" takes back the last move, so a game still ends."""


@dataclass(frozen=True)
class Words:
    """One request: what is said, and which kind of request it is (menu, move or command)."""

    text: str
    kind: str


class Player:
    """The whole table for one game, from naming it at the menu to its end."""

    def __init__(self, game: str, rng: random.Random, aside_every: int = 3):
        """`aside_every`: about one move in this many is followed by a command."""
        self.game, self.rng, self.aside_every = game, rng, aside_every
        self.started = False
        self.ended = False

    def first(self) -> Words:
        return Words(f"let's play {SPOKEN_NAME[self.game]}", "menu")

    def next(self, answer: str) -> Words:
        """What the table says to the host's `answer`; sets `ended` when the game's last line
        or the menu is back."""
        if answer.startswith("One moment"):
            return Words("repeat", "command")  # as the host asks: its answer is still coming
        if "How many players" in answer:
            return Words(PLAYERS[self.game], "menu")
        if "Who's playing" in answer:
            self.started = True
            return Words("skip", "menu")
        if self.started and (PLAY_AGAIN in answer or MENU_QUESTION in answer):
            self.ended = True
            return Words("", "menu")
        if "Yes or no" in answer or "Did you mean" in answer:
            return Words("yes", "move")  # an undo agreed to, a reading confirmed
        examples = examples_in(answer)
        if examples:
            return Words(self.rng.choice(examples), "move")
        if self.rng.randrange(self.aside_every) == 0:
            return Words(self.rng.choice(ASIDES), "command")
        return Words("what can I say", "command")


def examples_in(answer: str) -> list[str]:
    """The replies the host suggests in `answer` ("You can say, for example: ..."), if any."""
    if EXAMPLES not in answer:
        return []
    said = answer.split(EXAMPLES, 1)[1]
    ends = [i for i in (said.find('".'), said.find('"?')) if i >= 0]
    return QUOTED.findall(said[: min(ends) + 1] if ends else said)
