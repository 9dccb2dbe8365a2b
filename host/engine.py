"""The contract every game engine follows.

An engine is a module-level object with four pure functions. The session loop
never looks inside a state: it asks for the current prompt, applies the player's
intent, and narrates the events that come back. Because `apply` is pure and the
random generator lives inside the state, replaying the journal of accepted actions
from `setup` rebuilds the exact same game, which is how undo and resume work.
"""

from __future__ import annotations

import copy
import math
import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict, TypeVar

from host.contract import Choice, Intent, Narrow, PartyhostError, Prompt


class Action(Intent, total=False):
    """An Intent plus who said it: what the journal keeps and `apply` takes."""

    player: str | None


class SayEvent(TypedDict):
    type: Literal["say"]  # spoken to everyone
    text: str


class PrivateEvent(TypedDict):
    type: Literal["private"]  # only `player` may know it
    player: str
    text: str


class SoundEvent(TypedDict):
    type: Literal["sound"]  # a cue by name
    name: str


class ScoreEvent(TypedDict):
    type: Literal["score"]
    player: str
    delta: int
    total: int
    reason: str


class GameOverEvent(TypedDict):
    type: Literal["game_over"]  # once, last
    scores: dict[str, int]
    winners: list[str]


class RevealEvent(TypedDict, total=False):
    type: Literal["reveal"]  # a hidden value becomes known
    player: str
    card: Any
    value: Any
    by_owner: bool  # its holder showed it by playing it: see crosses_reveal


class QuestionsUsedEvent(TypedDict):
    type: Literal["questions_used"]  # so a group gets new questions next time
    ids: list[str]


Event = SayEvent | PrivateEvent | SoundEvent | ScoreEvent | GameOverEvent | RevealEvent | QuestionsUsedEvent
"""What an engine emits (docs/specs/events.md). The session adds seq and t, and writes
the prompt/heard/intent/rejected events itself."""


class RuleError(PartyhostError):
    """An action the rules do not allow. `reason` is spoken to the players."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


NARROW_LIST_MAX = 7
"""The most choices the host reads out in one question."""


def narrow_numbers(
    question: str, values: Sequence[int], choose: Callable[[int], dict[str, Any]], named: Callable[[int], str] = str
) -> Narrow:
    """A number among `values` as a Narrow: the values themselves (read a few at a
    time), or, beyond three lists' worth, their tens first ("20 to 29"), then the
    number. `choose(n)` is the move (or part) for n; `named(n)` the yes or no
    question about it, without its question mark."""
    values = sorted(values)

    def part(numbers: Sequence[int]) -> Narrow:
        return Narrow(question, tuple(Choice(str(n), choose(n), f"{named(n)}?") for n in numbers))

    if len(values) <= 3 * NARROW_LIST_MAX:
        return part(values)
    tens: dict[int, list[int]] = {}
    for value in values:
        tens.setdefault(value // 10, []).append(value)
    return Narrow(
        question,
        tuple(
            Choice(f"{group[0]} to {group[-1]}", {}, then=part(group)) if len(group) > 1 else part(group).choices[0]
            for group in tens.values()
        ),
    )


@dataclass(frozen=True)
class GameOptions:
    """Everything chosen before the first card is dealt.

    rules holds the game's own parameters (suit values, timer seconds, jokers ...);
    each engine documents its keys and their defaults in `RULE_DEFAULTS`.
    """

    players: tuple[str, ...]
    teams: tuple[tuple[str, ...], ...] = ()
    mode: str = ""
    deal: str = "host"
    seed: int = 0
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DeckEntry:
    """Which deck a game deals from: with its module and its grammar, all a game is.

    kind: the Decks field it reads ("questions", "words", "bid_reward", "pack"), or
        "" for none. The command line passes --deck to "questions", --word-deck to
        "words" and --card-deck to the other two.
    file: the shipped file of decks/ it deals from when no other is given.
    min_cards: `partyhost decks check` wants at least this many of the game's cards
        in a question deck: enough for its biggest deal.
    """

    kind: str = ""
    file: str = ""
    min_cards: int = 0


class Game(Protocol):
    """What the session needs from a game module (see host/games/*.py).

    The attributes after `grammar_slots` are optional: host.games.option gives a
    game's own or the default in GAME_DEFAULTS.
    """

    ID: str
    TITLE: str
    MODES: tuple[str, ...]  # first is the default
    DEALS: tuple[str, ...]  # subset of ("host", "table"); first is default
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    RULE_DEFAULTS: dict[str, Any]
    RULES_SUMMARY: str  # spoken by "rules", in our own words

    def setup(self, options: GameOptions, decks: Any) -> tuple[Any, list[Event]]: ...
    def prompt(self, state: Any) -> Prompt | None: ...  # None once the game is over
    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...
    def scores(self, state: Any) -> str: ...  # spoken on "score"

    def grammar_slots(self, prompt: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
        """The live slot lists of a prompt from its context alone (Prompt.slots):
        the accuracy benchmark rebuilds a live prompt's grammar from a manifest line."""
        ...

    ORDER: int  # where it comes in menus and lists
    DECK: DeckEntry  # the deck it deals from
    UNCLEAR: dict[str, dict[str, Any]]  # prompt name -> intent for speech not understood
    INFO_INTENTS: Collection[str]  # intents that only tell (read my cards): not journalled
    SOLO_MODE: str  # the mode one person plays against the host ("": none)
    hand_view: Callable[[Any, str], HandView | None] | None
    """For games with secret hands: what `player`'s private phone page shows now,
    and only that (see HandView); None: the game has no secret hands."""
    HELP: dict[str, str]  # prompt name -> what "help" says of the commands there
    table_text: Callable[[Any], str] | None
    """Everything face up on a real table, in full, for "read the table" (cards played,
    lines, other teams' cards, the last reveal); None: the scores stand in."""
    check_rules: Callable[[dict[str, Any]], dict[str, Any]] | None
    """The game's rules checked without a table (no players, the shipped decks), raising
    RuleError: the settings file's [rules.GAME] are checked so before any game starts.
    None: their types only (merge_rules)."""


GAME_DEFAULTS: dict[str, Any] = {
    "ORDER": 100,
    "DECK": DeckEntry(),
    "UNCLEAR": {},
    "INFO_INTENTS": (),
    "SOLO_MODE": "",
    "hand_view": None,
    "HELP": {},
    "table_text": None,
    "check_rules": None,
}
"""What a game that leaves out an optional part of Game gets instead."""


@dataclass(frozen=True)
class CardView:
    """One card on its holder's phone page.

    play is the intent a button on the card sends when the card can be acted on
    right now by its holder (swap it, play it), else None; play_label names that
    button for a screen reader ("Play the queen of hearts").
    """

    label: str  # "piano", "queen of hearts", "clover 4"
    detail: str = ""  # "card 1", "worth 36"
    play: dict[str, Any] | None = None
    play_label: str = ""


@dataclass(frozen=True)
class NumberEntry:
    """A number typed on the player's own page, sent as `intent` with `slot` = the number:
    a tiebreak guess no one else hears before the host reveals them all together."""

    label: str  # "Your tiebreak number"
    intent: dict[str, Any]  # {"intent": "number"}
    slot: str  # "value"
    low: int = 0
    high: int = 100


@dataclass(frozen=True)
class HandView:
    """What one player's private page shows: their own cards and nothing secret of anyone else.

    A pure function of the state, so after a restart the replayed state gives every
    player the same page again. spoken is what the page's "Read me my cards" button
    reads aloud on the phone; facts are short lines about the hand (who guesses your
    words, cards won); actions are extra buttons (label, intent) valid right now;
    markable lets the player mark cards on the page (Keep Cool: "I am cluing this"),
    which stays on the page and never reaches the game.
    """

    heading: str
    cards: tuple[CardView, ...]
    spoken: str
    facts: tuple[str, ...] = ()
    actions: tuple[tuple[str, dict[str, Any]], ...] = ()
    markable: bool = False
    number: NumberEntry | None = None


def evolve(state: Any) -> Any:
    """A private copy of a state for `apply` to change, keeping the input untouched."""
    return copy.deepcopy(state)


T = TypeVar("T")


def required(value: T | None, what: str) -> T:
    """A part of a game's state that its phase promises is set (the challenge while
    votes are taken, the reward turn while rewards are chosen). Missing, it is a bug
    of the engine, not a player's mistake: so no RuleError, nothing to say to them."""
    if value is None:
        raise RuntimeError(f"the game has no {what} in this phase")
    return value


def new_rng(seed: int) -> random.Random:
    """The one random generator of a game; kept in its state so replays repeat."""
    return random.Random(seed)


def say(text: str) -> SayEvent:
    return {"type": "say", "text": text}


def sound(name: str) -> SoundEvent:
    """name: one of your_turn, correct, wrong, buzzer, dice, drumroll, game_over, tick, win_card."""
    return {"type": "sound", "name": name}


def private(player: str, text: str) -> PrivateEvent:
    """Something only `player` may know (their cards): their phone page, or the terminal."""
    return {"type": "private", "player": player, "text": text}


def score(player: str, delta: int, total: int, reason: str) -> ScoreEvent:
    return {"type": "score", "player": player, "delta": delta, "total": total, "reason": reason}


def game_over(scores: dict[str, int], winners: list[str]) -> GameOverEvent:
    return {"type": "game_over", "scores": scores, "winners": winners}


def crosses_reveal(events: list[Event]) -> bool:
    """Whether taking back the move that gave these events would let a move be made
    again by someone who has seen what was hidden (docs/rules.md, "In every game").

    Any "reveal" counts (a question's answer, a roll, the host's card, a tiebreak
    number) except one marked by_owner: a card its holder laid face up by their own
    choice (Centurion between two people), which taught the mover nothing, so a
    misheard card can still be taken back. So does any "private" event: a card just
    drawn or dealt, told to its new holder.
    """
    return any(
        event["type"] == "private" or event["type"] == "reveal" and not event.get("by_owner") for event in events
    )


def join_names(names: list[str] | tuple[str, ...], conjunction: str = "and") -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy' for spoken sentences."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
RULE_TYPES = (bool, int, float, str)  # bool first: a bool is also an int


def merge_rules(title: str, defaults: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """`given` over a copy of `defaults`, each value in its default's type.

    Rules come from the command line or a saved config, often as text ("12",
    "on"); every engine needs the same checks, so they live here and speak the
    same way. A value whose default is bool, int, float or str is converted with
    `convert_rule`. Where the default is None, a dict or a list, the value passes
    through unchanged: only the engine knows its shape (suit values, starters,
    "ask the players"). Ranges and allowed choices stay in the engines too.
    """
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        noun = "rule" if len(unknown) == 1 else "rules"
        raise RuleError(
            f"{title} has no {noun} called {join_names(unknown)}. Its rules are: {join_names(list(defaults))}."
        )
    rules = copy.deepcopy(dict(defaults))
    for key, value in given.items():
        kind = next((k for k in RULE_TYPES if isinstance(defaults[key], k)), None)
        rules[key] = value if kind is None else convert_rule(key, value, kind)
    return rules


def convert_rule(key: str, value: Any, kind: type) -> Any:
    """One rule value as `kind` (bool, int, float or str), accepting it as text.

    Engines also call it for values merge_rules leaves alone: a rule whose default
    is None, or the numbers inside a list. A value that cannot be read that way
    raises RuleError with a reason fit to be spoken.
    """
    text = value.strip() if isinstance(value, str) else None
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is bool:
        if isinstance(value, bool):
            return value
        word = text.lower() if text is not None else str(value) if is_number else ""
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise RuleError(f"The rule {key} must be true or false.")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)  # 3.0, as a JSON config or a speech matcher may give it
        if text is not None and re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        raise RuleError(f"The rule {key} must be a whole number.")
    if kind is float:
        number = float(value) if is_number else _float_or_none(text)
        if number is None or not math.isfinite(number):
            raise RuleError(f"The rule {key} must be a number.")
        return number
    if kind is str:
        if text is not None:
            return text
        if is_number:
            return str(value)  # a name such as 7, which a command line reads as a number
        raise RuleError(f"The rule {key} must be a word or a name.")
    raise TypeError(f"convert_rule cannot make a {kind.__name__}")


def _float_or_none(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None
