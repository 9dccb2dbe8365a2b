"""What a new game is asked to be (GameSetup), how it listens and speaks (IOChoice), and the
game policy that turns them into a game's options: stand-in players, the rules that depend
on how players answer, and a refusal of the options explained with the flag that fixes it.

Values only: nothing here opens a file, a device or the journal (partyhost/games_folder.py does).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.contract import JsonObject
from host.engine import Game, GameOptions, PlayerCountError, RuleError
from host.journal import Journal
from partyhost.config import Settings
from partyhost.player_names import numbered

if TYPE_CHECKING:
    from partyhost.voiceio import Opener


@dataclass(frozen=True)
class GameSetup:
    """A new game as the players asked for it; what is not given takes the game's default."""

    game: str | None = None
    """None: the spoken menu asks which game, who plays and the mode."""
    players: tuple[str, ...] = ()
    teams: tuple[tuple[str, ...], ...] = ()
    mode: str | None = None
    deal: str | None = None
    seed: int | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    question_decks: tuple[Path, ...] = ()
    word_decks: tuple[Path, ...] = ()
    card_deck: Path | None = None


@dataclass(frozen=True)
class IOChoice:
    """How a game listens and speaks: each value over the settings file's (None: the settings')."""

    input: str | None = None
    output: str | None = None
    input_device: str | None = None
    output_device: str | None = None
    backend: str | None = None
    voice: str | None = None
    show_private: bool | None = None
    phones: bool | None = None
    phones_port: int | None = None
    phones_bind: str | None = None
    events: Path | None = None
    """Also write the event log here (checked before anything is saved)."""
    opener: Opener | None = None
    """Other ears and a mouth than the settings' (partyhost serve's conversation)."""
    hidden_hands_on_phones: bool = False
    """Everyone hears the host (partyhost serve): a game dealing hands only their holders may
    know (Game.hidden_hands) opens its phone pages, or is refused when it cannot."""

    def overrides(self) -> JsonObject:
        """The settings this choice sets, as the settings file names them."""
        names = ("input", "output", "input_device", "output_device", "backend", "voice", "show_private")
        return {name: getattr(self, name) for name in (*names, "phones", "phones_port", "phones_bind")}


SPOKEN = IOChoice(input="mic", output="speaker")
"""Spoken play whatever the settings' input and output (partyhost serve): its rules for speech
apply, and a resume at the box is by voice."""


SPEECH_RULES = {"several_words": "clue"}
"""Rule values for spoken play where the game has the rule and it is not given: a
recogniser may split one word in two ("a low" for "pillow"), so Keep Cool takes a
clue of two words as a clue by voice; typed, it says "one word"."""


PHONE_RULES = {"tiebreak_entry": "phone"}
"""Rule values when phone pages are on: Keep It 100's tied players type their numbers
on their own pages, so nobody hears them before the host reveals them together."""


def game_options(game: Game[Any], setup: GameSetup, settings: Settings) -> GameOptions:
    """The options of a new game: the given ones, else the game's defaults and stand-in players."""
    players = (
        setup.players
        or tuple(name for team in setup.teams for name in team)
        or numbered(max(game.min_players, min(3, game.max_players)))
    )
    return GameOptions(
        players=players,
        teams=setup.teams,
        mode=setup.mode or game.modes[0],
        deal=setup.deal or game.deals[0],
        seed=setup.seed if setup.seed is not None else int(time.time()) % 1_000_000,
        rules=input_rules(game, settings, {**settings.rules.get(game.id, {}), **setup.rules}),
    )


def input_rules(game: Game[Any], settings: Settings, rules: JsonObject) -> JsonObject:
    """The given rules, plus the defaults that depend on how players answer."""
    by_input = {**(SPEECH_RULES if settings.input != "text" else {}), **(PHONE_RULES if settings.phones else {})}
    return {**{key: value for key, value in by_input.items() if key in game.rule_defaults}, **rules}


def after_last_game(game: Game[Any], options: GameOptions, journal: Journal, group: str, now: float) -> GameOptions:
    """The options with what the same table's last finished game of the day decides
    (the game's `rules_after`: Keep It 100's first Slider is its lowest scorer); rules
    given win. The day is the machine's local calendar day."""
    follow = game.rules_after
    if follow is None:
        return options
    midnight = datetime.datetime.combine(datetime.date.fromtimestamp(now), datetime.time.min).timestamp()
    scores = journal.last_scores(game.id, group, midnight)
    if scores is None:
        return options
    return replace(options, rules={**options.rules, **follow(scores, options.players, options.rules)})


def explained(game: Game[Any], refused: RuleError, options: GameOptions, named: bool) -> str:
    """A refusal of the options, with the flag that fixes it where the rules name one; when
    no players were named, how to name them (the stand-in roster did not fit)."""
    reason = refused.reason
    if game.solo_mode and options.mode != game.solo_mode and isinstance(refused, PlayerCountError):
        return f"{reason} (one player: --mode {game.solo_mode})"
    if not named:
        solo = options.mode == game.solo_mode
        example = ",".join(("Ana", "Ben", "Cy", "Dee")[: 1 if solo else max(game.min_players, 2)])
        who = "the player" if solo else "the players"
        return f'{reason} Name {who} with --players, for example --players "{example}".'
    return reason
