"""One process per game: a second resume is refused naming the holder; a kill -9 frees the game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.journal import Journal
from host.sessionlock import SessionBusy, SessionLock

REPO = Path(__file__).resolve().parents[1]
TEXT = ["--input", "text", "--output", "text"]


def cli(args, data: Path, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.Popen(
        [sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


def started(data: Path) -> str:
    """A saved Centurion game, not finished."""
    proc = cli(["play", "centurion", "--players", "Ana,Ben", "--seed", "7", *TEXT], data, stdin=subprocess.PIPE)
    proc.communicate("score\n", timeout=120)
    return Journal(data / "partyhost.sqlite3").sessions()[0].id


def running(data: Path, session: str) -> subprocess.Popen:
    """`partyhost resume` waiting for a typed reply."""
    proc = cli(["resume", session, *TEXT], data, stdin=subprocess.PIPE)
    deadline = time.monotonic() + 60
    lock = data / "locks" / f"{session}.lock"
    while time.monotonic() < deadline and not (lock.exists() and lock.read_text().strip() == str(proc.pid)):
        time.sleep(0.05)
    assert lock.read_text().strip() == str(proc.pid)
    return proc


def test_a_lock_is_refused_while_held_and_free_after(tmp_path):
    with SessionLock(tmp_path, "g1"):
        with pytest.raises(SessionBusy) as busy:
            SessionLock(tmp_path, "g1").acquire()
        assert busy.value.pid == os.getpid() and str(os.getpid()) in str(busy.value)
        SessionLock(tmp_path, "g2").acquire().release()  # other games are not affected
    SessionLock(tmp_path, "g1").acquire().release()


def test_a_second_resume_of_a_game_being_played_is_refused(tmp_path):
    session = started(tmp_path)
    first = running(tmp_path, session)
    try:
        for args in (["resume", session, *TEXT], ["resume", *TEXT]):
            second = cli(args, tmp_path, stdin=subprocess.DEVNULL)
            out, err = second.communicate(timeout=120)
            assert second.returncode == 2, out
            assert err.strip() == (
                f"partyhost: game {session} is already being played by process "
                f"{first.pid}; stop that one first (or wait for it to end)"
            )
            assert "Welcome back" not in out
        out, _ = first.communicate("score\n", timeout=120)
        assert first.returncode == 0 and "Welcome back" in out
    finally:
        first.kill()


def test_a_lock_left_by_kill_9_is_taken_over(tmp_path):
    session = started(tmp_path)
    first = running(tmp_path, session)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    assert (tmp_path / "locks" / f"{session}.lock").exists()  # left behind, holding a dead PID
    second = cli(["resume", session, *TEXT], tmp_path, stdin=subprocess.PIPE)
    out, err = second.communicate("score\n", timeout=120)
    assert second.returncode == 0 and "Welcome back" in out
    assert f"process {first.pid} ended without closing game {session}; taking it over" in err
    assert not (tmp_path / "locks" / f"{session}.lock").exists()
