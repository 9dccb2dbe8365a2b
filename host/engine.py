"""The contract every game engine follows.

An engine is a module-level object with four pure functions. The session loop
never looks inside a state: it asks for the current prompt, applies the player's
intent, and narrates the events that come back. Because `apply` is pure and the
random generator lives inside the state, replaying the journal of accepted actions
from `setup` rebuilds the exact same game, which is how undo and resume work.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

Action = dict[str, Any]
"""An Intent (see shared/specs/intents.md) plus the key "player": who said it."""

Event = dict[str, Any]
"""One event of the log in shared/specs/manifest.md: {"type": ..., ...fields}.

Engines emit: say {text}, private {player, text}, sound {name}, reveal {...},
score {player, delta, total, reason}, game_over {scores, winners}. The session
adds seq and t, and the prompt/heard/intent/rejected events itself.
"""


class RuleError(Exception):
    """An action the rules do not allow. `reason` is spoken to the players."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Prompt:
    """What the host asks now, of whom, and what answers make sense.

    name: "GAME/NAME" from intents.md (or "common/number" ...).
    player: who must answer; None when anyone may (a team, the table).
    text: the sentence spoken to ask.
    context: the intents.md context for this prompt (what the manifest carries).
    slots: live slot lists for the grammar: list name -> [(spoken text, value)].
    choices: short examples of what may be said, for "what can I say".
    timeout: seconds before the engine gets {"intent": "timeout"} (None: wait).
    """

    name: str
    player: str | None
    text: str
    context: dict[str, Any] = field(default_factory=dict)
    slots: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    choices: tuple[str, ...] = ()
    timeout: float | None = None


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


class Game(Protocol):
    """What the session needs from a game module (see host/games/*.py)."""

    ID: str
    TITLE: str
    MODES: tuple[str, ...]          # first is the default
    DEALS: tuple[str, ...]          # subset of ("host", "table"); first is default
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    RULE_DEFAULTS: dict[str, Any]
    RULES_SUMMARY: str              # spoken by "rules", in our own words

    def setup(self, options: GameOptions, decks: Any) -> tuple[Any, list[Event]]: ...
    def prompt(self, state: Any) -> Prompt | None: ...   # None once the game is over
    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...
    def scores(self, state: Any) -> str: ...            # spoken on "score"


def evolve(state: Any) -> Any:
    """A private copy of a state for `apply` to change, keeping the input untouched."""
    return copy.deepcopy(state)


def new_rng(seed: int) -> random.Random:
    """The one random generator of a game; kept in its state so replays repeat."""
    return random.Random(seed)


def say(text: str) -> Event:
    return {"type": "say", "text": text}


def sound(name: str) -> Event:
    """name: one of your_turn, correct, wrong, buzzer, dice, drumroll, game_over, tick, win_card."""
    return {"type": "sound", "name": name}


def private(player: str, text: str) -> Event:
    """Something only `player` may know (their cards): the phone page, later."""
    return {"type": "private", "player": player, "text": text}


def score(player: str, delta: int, total: int, reason: str) -> Event:
    return {"type": "score", "player": player, "delta": delta, "total": total, "reason": reason}


def game_over(scores: dict[str, int], winners: list[str]) -> Event:
    return {"type": "game_over", "scores": scores, "winners": winners}


def join_names(names: list[str] | tuple[str, ...], conjunction: str = "and") -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy' for spoken sentences."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]
