"""What the host must tell the table about its remote parts, from any thread.

A remote recogniser or voice notices a server gone (or back) in the middle of a
reading or a sentence, on whatever thread that runs. The notice is printed at
once, and its spoken form waits here until the host may speak: the ears say it
before they next listen (voice/listening/ears.py `before_listening`), so it never talks
over a sentence and the ears skip it as the host's own voice.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Notice:
    """One announcement: `spoken` for the table (short, no addresses), `printed` with details."""

    spoken: str
    printed: str


class Notices:
    """A thread-safe queue of notices: printed when posted, spoken when taken."""

    def __init__(self, out: TextIO | None = None):
        self._out = out
        self._lock = threading.Lock()
        self._pending: list[str] = []

    def post(self, notice: Notice) -> None:
        out = self._out or sys.stderr
        out.write(f"partyhost: {notice.printed}\n")
        out.flush()
        with self._lock:
            self._pending.append(notice.spoken)

    def take(self) -> list[str]:
        """The spoken notices not yet said, oldest first; each is handed out once."""
        with self._lock:
            pending, self._pending = self._pending, []
        return pending
