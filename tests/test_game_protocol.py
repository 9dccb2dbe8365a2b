"""Every game module ends with its host.engine.Game, which the registry finds: each
names its required parts, and the optional ones it leaves out take Game's defaults."""

from __future__ import annotations

import dataclasses

import pytest

from host.decks import DeckEntry
from host.engine import Game
from host.games import game_ids, get_game

REQUIRED = [f.name for f in dataclasses.fields(Game) if f.default is f.default_factory is dataclasses.MISSING]


def test_a_game_names_these_parts_without_defaults():
    assert REQUIRED == [
        "id",
        "title",
        "modes",
        "deals",
        "min_players",
        "max_players",
        "rule_defaults",
        "rules_summary",
        "setup",
        "prompt",
        "apply",
        "scores",
        "grammar_slots",
    ]


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_is_found_by_its_id_with_its_parts(game_id):
    game = get_game(game_id)
    assert isinstance(game, Game)
    assert game.id == game_id and game.modes and game.deals
    assert all(callable(part) for part in (game.setup, game.prompt, game.apply, game.scores, game.grammar_slots))
    assert isinstance(game.deck, DeckEntry)


def test_a_game_without_the_optional_parts_gets_the_defaults():
    centurion = get_game("centurion")
    bare = Game(**{name: getattr(centurion, name) for name in REQUIRED})
    assert (bare.order, bare.deck, bare.unclear, bare.info_intents) == (100, DeckEntry(), {}, ())
    assert (bare.solo_mode, bare.teams, bare.help, bare.rules_before) == ("", False, {}, {})
    assert bare.hand_view is bare.table_text is bare.resumed is bare.check_rules is bare.rules_after is None
    assert centurion.hand_view is not None and centurion.solo_mode in centurion.modes
