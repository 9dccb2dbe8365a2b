"""One module per game; each follows host.engine.Game."""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

MODULES = {
    "keep-it-100": "keep_it_100",
    "zero-to-100": "zero_to_100",
    "keep-cool": "keep_cool",
    "one-percent": "one_percent",
    "centurion": "centurion",
}
GAME_IDS = tuple(MODULES)


def get_game(game_id: str) -> ModuleType:
    """The engine module of a game id; KeyError with the known ids if unknown."""
    if game_id not in MODULES:
        raise KeyError(f"unknown game {game_id!r}; choose one of: {', '.join(GAME_IDS)}")
    return importlib.import_module(f"{__name__}.{MODULES[game_id]}")


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
    found = getattr(get_game(game_id), "UNCLEAR", {}).get(prompt_name)
    return dict(found) if found else None
