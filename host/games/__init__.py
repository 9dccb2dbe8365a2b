"""The games: every module of this package that has an ID is one (see host.engine.Game).

A game is its module here, its grammar (grammars/ID.yaml) and its deck entry (the
module's DECK): nothing else names a game, so adding one means adding those three.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType
from typing import Any

from host.engine import GAME_DEFAULTS

__all__ = ["GAME_IDS", "dealing", "game_ids", "get_game", "grammar_slots", "option", "unclear_intent"]
"""The registry's functions. The game modules are not listed: a game is found by its ID
(get_game), so adding one edits nothing here."""

GAME_IDS: tuple[str, ...]
"""Every game's id (game_ids()), found when first asked for: see __getattr__ below."""


@functools.cache
def _registry() -> dict[str, ModuleType]:
    """Game id -> module, in each game's ORDER (menus, --help, error messages)."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if isinstance(getattr(module, "ID", None), str):
            found.append(module)
    found.sort(key=lambda m: (option(m, "ORDER"), m.ID))
    return {module.ID: module for module in found}


def game_ids() -> tuple[str, ...]:
    """Every game's id, in their listing order."""
    return tuple(_registry())


def get_game(game_id: str) -> ModuleType:
    """The engine module of a game id; KeyError with the known ids if unknown."""
    games = _registry()
    if game_id not in games:
        raise KeyError(f"unknown game {game_id!r}; choose one of: {', '.join(games)}")
    return games[game_id]


def option(game: Any, name: str) -> Any:
    """An optional part of a game (ORDER, DECK, UNCLEAR, INFO_INTENTS ...), or its
    default from host.engine.GAME_DEFAULTS when the game leaves it out."""
    return getattr(game, name, GAME_DEFAULTS[name])


def dealing(kind: str) -> tuple[str, ...]:
    """The ids of the games dealt from a deck of this kind ("questions", "words" ...)."""
    return tuple(game_id for game_id, game in _registry().items() if option(game, "DECK").kind == kind)


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


def unclear_intent(prompt_name: str) -> dict[str, Any] | None:
    """What a live game does with speech not understood at this prompt (Prompt.unclear):
    the game module's UNCLEAR table, or None (the host asks again)."""
    game_id = prompt_name.split("/", 1)[0]
    if game_id == "common":
        return None
    found = option(get_game(game_id), "UNCLEAR").get(prompt_name)
    return dict(found) if found else None


def __getattr__(name: str) -> Any:
    """GAME_IDS, found when first asked for: finding the games imports their modules,
    which import host.decks, which asks this package which games deal questions."""
    if name == "GAME_IDS":
        return game_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
