"""The contract every game engine follows.

A game is a Game value: its module's pure functions and what else it has, named
(the GAME at the end of each host/games/*.py). The session loop never looks inside
a state: it asks for the current prompt, applies the player's intent, and narrates
the events that come back. Because `apply` is pure and the random generator lives
inside the state, replaying the journal of accepted actions from `setup` rebuilds
the exact same game, which is how undo and resume work.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from host.contract import Choice, Intent, Json, JsonObject, Narrow, Prompt
from host.decks import DeckEntry, Decks
from host.errors import PartyhostError
from host.views import HandView


class Action(Intent, total=False):
    """An Intent plus who said it: what the journal keeps and `apply` takes."""

    player: str | None


REDRAW = "redraw"
"""The journal's own move that no game sees: the game's random generator starts again
from the move's seed (left by an undo that had shown a draw, host/play.py)."""


class _Said(TypedDict):
    type: Literal["say"]  # spoken to everyone
    text: str


class SayEvent(_Said, total=False):
    read_out: bool  # what the rulebook has a player read out (bench pace counts it apart)


class _Private(TypedDict):
    type: Literal["private"]  # only `player` may know it
    player: str
    text: str


class PrivateEvent(_Private, total=False):
    by_owner: bool  # it tells the player only what they chose themselves: see crosses_reveal


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
    """An action the rules do not allow. `reason` is spoken to the players; `aside`, if
    any, only to the player who moved (it names their own secret cards), after it.

    `secret`: the reason itself tells something hidden ("You don't hold the ace of clubs"
    tells what a hand lacks). By voice the host cannot tell who spoke, so anyone may have
    said the move to learn that: to a spoken reply the table hears only what any reply
    the host could not read gets, and the reason (with the aside) goes privately to the
    player asked (host/clarifying.py, Clarifier.secret_refusal). Typed or pressed on a
    phone, the player is known and hears the reason as any other."""

    def __init__(self, reason: str, aside: str = "", secret: bool = False):
        super().__init__(reason)
        self.reason, self.aside, self.secret = reason, aside, secret


class PlayerCountError(RuleError):
    """Too few or too many players for the game in its mode (check_player_count)."""


NARROW_LIST_MAX = 4
"""The most words the host lists in one narrowed question (numbers and places are said
as a span instead: "1 to 6")."""
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
"""Places in a hand, for choosing a card by its position without naming it."""


def narrow_numbers(
    question: str, values: Sequence[int], choose: Callable[[int], Intent], named: Callable[[int], str] = str
) -> Narrow:
    """A number among `values` as a Narrow: the values themselves (said as a span), or,
    beyond a dozen, their tens first ("0, 10, 20 and so on up to 100"), then the number
    (so any number is two answers away). `choose(n)` is the move (or part) for n;
    `named(n)` the yes or no question about it, without its question mark."""
    values = sorted(values)

    def part(numbers: Sequence[int]) -> Narrow:
        return Narrow(question, tuple(Choice(str(n), choose(n), f"{named(n)}?") for n in numbers))

    if len(values) <= 3 * NARROW_LIST_MAX:
        return part(values)
    tens: dict[int, list[int]] = {}
    for value in values:
        tens.setdefault(value // 10 * 10, []).append(value)
    return Narrow(
        f"{question.rstrip('?')}, in tens first?",
        tuple(
            Choice(str(ten), {}, f"From {group[0]} to {group[-1]}?", then=part(group))
            if len(group) > 1
            else part(group).choices[0]
            for ten, group in tens.items()
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
    rules: JsonObject = field(default_factory=dict)


S = TypeVar("S")
"""A game's state: its own value, which only its own functions look inside."""


@dataclass(frozen=True, eq=False)
class Game(Generic[S]):
    """A game, all its parts named: each module of host/games ends with its GAME, and
    host.games finds them. The session and the application know a game only as this.

    A value rather than a class to inherit from: a game is pure functions over its own
    state, so there is nothing to override, only parts to name. The parts with a
    default are optional; a game gives only those it has. Two games are equal only
    when they are the same one (eq=False).
    """

    id: str
    title: str
    modes: tuple[str, ...]  # first is the default
    deals: tuple[str, ...]  # subset of ("host", "table"); first is default
    min_players: int
    max_players: int
    rule_defaults: Mapping[str, object]  # the game's own rules (GameOptions.rules) and their defaults
    rules_summary: str  # spoken by "rules", in our own words
    setup: Callable[[GameOptions, Decks], tuple[S, list[Event]]]  # the first state and what the deal says
    prompt: Callable[[S], Prompt | None]  # None once the game is over
    apply: Callable[[S, Action], tuple[S, list[Event]]]
    scores: Callable[[S], str]  # spoken on "score"
    grammar_slots: Callable[[str, dict[str, Any]], dict[str, list[tuple[str, Any]]]]
    """The live slot lists of a prompt from its context alone (Prompt.slots):
    the accuracy benchmark rebuilds a live prompt's grammar from a manifest line."""

    order: int = 100  # where it comes in menus and lists
    deck: DeckEntry = DeckEntry()  # the deck it deals from
    unclear: dict[str, Intent] = field(default_factory=dict)
    """Prompt name -> the intent for speech not understood there (Prompt.unclear)."""
    info_intents: Collection[str] = ()  # intents that only tell (read my cards): not journalled
    solo_mode: str = ""  # the mode one person plays against the host ("": none)
    teams: bool = False  # whether players may be seated in teams (options.teams); False: refused
    help: dict[str, str] = field(default_factory=dict)  # prompt name -> what "help" says of the commands there
    hand_view: Callable[[S, str], HandView | None] | None = None
    """For games with secret hands: what `player`'s private phone page shows now,
    and only that (see HandView); None: the game has no secret hands."""
    hidden_hands: Callable[[GameOptions], bool] | None = None
    """Whether these options deal hands the host never says aloud, which only their holders
    may know (1%'s host deal): played through a speaker everyone hears, such a game needs
    each player's own screen, their phone page. None: the game deals no such hands (Keep
    It 100 reads the Slider's cards aloud)."""
    table_text: Callable[[S], str] | None = None
    """Everything face up on a real table, in full, for "read the table" (cards played,
    lines, other teams' cards, the last reveal); None: the scores stand in."""
    resumed: Callable[[S], list[Event]] | None = None
    """What a resumed game tells again before play goes on: each player's secret cards,
    privately, as the game's start gave them (Keep Cool's words), or the question in play
    (Keep It 100's card). None: nothing."""
    check_rules: Callable[[JsonObject], Mapping[str, object]] | None = None
    """The game's rules checked without a table (no players, the shipped decks), raising
    RuleError: the settings file's [rules.GAME] are checked so before any game starts.
    None: their types only (merge_rules)."""
    rules_before: Mapping[str, Json] = field(default_factory=dict)
    """For a rule key added later: the value that plays as the game did before the key
    existed, so a game saved then resumes as it began (partyhost/saved.py)."""
    rules_after: Callable[[dict[str, int], tuple[str, ...], JsonObject], JsonObject] | None = None
    """Rule values a new game takes from the same table's last game of the day, given
    that game's final scores, the new roster and the rules given (Keep It 100: its
    lowest scorer is the first Slider); None: the last game changes nothing."""


def evolve(state: Any) -> Any:
    """A private copy of a state for `apply` to change, keeping the input untouched
    (values marked host.unchanging.Unchanging are shared, not copied)."""
    return copy.deepcopy(state)


class GameRandom(random.Random):
    """A game's random generator, deep-copied through its state: the generic way copies
    the 625 numbers of that state one by one."""

    def __deepcopy__(self, memo: dict[int, Any]) -> GameRandom:
        clone = GameRandom(0)
        clone.setstate(self.getstate())
        return clone

    def __eq__(self, other: object) -> bool:
        """Equal when both would draw the same numbers: two states are the same game
        whichever copy of the generator they hold (a state is a value)."""
        return isinstance(other, GameRandom) and self.getstate() == other.getstate()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by its state, so never a key


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
    return GameRandom(seed)


def redraw_seed(seed: int, position: int) -> int:
    """A fresh seed for a redraw, fixed by the game's seed and the journal position of the
    undo that asked for it: a second undo at the same move draws differently again."""
    digest = hashlib.sha256(f"{seed}:{position}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@runtime_checkable
class Shuffles(Protocol):
    """A game state that draws with a generator of its own (every shipped game's)."""

    rng: random.Random


def apply_move(game: Game[Any], state: Any, action: Action) -> tuple[Any, list[Event]]:
    """One journaled move: the game's `apply`, or a REDRAW, which gives the state's
    generator (`state.rng`, where a game keeps one) a new seed and says nothing. Every
    replay of a journal goes through here, so it rebuilds the game exactly."""
    if action.get("intent") != REDRAW:
        return game.apply(state, action)
    if not isinstance(state, Shuffles):
        return state, []
    redrawn = evolve(state)
    redrawn.rng = new_rng(int(action["seed"]))
    return redrawn, []


def say(text: str, read_out: bool = False) -> SayEvent:
    """`read_out`: the host reads what the rulebook has a player read aloud (a card's
    question at Zero to 100's reveal); the words are the game's, not the host's."""
    return {"type": "say", "text": text, "read_out": True} if read_out else {"type": "say", "text": text}


def sound(name: str) -> SoundEvent:
    """name: one of your_turn, correct, wrong, buzzer, dice, drumroll, game_over, tick, win_card."""
    return {"type": "sound", "name": name}


def private(player: str, text: str, by_owner: bool = False) -> PrivateEvent:
    """Something only `player` may know (their cards): their phone page, or the terminal.
    `by_owner`: it only tells them back what they chose (a held pick), nothing new."""
    if by_owner:
        return {"type": "private", "player": player, "text": text, "by_owner": True}
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
    misheard card can still be taken back. So does any "private" event (a card just
    drawn or dealt, told to its new holder) except one marked by_owner: a team's own
    pick told back to it (Zero to 100).
    """
    return any(
        (event["type"] == "private" or event["type"] == "reveal") and not event.get("by_owner") for event in events
    )


def ends_game(events: list[Event]) -> bool:
    """Whether the move that gave these events ended the game (its game_over event)."""
    return any(event["type"] == "game_over" for event in events)


def cannot_take_back(events: list[Event]) -> bool:
    """Whether a misreading of the move that gave these events could stand for good:
    it crossed a reveal (undo refuses it, crosses_reveal), or it ended the game, after
    which nothing is corrected or undone (the session stops). A spoken one is acted on
    unasked only when read surely (host/clarifying.py SURE_TO_REVEAL)."""
    return crosses_reveal(events) or ends_game(events)


def players_needed(title: str, mode: str, low: int, high: int) -> str:
    """ "Keep It 100 basic needs 2 to 8 players": the one wording of how many may play a
    game in a mode (mode "": in any of its modes), for a refusal and the spoken menu alike."""
    wanted = str(low) if low == high else f"{low} to {high}"
    return f"{title} {mode} needs {wanted} player{'' if high == 1 else 's'}".replace("  ", " ")


def check_player_count(title: str, mode: str, players: tuple[str, ...], low: int, high: int) -> None:
    """The one rule of every game's setup: from `low` to `high` players in this mode, or
    RuleError in players_needed's words with the count given."""
    if not low <= len(players) <= high:
        raise PlayerCountError(f"{players_needed(title, mode, low, high)}, not {len(players)}.")


def join_names(names: list[str] | tuple[str, ...], conjunction: str = "and") -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy' for spoken sentences."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]
