"""Every game module follows host.engine.Game: its required parts are there, and the
optional ones, where a game leaves them out, come from GAME_DEFAULTS in one place."""

from __future__ import annotations

import types

import pytest

from host.engine import GAME_DEFAULTS, DeckEntry, Game
from host.games import game_ids, get_game, option

REQUIRED_METHODS = ("setup", "prompt", "apply", "scores", "grammar_slots")
REQUIRED = [name for name in Game.__annotations__ if name not in GAME_DEFAULTS]


def test_the_protocol_lists_every_part_once():
    assert set(REQUIRED) == {
        "ID",
        "TITLE",
        "MODES",
        "DEALS",
        "MIN_PLAYERS",
        "MAX_PLAYERS",
        "RULE_DEFAULTS",
        "RULES_SUMMARY",
    }
    assert set(GAME_DEFAULTS) <= set(Game.__annotations__)
    assert all(callable(getattr(Game, name)) for name in REQUIRED_METHODS)


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_has_the_required_parts(game_id):
    game = get_game(game_id)
    missing = [name for name in (*REQUIRED, *REQUIRED_METHODS) if not hasattr(game, name)]
    assert missing == []
    assert game.ID == game_id and game.MODES and game.DEALS
    assert isinstance(option(game, "DECK"), DeckEntry)


def test_a_game_without_the_optional_parts_gets_the_defaults():
    bare = types.ModuleType("bare")
    assert [option(bare, name) for name in GAME_DEFAULTS] == list(GAME_DEFAULTS.values())
    centurion = get_game("centurion")
    assert option(centurion, "hand_view") is centurion.hand_view
    assert option(centurion, "SOLO_MODE") in centurion.MODES
