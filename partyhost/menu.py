"""The spoken menu: which game, how many players. For a box with no keyboard.

It uses the same ears and mouth as a game (the ears understand each reply), at the
shared prompts common/menu, common/number and common/yes_no, and returns a choice; the command
line then starts that game exactly as `partyhost play` would. With a wake word and a
microphone, the box rests first: it says how to wake it and listens only for the word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from host.contract import Prompt
from host.engine import join_names
from host.games import game_ids, get_game, option
from host.session import Ears, Mouth

ATTEMPTS = 4


@dataclass(frozen=True)
class MenuChoice:
    game: str
    players: tuple[str, ...]
    mode: str


def run_menu(ears: Ears, mouth: Mouth) -> MenuChoice | None:
    """Ask until answered; None when the players quit or the input ends."""
    if not sleep_until_woken(ears, mouth):
        return None
    titles = [get_game(g).TITLE for g in game_ids()]
    mouth.say(f"Hello! I'm your party host. Which game shall we play? {join_names(titles, 'or')}.")
    game_id = _ask(
        ears,
        mouth,
        Prompt("common/menu", None, "Which game shall we play?", choices=("let's play keep cool", "centurion")),
        "choose_game",
        "game",
    )
    if game_id is None:
        return None
    game = get_game(game_id)
    low, high = game.MIN_PLAYERS, game.MAX_PLAYERS
    count = None
    while count is None:
        count = _ask(
            ears,
            mouth,
            Prompt(
                "common/number",
                None,
                f"{game.TITLE}. How many players? From {low} to {high}.",
                choices=(str(low), str(high)),
            ),
            "number",
            "value",
        )
        if count is None:
            return None
        if not low <= count <= high:
            mouth.say(f"{game.TITLE} needs {low} to {high} players.")
            count = None
    players = tuple(f"Player {n}" for n in range(1, count + 1))
    solo_mode = option(game, "SOLO_MODE")
    mode = solo_mode if solo_mode and count == 1 else game.MODES[0]
    mouth.say(
        f"Great: {game.TITLE} for {count}. "
        + ("You play against me." if mode == solo_mode else f"Going round the table, you are {join_names(players)}.")
    )
    return MenuChoice(game_id, players, mode)


@runtime_checkable
class SleepsUntilWake(Protocol):
    """Ears with a wake word: they can wait, hearing nothing else, until it is said."""

    def sleep_until_wake(self) -> bool:
        """True once the wake word was heard; False if the input ended first."""
        ...


def sleep_until_woken(ears: Ears, mouth: Mouth) -> bool:
    """A box at rest: ears with a wake word (voice/listening/wake.py) wait for it, after saying
    so aloud and on the terminal; other ears (typed, or wake_word = "off") go on at once.
    False if the input ended first."""
    wake = getattr(ears, "wake", None)
    if wake is None:
        return True
    # Only ears with a wake word have one to sleep until (voice/listening/ears.py VoiceEars).
    assert isinstance(ears, SleepsUntilWake), "ears with a wake word can sleep until it"
    mouth.say(f"Ready. Say {wake.word.phrase} when you want to play.")
    return ears.sleep_until_wake()


def _ask(ears: Ears, mouth: Mouth, prompt: Prompt, intent_name: str, field: str):
    for _ in range(ATTEMPTS):
        mouth.say(prompt.text)
        heard = ears.hear(prompt)
        if heard is None:
            return None
        intent = heard.intent
        if intent and intent["intent"] == intent_name:
            return intent[field]
        if intent and intent["intent"] == "quit":
            return None
        mouth.say(
            "Sorry, I didn't catch that. You can say, for example: "
            + join_names([f'"{c}"' for c in prompt.choices], "or")
            + "."
        )
    mouth.say("Let's try again later. Goodbye!")
    return None
