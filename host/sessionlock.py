"""One process per game: a lock file per session, held for as long as the game runs.

Two processes replaying and extending the same journal would each accept moves the
other never saw, and the journal would no longer replay. The lock is an flock(2) on
data/locks/SESSION.lock, so the kernel drops it the moment its process dies, even
by kill -9: a lock left behind is stale by construction and the next process simply
takes it. The file holds the holder's PID, so a refusal can name who holds it; the PID
is only a courtesy, so a disk too full to write it does not stop the game.

Not filelock: its flock(2) lock (UnixFileLock) neither names the process that holds a
game nor tells that a dead one left it (its PID records belong to its marker-file locks,
which the kernel does not drop at a kill -9), and both are what a player is told here.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from host.errors import PartyhostError


class SessionBusy(PartyhostError):
    """Another live process holds this session's lock."""

    def __init__(self, session_id: str, pid: int | None):
        who = f"process {pid}" if pid else "another process"
        super().__init__(
            f"game {session_id} is already being played by {who}; stop that one first (or wait for it to end)"
        )
        self.session_id, self.pid = session_id, pid


class LockUnavailable(PartyhostError):
    """The lock file cannot be made (a full disk, a folder that is not one, no permission)."""


class SessionLock:
    """Held from acquire() to release(); a context manager too."""

    def __init__(self, folder: Path, session_id: str):
        self.path = folder / f"{session_id}.lock"
        self.session_id = session_id
        self.stale_pid: int | None = None
        """The PID written by a process that died holding the lock (taken over), if any."""
        self._fd: int | None = None

    def acquire(self) -> SessionLock:
        while True:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK, 0o600)
            except OSError as error:
                raise LockUnavailable(
                    f"cannot make the lock file {self.path} of game {self.session_id}: {error.strerror or error}"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = _read_pid(fd)
                os.close(fd)
                raise SessionBusy(self.session_id, pid) from None
            # The holder before us may have unlinked the file after we opened it: then
            # our lock is on a file nobody else will find, so open the path again.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        previous = _read_pid(fd)
        if previous and previous != os.getpid():
            self.stale_pid = previous
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # a full disk: held all the same, only unnamed in a refusal
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        os.close(self._fd)  # closing drops the flock
        self._fd = None

    def __enter__(self) -> SessionLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except OSError:
        return None
