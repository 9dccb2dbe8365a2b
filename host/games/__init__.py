"""One module per game; each follows host.engine.Game."""
from __future__ import annotations

import importlib
from types import ModuleType

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
