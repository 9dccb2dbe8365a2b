"""Speech recognisers behind one interface (voice.audio_types.Recognizer).

Three real backends read an utterance against the phrases of the current prompt:
`whisper` (faster-whisper tiny.en, biased by a prompt), `pocketsphinx` (a finite-
state grammar with a garbage loop) and `vosk` (a Kaldi grammar with [unk]).
`voice.recognizers.make_recognizer` builds the measured default (docs/recognition.md).

Confidence convention shared by every backend: 0..1, and 0.5 is the backend's own
tuned acceptance line. voice.listening.ears multiplies it by the matcher's score / 100 and
acts only from 0.5, so a reading just above the line still needs an exact match.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from importlib import resources
from pathlib import Path
from typing import Generic, TypeVar

from host.errors import PartyhostError

__all__ = [
    "CompiledCache",
    "ModelMissingError",
    "calibrate",
    "default_models_dirs",
    "shipped_models_dir",
    "unique_words",
    # the backends and their parts, imported when used (voice.recognizers chooses one)
    "int8_weights",
    "moonshine",
    "ort_format",
    "sphinx",
    "text_guards",
    "vosk",
    "whisper",
    "whisper_steps",
]


class ModelMissingError(PartyhostError, RuntimeError):
    """A recogniser's model is not installed; the message says what to do."""


def shipped_models_dir() -> Path:
    """The models/ folder, installed with partyhost as the package data voice.asr.models
    (no top-level `models` name in site-packages): manifest.json, and any model put there by hand."""
    return Path(str(resources.files("voice.asr.models")))


def default_models_dirs() -> list[Path]:
    """Where `partyhost models fetch` puts models by default (the platform data folder),
    then the models/ folder installed with partyhost (a model put there by hand)."""
    import platformdirs

    return [Path(platformdirs.user_data_dir("partyhost")) / "models", shipped_models_dir()]


T = TypeVar("T")


class CompiledCache(Generic[T]):
    """A small LRU of compiled grammars keyed by their phrase set.

    Compiling is cheap but not free (thousands of phrases); prompts repeat all game
    long, so each distinct phrase set is compiled once.
    """

    def __init__(
        self, build: Callable[[tuple[str, ...]], T], size: int = 64, on_evict: Callable[[T], None] | None = None
    ):
        self._build, self._size, self._on_evict = build, size, on_evict
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self.builds = 0

    def get(self, phrases: list[str] | tuple[str, ...]) -> T:
        key = tuple(phrases)
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        value = self._build(key)
        self.builds += 1
        self._items[key] = value
        if len(self._items) > self._size:
            _, old = self._items.popitem(last=False)
            if self._on_evict:
                self._on_evict(old)
        return value


def calibrate(raw: float, line: float, span: float) -> float:
    """Map a backend's raw score to 0..1 with `line` at 0.5 and `span` per half.

    Logistic, so order is kept and the acceptance line lands exactly on 0.5.
    """
    import math

    z = (raw - line) / span * 2.2  # raw = line +- span  ->  0.9 / 0.1
    return 1.0 / (1.0 + math.exp(-z))


def unique_words(phrases: list[str] | tuple[str, ...]) -> list[str]:
    """The words of the phrases, each once, in order of first appearance."""
    seen: dict[str, None] = {}
    for phrase in phrases:
        for word in phrase.split():
            seen.setdefault(word, None)
    return list(seen)
