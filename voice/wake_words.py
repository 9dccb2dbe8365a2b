"""The wake words the engine ships, by name and as they are said (no audio here).

Typed play accepts a wake word's phrase as an address ("okay nabu, score") and the
settings check a wake word's name, so both read this list without loading the
detector (voice/listening/wake.py), its models or numpy.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

OFF = "off"


@dataclass(frozen=True)
class WakeWord:
    """A wake word the engine ships: its setting name and how it is said."""

    name: str  # "okay_nabu": the setting's value and the model's file name
    phrase: str  # "Okay Nabu": what players say, and what the host tells them to


@lru_cache(maxsize=1)
def shipped_wake_words() -> dict[str, WakeWord]:
    """The wake words whose models are in the installed `pymicro-wakeword` wheel, by
    name (read from its model files, without loading the engine); empty if absent."""
    spec = importlib.util.find_spec("pymicro_wakeword")
    if spec is None or not spec.submodule_search_locations:
        return {}
    models = Path(list(spec.submodule_search_locations)[0]) / "models"
    words = {}
    for config in sorted(models.glob("*.json")):
        try:
            phrase = json.loads(config.read_text(encoding="utf-8"))["wake_word"]
        except (OSError, ValueError, KeyError):
            continue
        if (models / f"{config.stem}.tflite").is_file():
            words[config.stem] = WakeWord(config.stem, str(phrase))
    return words
