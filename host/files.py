"""Opening the files a user names: only regular files, only so big, never a wait.

A path given in the settings or on the command line can be anything: a directory,
/dev/zero (endless), /dev/full, a FIFO (which blocks whoever opens it until a writer
comes), a socket. Each is refused here in one line that says what it is, before
anything is read or saved. A regular file is read up to a limit of its kind, so a
huge one is refused instead of filling the memory. Files are opened non-blocking,
so a FIFO swapped in after the check cannot block either.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from host.errors import PartyhostError, did_you_mean

SETTINGS_BYTES = 1 << 20
"""A settings file is a page of TOML; a megabyte is far more than any can need."""
DECK_BYTES = 16 << 20
"""The shipped question deck is 0.1 MB for about a thousand cards."""


class FileProblem(PartyhostError, OSError):
    """A named file that cannot be used: one line naming it and why."""


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_a(path: Path, kind: str, what: str) -> FileProblem:
    """The one line for a path that is `kind` (kind_of) where a `what` is wanted."""
    article = "an" if what[:1] in "aeiou" else "a"
    return FileProblem(f"{path} is {kind}, not {article} {what}")


def missing(path: Path, what: str) -> FileProblem:
    """The one line for a file that is not there, with the name in its folder closest to it
    (a typo: "questons.csv" for questions.csv)."""
    try:
        here = [entry.name for entry in path.parent.iterdir()] if path.name else []
    except OSError:  # no such folder either, or one that cannot be listed
        here = []
    return FileProblem(f"{path}: no such {what}{did_you_mean(path.name, here) if here else ''}")


def check_regular(path: Path, what: str, *, may_be_missing: bool = False) -> bool:
    """Whether `path` exists, raising FileProblem when it is anything but a regular file."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if may_be_missing:
            return False
        raise missing(path, what) from None
    except OSError as error:
        raise FileProblem(f"{path}: cannot use this {what} ({error.strerror or error})") from None
    kind = kind_of(mode)
    if kind is not None:
        raise not_a(path, kind, what)
    return True


def resolved(path: Path | str, what: str) -> Path:
    """The absolute path with its links followed; a loop of symbolic links is a FileProblem
    (Python raises RuntimeError for one before 3.13, OSError after), not a traceback."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError) as error:
        loop = isinstance(error, RuntimeError) or getattr(error, "errno", None) == errno.ELOOP
        why = "its symbolic links lead round in a loop" if loop else (getattr(error, "strerror", None) or str(error))
        raise FileProblem(f"{path}: cannot use this {what} ({why})") from None


def check_writable(path: Path, what: str, *, own_folder: bool = False) -> None:
    """A file that may be created or appended to: absent, or a regular file, in a folder.

    The folder of a file the user names must exist: a typo ("/nonexist/x.wav") is refused,
    never made into folders at the root. `own_folder`: partyhost's own folder (the data
    folder's event logs), made when missing."""
    if check_regular(path, what, may_be_missing=True):
        return
    parent = path.parent
    if parent.exists() and not parent.is_dir():
        raise FileProblem(f"{path}: {parent} is not a folder, so the {what} cannot be made there")
    if not own_folder and not parent.exists():
        raise FileProblem(f"{path}: there is no folder {parent}, so the {what} cannot be made there")


def make_folder(path: Path) -> None:
    """The folder at `path`, made with its parents where missing; what stands in the way (a
    file where a folder must be) is a FileProblem naming it (mkdir says only "File exists")."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next(p for p in (path, *path.parents) if p.exists() and not p.is_dir())
        problem = f"{blocking} is {kind_of(blocking.stat().st_mode) or 'a file'}, not a folder"
        raise FileProblem(problem if blocking == path else f"{path} cannot be made: {problem}") from None


def read_bytes(path: Path, what: str, limit: int) -> bytes:
    """The whole of a regular file of at most `limit` bytes; FileProblem otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise missing(path, what) from None
    except OSError as error:
        raise FileProblem(f"{path}: cannot read the file ({error.strerror or error})") from None
    info = os.fstat(fd)
    kind = kind_of(info.st_mode)
    if kind is not None or info.st_size > limit:
        os.close(fd)
        if kind is not None:
            raise not_a(path, kind, what)
        raise FileProblem(f"{path}: this {what} is {_size(info.st_size)}; at most {_size(limit)} is read")
    with os.fdopen(fd, "rb") as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise FileProblem(f"{path}: cannot read the file ({error.strerror or error})") from None
    if len(data) > limit:
        raise FileProblem(f"{path}: this {what} grew past {_size(limit)} while it was read")
    return data


def read_text(path: Path, what: str, limit: int) -> str:
    """read_bytes as UTF-8 text (a byte-order mark dropped); FileProblem names the line that is not."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise FileProblem(f"{path}:{line}: not UTF-8 text; save the {what} as UTF-8") from None


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n >= 1 << 20 else f"{n:,} bytes"
