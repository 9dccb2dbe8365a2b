"""How a server open to the LAN stays answerable: caps on connections, and quiet logs.

`partyhost serve` (Wyoming) and the phone pages (aiohttp) are held to the same rules,
kept here once. At most `per_address` connections from one address and `total` in all
are open; `total` is kept under the process's open-file limit (total_connections), so
accepting never fails for want of a descriptor. A newcomer beyond a cap closes the
connection idle longest (of its own address, for the per-address cap; for the total, of
its own address if it holds one idle, else of the address holding the most, and never
of an address holding fewer than the newcomer's), so a player is served however many
idle connections someone holds; when every one it could close is busy with a request,
the newcomer is turned away instead.
The last few places (reserve_for) are kept for an address that has no connection yet:
the addresses already connected share the rest, so a few households' busy connections
cannot turn another away (issue 58). Each kind of trouble is logged at most once every
LOG_EVERY_S, with a count of the lines left out (a line per accept that failed for want
of files flooded the terminal: issue 46, docs/robustness.md).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import time
from collections import Counter
from typing import Any, Protocol

BACKLOG = 32
"""Connections the kernel may hold waiting to be accepted (each a descriptor once accepted)."""
SPARE_FILES = 16
"""Descriptors kept free beyond those in use at start: logs, the journal, a model file."""
LOG_EVERY_S = 10.0
FULL = "every place it may take is held by a connection busy with a request"
"""Why a newcomer was turned away (Gate.admit said no), for the log line."""


class Connection(Protocol):
    """What the gate needs of one open connection."""

    @property
    def address(self) -> str: ...
    @property
    def busy(self) -> bool: ...
    @property
    def idle_since(self) -> float: ...
    def close(self) -> Any: ...


def reserve_for(per_address: int, total: int) -> int:
    """Places kept for addresses with no connection: one address's worth, at most an eighth."""
    return min(per_address, total // 8)


class Gate:
    """The connections open now: at most `per_address` from one address and `total` in all,
    the last `reserve_for` of them for an address with none yet (module docstring)."""

    def __init__(self, per_address: int, total: int):
        self.per_address, self.total = per_address, total
        self.reserve = reserve_for(per_address, total)
        self.open: dict[Connection, str] = {}

    def admit(self, newcomer: Connection) -> bool:
        own = self._held_by(newcomer.address)
        if len(own) >= self.per_address and not self._close_idle(own):
            return False
        own = self._held_by(newcomer.address)
        if len(self.open) >= self._room(own) and self._close_idle(own):  # its own idle place first:
            own = self._held_by(newcomer.address)  # taken from nobody else (a player's last request)
        if len(self.open) >= self._room(own) and not self._close_idle(list(self.open), holding=len(own) + 1):
            return False
        self.open[newcomer] = newcomer.address
        return True

    def _held_by(self, address: str) -> list[Connection]:
        return [c for c, held in self.open.items() if held == address]

    def _room(self, own: list[Connection]) -> int:
        """Places a newcomer may fill: all for an address with none open, the shared rest for one with some."""
        return self.total - self.reserve if own else self.total

    def _close_idle(self, crowd: list[Connection], holding: int = 0) -> bool:
        """Close the idle connection of `crowd` whose address holds the most, the one idle
        longest of those; False when every one is busy, or held by an address holding fewer
        than `holding` (the newcomer's address with the newcomer): a place is never taken from
        an address holding fewer to give to one holding more. A connection just opened has
        sent nothing yet and counts as idle, so without that a busy household's next
        connection closed a player's request on its way in (a reset, under a loaded CPU)."""
        held = Counter(self.open.values())
        idle = [c for c in crowd if not c.busy and held[c.address] >= holding]
        if not idle:
            return False
        chosen = min(idle, key=lambda c: (-held[c.address], c.idle_since))
        chosen.close()
        self.leave(chosen)
        return True

    def leave(self, connection: Connection) -> None:
        self.open.pop(connection, None)

    def close_all(self) -> None:
        for connection in list(self.open):
            connection.close()
            self.leave(connection)


def total_connections(limit: int) -> int:
    """`limit`, or fewer so that the process keeps files to spare under its open-file limit."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        in_use = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 32
    except (ImportError, OSError, ValueError):
        return limit
    if soft == resource.RLIM_INFINITY:
        return limit
    return max(4, min(limit, soft - in_use - BACKLOG - SPARE_FILES))


class Quiet:
    """At most one log line per kind every `every_s`, saying how many more were left out.

    Lines are given to `warning` with their kind; or, as a filter put first on a logger,
    every record of the logger is held to it, its kind being its logger and its message
    before the values are put in (records `warning` made pass, already counted)."""

    def __init__(self, logger: logging.Logger, every_s: float = LOG_EVERY_S):
        self.logger, self.every_s = logger, every_s
        self._last: dict[str, float] = {}
        self._left_out: Counter[str] = Counter()

    def warning(self, kind: str, text: str) -> None:
        more = self._let_through(kind)
        if more is not None:
            self.logger.warning("%s%s", text, _more(more), extra={"quiet_kind": kind})

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "quiet_kind"):
            return True
        more = self._let_through(f"{record.name}: {record.msg}")
        if more is None:
            return False
        if more:
            record.msg, record.args = record.getMessage() + _more(more), None
        return True

    def quiet(self, *loggers: logging.Logger) -> None:
        """Hold these loggers to this (until `unquiet`): put first, before anything rewrites a record."""
        for logger in loggers:
            logger.filters.insert(0, self)

    def unquiet(self, *loggers: logging.Logger) -> None:
        for logger in loggers:
            logger.removeFilter(self)

    def _let_through(self, kind: str) -> int | None:
        """None when a line of `kind` was let through too recently; else how many were left out."""
        now = time.monotonic()
        if now - self._last.get(kind, -self.every_s) < self.every_s:
            self._left_out[kind] += 1
            return None
        self._last[kind] = now
        return self._left_out.pop(kind, 0)


def _more(count: int) -> str:
    return f" (and {count} more like it)" if count else ""


def watch_the_loop(loop: asyncio.AbstractEventLoop, quiet: Quiet) -> None:
    """Out of file descriptors: asyncio waits a second and accepts again; said once in a while,
    not once per try. Anything else as asyncio says it."""

    def problem(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
            quiet.warning("files", "too many connections for this process's open-file limit; new ones wait")
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(problem)
