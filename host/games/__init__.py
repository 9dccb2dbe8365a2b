"""The games: every module of this package is one, and ends with its GAME (host.engine.Game).

A game is its module here (ending with its GAME), its grammar (grammars/ID.yaml) and its
deck entry (the GAME's deck): nothing else names a game, so adding one means adding
those three.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from host.contract import Intent
    from host.engine import Game

__all__ = ["dealing", "game_ids", "get_game", "grammar_slots", "unclear_intent"]
"""The registry's functions. The game modules are not listed: a game is found by its id
(get_game), so adding one edits nothing here."""


@functools.cache
def _registry() -> dict[str, Game[Any]]:
    """Game id -> game, in each game's order (menus, --help, error messages).

    Found when first asked for, not on import: importing this package stays light (the
    engine, and through it the deck loaders, come with the games)."""
    from host.engine import Game

    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = module.GAME
        if not isinstance(game, Game):
            raise TypeError(f"{module.__name__}.GAME is not a host.engine.Game")
        found.append(game)
    found.sort(key=lambda g: (g.order, g.id))
    return {game.id: game for game in found}


def game_ids() -> tuple[str, ...]:
    """Every game's id, in their listing order."""
    return tuple(_registry())


def get_game(game_id: str) -> Game[Any]:
    """The game of a game id; KeyError with the known ids if unknown."""
    games = _registry()
    if game_id not in games:
        raise KeyError(f"unknown game {game_id!r}; choose one of: {', '.join(games)}")
    return games[game_id]


def dealing(kind: str) -> tuple[str, ...]:
    """The ids of the games dealt from a deck of this kind ("questions", "words" ...)."""
    return tuple(game_id for game_id, game in _registry().items() if game.deck.kind == kind)


def grammar_slots(prompt_name: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    """The live slot lists of any prompt ("game/name"), from its context alone.

    The accuracy benchmark has only a manifest's prompt name and context, and must
    build exactly the grammar a live game would. "common/..." prompts have no live
    lists, except the names of {"roster": [...]} (common/name).
    """
    game_id = prompt_name.split("/", 1)[0]
    if game_id == "common":
        roster = context.get("roster") or []
        return {"roster": [(name, name) for name in roster]} if roster else {}
    return get_game(game_id).grammar_slots(prompt_name, context)


def unclear_intent(prompt_name: str) -> Intent | None:
    """What a live game does with speech not understood at this prompt (Prompt.unclear):
    the game's unclear table, or None (the host asks again)."""
    game_id = prompt_name.split("/", 1)[0]
    if game_id == "common":
        return None
    found = get_game(game_id).unclear.get(prompt_name)
    return found.copy() if found else None
