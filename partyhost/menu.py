"""The spoken menu: which game, how many players and, through a voice assistant, who. For a
box with no keyboard, or Home Assistant's Assist.

It uses the same ears and mouth as a game (the ears understand each reply), at the
shared prompts common/menu and common/number, and returns a choice; the command line then
starts that game exactly as `partyhost play` would. The commands a game understands at any
prompt ("what can I say", "repeat", "go back", "quit" ...) are answered here too, as
partyhost/menu_commands.py says. With a wake word and a microphone, the box rests first:
it says how to wake it and listens only for the word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from host.announcer import Mouth
from host.awaiting import Ears
from host.common_commands import COMMON_INTENTS
from host.contract import Prompt, Verdict
from host.engine import Game, join_names, players_needed
from host.games import game_ids, get_game
from partyhost.menu_commands import MenuStep, Next, answer_command
from partyhost.player_names import names_heard, numbered

ATTEMPTS = 4
"""Replies not understood before the menu gives up; a command answered is not one."""
NAME_TRIES = 2
"""Replies to "who's playing?" that could not be read before the players are numbered."""
NAMES_PROMPT = "common/name"
EXAMPLE_NAMES = ("Ana", "Ben", "Cy", "Dee")
"""The names are read from the reply's words; the prompt's grammar hears the commands."""
GREETING = "Hello! I'm your party host."


@dataclass(frozen=True)
class MenuChoice:
    game: str
    players: tuple[str, ...]
    mode: str


@dataclass(frozen=True)
class Question:
    """One question of the menu: what is asked, the intent that answers it and its field."""

    prompt: Prompt
    intent: str
    field: str
    step: MenuStep


def run_menu(ears: Ears, mouth: Mouth) -> MenuChoice | None:
    """Ask until answered; None when the players quit or the input ends."""
    if not sleep_until_woken(ears, mouth):
        return None
    mouth.say(GREETING)
    while True:
        game_id = _ask(ears, mouth, _game_question())
        if not isinstance(game_id, str):
            return None
        game = get_game(game_id)
        players = _ask_players(ears, mouth, game)
        if players is Next.BACK:
            continue
        if not isinstance(players, tuple):
            return None
        count = len(players)
        solo_mode = game.solo_mode
        mode = solo_mode if solo_mode and count == 1 else game.modes[0]
        mouth.say(
            f"Great: {game.title} for {count}. "
            + (
                "You play against me."
                if mode == solo_mode
                else f"Going round the table, you are {join_names(players)}."
            )
        )
        return MenuChoice(game_id, players, mode)


def _game_question() -> Question:
    titles = join_names([get_game(g).title for g in game_ids()], "or")
    examples = f'Say the game you want: {titles}. For example: "let\'s play keep cool".'
    prompt = Prompt(
        "common/menu", None, f"Which game shall we play? {titles}.", choices=("let's play keep cool", "centurion")
    )
    return Question(prompt, "choose_game", "game", MenuStep(examples))


def _ask_count(ears: Ears, mouth: Mouth, game: Game[Any]) -> int | Next | None:
    """How many play, within the game's limits; Next.BACK to choose another game."""
    low, high = game.min_players, game.max_players
    examples = f'Say how many of you are playing, a number from {low} to {high}: for example "{low}".'
    question = Question(
        Prompt(
            "common/number",
            None,
            f"{game.title}. How many players? From {low} to {high}.",
            choices=(str(low), str(high)),
        ),
        "number",
        "value",
        MenuStep(examples, rules=game.rules_summary, can_go_back=True),
    )
    while True:
        count = _ask(ears, mouth, question)
        if not isinstance(count, int) or low <= count <= high:
            return count
        mouth.say(f"{players_needed(game.title, '', low, high)}.")


def _ask_players(ears: Ears, mouth: Mouth, game: Game[Any]) -> tuple[str, ...] | Next | None:
    """How many play, then, where the ears can take names, who: the players, numbered where
    their names are not asked or not given; Next.BACK to choose another game."""
    while True:
        count = _ask_count(ears, mouth, game)
        if not isinstance(count, int):
            return count
        if not takes_names(ears):
            return numbered(count)
        names = _ask_names(ears, mouth, count)
        if names is not Next.BACK:
            return names


@runtime_checkable
class TranscriptEars(Protocol):
    """Ears that hand over each reply's words as they were said (a voice assistant's
    transcript, partyhost/conversation.py), whatever the prompt's grammar."""

    takes_names: bool


def takes_names(ears: Ears) -> bool:
    """Whether the ears hand over a reply's words as they were said, so names can be read
    from them: a voice assistant's transcript (partyhost/conversation.py). A recogniser
    steered by the prompt's grammar (a microphone at the table) cannot spell a name it does
    not know, so there the players are numbered without being asked."""
    return isinstance(ears, TranscriptEars) and ears.takes_names


def _ask_names(ears: Ears, mouth: Mouth, count: int) -> tuple[str, ...] | Next | None:
    """The players' names (partyhost/player_names.py reads them); asked twice at most, then
    the players are numbered, and told why. Next.BACK to say how many play again."""
    question = "Who's playing? Say your name." if count == 1 else "Who's playing? Say your names."
    example = join_names(EXAMPLE_NAMES[:count]) if count <= len(EXAMPLE_NAMES) else ", ".join(EXAMPLE_NAMES) + " ..."
    step = MenuStep(
        f'Say {"your name" if count == 1 else "the names of all the players"}, for example "{example}". '
        'Or say "skip", and I\'ll number you.',
        can_go_back=True,
    )
    prompt = Prompt(NAMES_PROMPT, None, question, choices=(example, "skip"))
    tries = 0
    while True:
        mouth.say(prompt.text)
        heard = ears.hear(prompt)
        if heard is None:
            return None
        intent = heard.intent
        if intent and intent["intent"] in COMMON_INTENTS and heard.verdict is Verdict.ACT:
            after = answer_command(intent["intent"], step, mouth)
            if after is not Next.ASK_AGAIN:
                return None if after is Next.QUIT else after
            continue
        names = names_heard(heard.text, count)
        if names.names:
            return names.names
        tries += 1
        if tries >= NAME_TRIES:
            mouth.say(f"{names.problem} I'll number you.")
            return numbered(count)
        mouth.say(f'{names.problem} Say {"it" if count == 1 else "them"} once more, or say "skip".')


@runtime_checkable
class SleepsUntilWake(Protocol):
    """Ears that may have a wake word (voice.listening.ears.VoiceEars): with one, they
    can wait, hearing nothing else, until it is said."""

    @property
    def wake_phrase(self) -> str | None:
        """The wake word as said ("hey host"); None when it is off."""
        ...

    def sleep_until_wake(self) -> bool:
        """True once the wake word was heard; False if the input ended first."""
        ...


def sleep_until_woken(ears: Ears, mouth: Mouth) -> bool:
    """A box at rest: ears with a wake word (voice/listening/wake.py) wait for it, after saying
    so aloud and on the terminal; other ears (typed, or wake_word = "off") go on at once.
    False if the input ended first."""
    if not isinstance(ears, SleepsUntilWake) or ears.wake_phrase is None:
        return True
    mouth.say(f"Ready. Say {ears.wake_phrase} when you want to play.")
    return ears.sleep_until_wake()


def _ask(ears: Ears, mouth: Mouth, question: Question) -> Any:
    """The answer's field; Next.BACK when a player went back a step; None when they quit,
    the input ended or ATTEMPTS replies in a row were not understood. A common command is
    answered (partyhost/menu_commands.py) and the question asked again."""
    prompt, misses = question.prompt, 0
    while misses < ATTEMPTS:
        mouth.say(prompt.text)
        heard = ears.hear(prompt)
        if heard is None:
            return None
        intent = heard.intent
        if intent and intent["intent"] == question.intent:
            return intent[question.field]
        if intent and intent["intent"] in COMMON_INTENTS:
            after = answer_command(intent["intent"], question.step, mouth)
            if after is not Next.ASK_AGAIN:
                return None if after is Next.QUIT else after
            continue
        misses += 1
        mouth.say(
            "Sorry, I didn't catch that. You can say, for example: "
            + join_names([f'"{c}"' for c in prompt.choices], "or")
            + "."
        )
    mouth.say("Let's try again later. Goodbye!")
    return None
