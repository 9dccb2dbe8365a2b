"""The phone server within its open-file limit: capped connections, quiet logs (issue 46, item 3).

The probe: with `ulimit -n 256` and 600 idle TCP connections, the join page stopped
answering and the terminal got 22,296 tracebacks. Here a real `partyhost play --phones`
runs with that limit on 127.0.0.1, and the test holds 600 idle connections to it.
"""

from __future__ import annotations

import os
import re
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
IDLE = 600
FILES = 256


class Held:
    def __init__(self, address: str, busy: bool = False, since: float = 0.0):
        self.address, self.busy, self.idle_since, self.closed = address, busy, since, False

    def close(self) -> None:
        self.closed = True


def test_the_gate_closes_the_longest_idle_for_a_newcomer_and_never_a_busy_one():
    from partyhost.connection_limits import Gate

    gate = Gate(per_address=2, total=3)
    old, busy = Held("a", since=1.0), Held("a", busy=True, since=0.0)
    assert gate.admit(old) and gate.admit(busy)
    newcomer = Held("a", since=5.0)
    assert gate.admit(newcomer) and old.closed and not busy.closed  # per address
    other = Held("b", since=6.0)
    assert gate.admit(other) and not newcomer.closed
    assert gate.admit(Held("c", since=7.0)) and newcomer.closed and not other.closed  # in all
    full = Gate(per_address=1, total=1)
    assert full.admit(Held("a", busy=True)) and not full.admit(Held("b"))  # all busy: turned away


def test_quiet_says_each_kind_once_per_interval_and_counts_the_rest(caplog):
    import logging

    from partyhost.connection_limits import Quiet

    logger = logging.getLogger("test.quiet")
    quiet = Quiet(logger, every_s=60)
    quiet.quiet(logger)
    try:
        for n in range(50):
            logger.warning("refused %s", n)
            quiet.warning("full", "turned away")
    finally:
        quiet.unquiet(logger)
    said = [r.getMessage() for r in caplog.records if r.name == "test.quiet"]
    assert said == ["refused 0", "turned away"]


def _low_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


def test_600_idle_connections_under_a_256_file_limit_leave_the_join_page_answering(tmp_path: Path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < IDLE + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, IDLE + 256), hard))
    env = {
        **os.environ,
        "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
        "PARTYHOST_CONFIG": os.devnull,
        "PYTHONUNBUFFERED": "1",
    }
    command = [
        sys.executable,
        "-m",
        "partyhost",
        "play",
        "centurion",
        "--players",
        "Ana,Ben",
        "--mode",
        "pvp",
        "--deal",
        "host",
        "--seed",
        "7",
        "--phones",
        "--phones-bind",
        "127.0.0.1",
        "--phones-port",
        "0",
        "--input",
        "text",
        "--output",
        "text",
    ]
    game = subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_low_limit,
    )
    held: list[socket.socket] = []
    try:
        assert game.stdout is not None and game.stdin is not None and game.stderr is not None
        port = None
        while port is None:
            line = game.stdout.readline()
            assert line, "the game ended before its phone server started"
            found = re.search(r"PHONES: open http://127\.0\.0\.1:(\d+)/", line)
            port = int(found.group(1)) if found else None
        for _ in range(IDLE):
            try:
                held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            except OSError:
                break
        assert len(held) == IDLE
        time.sleep(1.5)  # the server accepts them all meanwhile
        answers = []
        for _ in range(5):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                answers.append(page.status)
        assert answers == [200] * 5
        closed = 0
        for sock in held:  # most were closed by the server for newcomers
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        assert closed >= IDLE - FILES
        game.stdin.close()
        err = game.stderr.read()
        assert game.wait(timeout=60) == 0
    finally:
        for sock in held:
            sock.close()
        if game.poll() is None:
            game.kill()
            game.wait()
    assert "Traceback" not in err and "Errno 24" not in err
    assert len(err.splitlines()) <= 3, err
