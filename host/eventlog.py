"""The JSONL event log of docs/specs/events.md, flushed line by line."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable


class EventLog:
    """Appends {"seq", "t", "type", ...} lines; continues the numbering on resume."""

    def __init__(self, path: Path, clock: Callable[[], float]):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.seq = _count_lines(path)
        self.clock = clock
        # Owner only: the log holds each player's secret cards ("private" events).
        self.file = os.fdopen(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "a",
                              encoding="utf-8")

    def write(self, event: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        line = {"seq": self.seq, "t": round(self.clock(), 3), **event}
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())
        return line

    def close(self) -> None:
        self.file.close()


def _count_lines(path: Path) -> int:
    if not path.exists():
        return 0
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)
