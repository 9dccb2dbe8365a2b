"""The spoken menu: which game, how many players and, through a voice assistant, who. For a
box with no keyboard, or Home Assistant's Assist.

It uses the same ears and mouth as a game (the ears understand each reply), at the
shared prompts common/menu and common/number, and returns a choice; the command line then
starts that game exactly as `partyhost play` would. The commands a game understands at any
prompt ("what can I say", "repeat", "go back", "quit" ...) are answered here too, as
partyhost/menu_commands.py says, and "resume" offers the saved games. With a wake word and
a microphone, the box rests first: it says how to wake it and listens only for the word.
Through a voice assistant, which speaks only as an answer, the menu hears the request
before it greets: a game named at once is taken, and the greeting waits for a request
that names none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from host.announcer import Mouth
from host.awaiting import Ears
from host.common_commands import COMMON_INTENTS
from host.contract import Prompt, Understood
from host.engine import Game, join_names, players_needed
from host.games import game_ids, get_game
from host.reply_policy import acts
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
SAVED_LISTED = 4
"""Saved games read out at "resume", newest first; older ones are listed by `partyhost sessions`."""


@dataclass(frozen=True)
class MenuChoice:
    game: str
    players: tuple[str, ...]
    mode: str
    resume: str = ""
    """The id of a saved game to resume instead of a new one ("resume" at the menu)."""


@dataclass(frozen=True)
class WaitingGame:
    """An unfinished game "resume" offers: its id, its game and title, and its players."""

    session_id: str
    game: str
    title: str
    players: tuple[str, ...]

    @property
    def spoken(self) -> str:
        return f"{self.title} with {join_names(self.players)}"


@dataclass(frozen=True)
class Question:
    """One question of the menu: what is asked, the intent that answers it and its field."""

    prompt: Prompt
    intent: str
    field: Literal["game", "index", "value"]  # the field of the intent that holds the answer
    step: MenuStep
    short: str = ""
    """The question without its choices, asked after "what can I say" or "help" named them
    ("": the prompt's whole text)."""


def run_menu(ears: Ears, mouth: Mouth, waiting: Sequence[WaitingGame] = ()) -> MenuChoice | None:
    """Ask until answered; None when the players quit or the input ends. `waiting`: the
    unfinished games, newest first, that "resume" offers."""
    if not sleep_until_woken(ears, mouth):
        return None
    question = _game_question(len(waiting))
    first = None
    if listens_first(ears):
        first = ears.hear(question.prompt)
        if first is None:
            return None
        if not _answers(first, question):
            first = None  # a greeting or words not understood: the greeting answers them
    if first is None:
        mouth.say(GREETING)
    while True:
        game_id = _ask(ears, mouth, question, first)
        first = None
        if game_id is Next.RESUME:
            saved = _ask_saved(ears, mouth, waiting)
            if isinstance(saved, WaitingGame):
                return MenuChoice(saved.game, saved.players, "", resume=saved.session_id)
            if saved is Next.BACK:
                continue
            return None
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


def _game_question(saved: int) -> Question:
    """Which game; `saved`: how many unfinished games "resume" may offer."""
    titles = join_names([get_game(g).title for g in game_ids()], "or")
    examples = f'Say the game you want: {titles}. For example: "let\'s play keep cool".'
    short = "Which game shall we play?"
    prompt = Prompt("common/menu", None, f"{short} {titles}.", choices=("let's play keep cool", "centurion"))
    return Question(prompt, "choose_game", "game", MenuStep(examples, saved=saved), short)


def _ask_saved(ears: Ears, mouth: Mouth, waiting: Sequence[WaitingGame]) -> WaitingGame | Next | None:
    """The saved game to resume: the only one at once, else the one chosen from the newest
    SAVED_LISTED, by number or by its game's name. Next.BACK: the game question again."""
    if len(waiting) == 1:
        return waiting[0]
    listed = list(waiting[:SAVED_LISTED])
    numbers = [str(n) for n in range(1, len(listed) + 1)]
    told = "; ".join(f"{n}, {game.spoken}" for n, game in zip(numbers, listed))
    newest = f"The newest {len(listed)} of {len(waiting)}" if len(waiting) > len(listed) else f"{len(listed)}"
    titles = [game.title for game in listed]
    by_title = [(title, i) for i, title in enumerate(titles) if titles.count(title) == 1]
    slots = {"choice": [(n, i) for i, n in enumerate(numbers)] + by_title}
    prompt = Prompt(
        "common/choice", None, f"{newest} saved games: {told}. Which one?", slots=slots, choices=(numbers[0], titles[0])
    )
    step = MenuStep(f"Say the number of the game to go on with, from 1 to {len(listed)}.", can_go_back=True)
    index = _ask(ears, mouth, Question(prompt, "choice", "index", step, "Which one?"))
    return listed[index] if isinstance(index, int) and 0 <= index < len(listed) else index


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
        "How many players?",
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
        if intent and intent["intent"] in COMMON_INTENTS and acts(heard):
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


@runtime_checkable
class ListensFirst(Protocol):
    """Ears that speak only as an answer (a voice assistant, partyhost/conversation.py): the
    menu hears the request before it says anything."""

    listens_first: bool


def listens_first(ears: Ears) -> bool:
    return isinstance(ears, ListensFirst) and ears.listens_first


def _answers(heard: Understood, question: Question) -> bool:
    """Whether a reply answers the question or is a command the menu answers."""
    intent = heard.intent
    return intent is not None and (intent["intent"] == question.intent or intent["intent"] in COMMON_INTENTS)


def _ask(ears: Ears, mouth: Mouth, question: Question, first: Understood | None = None) -> Any:
    """The answer's field; Next.BACK when a player went back a step, Next.RESUME when they
    asked to resume a saved game; None when they quit, the input ended or ATTEMPTS replies
    in a row were not understood. A common command is answered
    (partyhost/menu_commands.py) and the question asked again, in short where the answer
    named its choices. `first`: a reply heard already, before the question was asked."""
    prompt, misses = question.prompt, 0
    asking = prompt.text
    while misses < ATTEMPTS:
        heard = first
        first = None
        if heard is None:
            mouth.say(asking)
            heard = ears.hear(prompt)
        if heard is None:
            return None
        asking = prompt.text
        intent = heard.intent
        if intent and intent["intent"] == question.intent:
            return intent[question.field]
        if intent and intent["intent"] in COMMON_INTENTS:
            after = answer_command(intent["intent"], question.step, mouth)
            if after is not Next.ASK_AGAIN:
                return None if after is Next.QUIT else after
            if intent["intent"] in ("what_can_i_say", "help"):
                asking = question.short or prompt.text
            continue
        misses += 1
        mouth.say(
            "Sorry, I didn't catch that. You can say, for example: "
            + join_names([f'"{c}"' for c in prompt.choices], "or")
            + "."
        )
    mouth.say("Let's try again later. Goodbye!")
    return None
