"""Did the write-ahead log keep what was committed to it? Checked once per process, at open.

In WAL mode a committed row lives in the -wal file until a checkpoint copies it into
the database. If a process is killed, the -wal holds the latest moves; if that file is
then deleted, cut short or damaged, SQLite reads the database and whatever valid
frames are left, and says nothing. The -shm index the killed process left records how
many frames were committed (mxFrame), how many were already copied (nBackfill) and the
log's salt; so before SQLite rebuilds that index it is read here, and after SQLite has
read the log its own count of valid frames is compared with it.

The check is for the first process to open the database after a crash; while any other
process has it open, the index is that process's live one, and reading it as it writes
gave false alarms (a log restarted between reading the index and the log looked
damaged: issue 46). So the index and log are read only while this process holds
SQLite's own "dead man's switch" lock (a write lock on byte 128 of the -shm, which every
SQLite connection holds a read lock on for as long as it is open): when another process
holds it, nothing is read and nothing is reported; while this one holds it, no other
process can open the database (SQLite waits and retries), so what is read is still.

The -shm is locked and read only before this process has a connection to the database
(see host/journal.py on POSIX locks: closing the descriptor here would drop SQLite's
locks on the same file), and `opening` keeps this process's other threads from
connecting meanwhile. Only the -wal is ever read while connected; SQLite keeps no locks
on it. Layout of the index header: https://www.sqlite.org/walformat.html (native byte
order; two copies, then nBackfill); the lock bytes are those of SQLite's unix VFS.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_HEADER = struct.Struct("=IIIBBHII8s8s8s")  # iVersion .. aCksum: one 48-byte copy
_VERSION = 3007000
_WAL_HEADER = 32
_FRAME_HEADER = 24

_DEAD_MANS_SWITCH = 128  # UNIX_SHM_DMS: after the eight WAL locks at 120-127

_opened: set[str] = set()
_opened_lock = threading.Lock()


@contextmanager
def opening(path: Path) -> Iterator[bool]:
    """Around checking before a connection: True the first time this process opens the
    database at `path` (then never again); no other thread of the process passes while
    the first one checks, so none connects while the -shm is open here."""
    key = str(path.resolve())
    with _opened_lock:
        first = key not in _opened
        _opened.add(key)
        yield first


@contextmanager
def alone(path: Path) -> Iterator[bool]:
    """True while no other process has the database open and none can start to (the -shm's
    dead man's switch held for writing here); False when another process holds it, or the
    lock cannot be taken (no -shm, a read-only folder, a system without POSIX locks)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: SQLite's locks are not these
        yield False
        return
    try:
        shm = os.open(f"{path}-shm", os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.lockf(shm, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _DEAD_MANS_SWITCH)
        except OSError:
            yield False  # another process has it open: its index is live, not a crash's
            return
        try:
            yield True
        finally:
            fcntl.lockf(shm, fcntl.LOCK_UN, 1, _DEAD_MANS_SWITCH)
    finally:
        os.close(shm)


@dataclass(frozen=True)
class Index:
    """What the -shm says of the log: frames committed, frames copied, its salt, page size."""

    frames: int
    copied: int
    salt: bytes
    page_size: int

    @property
    def pending(self) -> int:
        """Committed frames that are only in the log."""
        return self.frames - self.copied


@dataclass(frozen=True)
class Loss:
    """Committed frames the log no longer gives back."""

    wal: Path
    lost: int
    pending: int
    how: str  # "missing" | "short" | "damaged"
    kept: Path | None  # a copy of the log as it was found

    def describe(self) -> str:
        pages = f"{self.lost} of the {self.pending} pages saved since the last checkpoint"
        found = {"missing": "is missing", "short": "was cut short", "damaged": "is damaged"}[self.how]
        return f"its write-ahead log {self.wal.name} {found}, and {pages} are gone"


def read_index(path: Path) -> Index | None:
    """The -shm header, or None when there is none, it is not initialised, or its copies differ."""
    try:
        with open(f"{path}-shm", "rb") as shm:
            raw = shm.read(104)
    except OSError:
        return None
    if len(raw) < 104 or raw[:48] != raw[48:96]:
        return None
    version, _, _, initialised, _, page_size, frames, _, _, salt, _ = _HEADER.unpack(raw[:48])
    (copied,) = struct.unpack("=I", raw[96:100])
    if version != _VERSION or not initialised or copied > frames:
        return None
    return Index(frames, copied, salt, 65536 if page_size == 1 else page_size)


def wal_salt(wal: Path) -> bytes | None:
    """The salt in the log file's header (bytes 16-24), None without a whole header."""
    try:
        with open(wal, "rb") as log:
            header = log.read(_WAL_HEADER)
    except OSError:
        return None
    return header[16:24] if len(header) == _WAL_HEADER else None


def before_open(path: Path) -> tuple[Index, Loss | None] | None:
    """At a first open: the index if frames are pending, and the loss already visible (a missing
    or short log, or another log in its place); None when there is nothing to check, or when
    another process has the database open (module docstring)."""
    with alone(path) as unused:
        return _judged(path) if unused else None


def _judged(path: Path) -> tuple[Index, Loss | None] | None:
    index = read_index(path)
    if index is None or index.pending <= 0:
        return None
    wal = Path(f"{path}-wal")
    try:
        size = wal.stat().st_size
    except OSError:
        return index, Loss(wal, index.pending, index.pending, "missing", None)
    if size < _WAL_HEADER + index.frames * (_FRAME_HEADER + index.page_size):
        return index, Loss(wal, index.pending, index.pending, "short", _keep(wal))
    if wal_salt(wal) != index.salt:
        return index, Loss(wal, index.pending, index.pending, "damaged", _keep(wal))
    return index, None


def after_open(db: sqlite3.Connection, path: Path, index: Index) -> Loss | None:
    """Once SQLite has read the log: the frames it found valid against those committed.

    Called before this process writes anything: when no frame is valid (the log's first
    pages damaged), SQLite's first write starts a new log with a new salt, which this
    would take for a live process's new log, and the loss would pass unsaid (issue 58)."""
    wal = Path(f"{path}-wal")
    try:
        _, frames, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    except sqlite3.OperationalError:
        return None  # a full disk: the checkpoint cannot run, and the check waits for the next open
    if frames >= index.frames or wal_salt(wal) != index.salt:
        return None  # all there, or a live process has started a new log since
    lost = min(index.pending, index.frames - max(frames, 0))
    return Loss(wal, lost, index.pending, "damaged", _keep(wal))


def _keep(wal: Path) -> Path | None:
    """A copy of the log as found, for whoever wants to rescue rows from it."""
    kept = wal.with_name(f"{wal.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        shutil.copyfile(wal, kept)
        kept.chmod(0o600)
    except OSError:
        return None
    return kept
