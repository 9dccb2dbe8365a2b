"""Typed play on a real terminal (a pseudo-terminal): line editing, Ctrl-C and Ctrl-D."""

from __future__ import annotations

import fcntl
import os
import platform
import pty
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WAITING = {"x86_64": {7, 23, 270, 271}, "aarch64": {72, 73}}
"""System calls (poll, select, pselect6, ppoll) a process waits for a key in, by machine."""
GAME = ["play", "centurion", "--players", "Ana,Ben", "--seed", "7", "--input", "text", "--output", "text"]


def _controlling_terminal() -> None:
    """In the child: make the pseudo-terminal its own, so Ctrl-C there is a SIGINT, and take
    SIGINT back to its default (a shell's background job starts with it ignored)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """partyhost running on a pseudo-terminal, as when a person types."""

    def __init__(self, args, data: Path):
        env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull, "TERM": "xterm"}
        self.fd, child = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "partyhost", *args],
            cwd=REPO,
            env=env,
            stdin=child,
            stdout=child,
            stderr=child,
            start_new_session=True,
            preexec_fn=_controlling_terminal,
        )
        os.close(child)
        self.seen = ""

    def read_until(self, text: str, timeout: float = 60, times: int = 1) -> str:
        deadline = time.monotonic() + timeout
        while self.seen.count(text) < times and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.fd, 4096).decode(errors="replace")
                except OSError:
                    break
        assert text in self.seen, self.seen[-2000:]
        return self.seen

    def waits_for_a_key(self, timeout: float = 60) -> None:
        """Until partyhost's main thread waits for the terminal. Between the prompt appearing
        and readline waiting for a key there is a moment where a signal is only noticed at the
        next key; a person is never that fast, a test can be (a fixed half second after the
        prompt was a guess that a loaded machine may outlast)."""
        task = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            call = task.joinpath("syscall").read_text().split()[0]
            if call.isdigit() and int(call) in WAITING.get(platform.machine(), set()):
                return
            if platform.machine() not in WAITING and "poll" in task.joinpath("wchan").read_text():
                return
            time.sleep(0.01)
        raise AssertionError(f"partyhost did not wait for a key within {timeout:g} s")

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close(self) -> int:
        try:
            code = self.proc.wait(timeout=60)
        finally:
            os.close(self.fd)
        return code


def test_arrow_keys_edit_the_line_instead_of_being_an_answer(tmp_path):
    term = Terminal(GAME, tmp_path)
    term.read_until("Ana> ")
    term.type("scoe\x1b[Dr\r")  # left arrow, then the missing letter
    term.read_until("Ana 0, Ben 0")
    term.read_until("Ana> ", times=2)
    term.type("\x04")  # Ctrl-D
    term.read_until("partyhost resume")
    assert term.close() == 0
    assert "didn't catch that" not in term.seen


def test_ctrl_c_saves_the_game_like_ctrl_d(tmp_path):
    term = Terminal(GAME, tmp_path)
    term.read_until("Ana> ")
    term.waits_for_a_key()
    term.type("\x03")  # Ctrl-C: the terminal sends SIGINT
    out = term.read_until("partyhost resume")
    assert term.close() == 0
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    assert "HOST: The game is saved. To continue: python -m partyhost resume " in out


def test_ctrl_c_outside_a_game_stops_without_a_traceback(tmp_path):
    term = Terminal(["--input", "text", "--output", "text"], tmp_path)  # the typed menu
    term.read_until("table> ")
    term.waits_for_a_key()
    os.killpg(term.proc.pid, signal.SIGINT)
    out = term.read_until("stopped")
    assert term.close() == 130 and "Traceback" not in out
