"""The JSONL event log of docs/specs/events.md, flushed line by line.

The log is a record for people and tools, not the game's memory (that is the journal):
a log that cannot be written (a full disk, a removed USB stick) is said once, and the
game goes on without it. A path that is not a regular file (a folder, /dev/full, a FIFO)
is refused when the log is opened, before anything is written.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from .files import FileProblem, check_writable, kind_of, not_a
from .log_events import LogEvent

COUNT_CHUNK = 1 << 20


def _warn(text: str) -> None:
    print(f"partyhost: {text}", file=sys.stderr, flush=True)


class EventLog:
    """Appends {"seq", "t", "type", ...} lines; continues the numbering on resume.

    `warn` gets the one line said when writing fails (by default: printed on stderr).
    """

    def __init__(self, path: Path, clock: Callable[[], float], warn: Callable[[str], None] = _warn):
        check_writable(path, "event log", own_folder=True)  # a named log's folder was checked before
        self.path, self.clock, self.warn = path, clock, warn
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Owner only: the log holds each player's secret cards ("private" events).
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o600)
        except OSError as error:
            raise FileProblem(f"{path}: cannot write the event log here ({error.strerror or error})") from None
        kind = kind_of(os.fstat(fd).st_mode)  # what was opened, should the path have changed since
        if kind is not None:
            os.close(fd)
            raise not_a(path, kind, "event log")
        self.file: TextIO | None = os.fdopen(fd, "a", encoding="utf-8")
        self.seq = _count_lines(path)

    def write(self, event: LogEvent | Mapping[str, object]) -> dict[str, object]:
        """One entry: the session's typed ones (host/log_events.py) or an engine's event."""
        fields = event.to_dict() if isinstance(event, LogEvent) else event
        self.seq += 1
        line = {"seq": self.seq, "t": round(self.clock(), 3), **fields}
        if self.file is None:
            return line
        try:
            self.file.write(json.dumps(line) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())
        except OSError as error:
            self.warn(
                f"cannot write the event log {self.path} ({error.strerror or error}); "
                "the game goes on without it (every move is still saved)"
            )
            self._drop()
        return line

    def close(self) -> None:
        self._drop()

    def _drop(self) -> None:
        file, self.file = self.file, None
        if file is not None:
            try:
                file.close()
            except OSError:
                pass  # the buffered rest cannot be written either: said already


def _count_lines(path: Path) -> int:
    """Lines in the log so far, read a chunk at a time up to its size now."""
    lines, left = 0, path.stat().st_size
    with open(path, "rb") as f:
        while left > 0 and (chunk := f.read(min(COUNT_CHUNK, left))):
            lines += chunk.count(b"\n")
            left -= len(chunk)
    return lines
