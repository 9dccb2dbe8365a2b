"""A game played in-process with the phone pages on: typed lines fed from the test, pages on 127.0.0.1
(and PhoneGame, a real `partyhost play --phones` process, for what its terminal shows).

The session runs in its own thread exactly as `partyhost play --phones` runs it
(PhoneTable.open / attach / close around Session), with the typed ears reading
lines the test hands over one at a time, so a test can act between two moves.
"""

from __future__ import annotations

import io
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from understood import Understands

from host.contract import Ending, Prompt, Understood
from host.decks import load_decks
from host.engine import GameOptions
from host.eventlog import EventLog
from host.games import get_game
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session
from partyhost.phones.table import PhoneTable
from partyhost.textio import TextMouth
from voice.understanding.matcher import Matcher

REPO = Path(__file__).resolve().parents[1]


WEBSOCKET_UPGRADE = (
    b"GET /ws/Ana HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
"""A WebSocket opened to Ana's seat by hand, as someone holding it open without a token would."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FedEars(Understands):
    """Typed ears whose lines come from the test."""

    def __init__(self) -> None:
        self.lines: queue.Queue = queue.Queue()
        self.prompts: queue.Queue = queue.Queue()

    def hear(self, prompt: Prompt) -> Understood | None:
        line = self.lines.get()
        if line is None:
            return None
        return self.understood(prompt, line)


class _PromptRecorder:
    """Every prompt the session asks (of the phone-aware ears), for the test to wait on."""

    def __init__(self, inner, prompts: queue.Queue):
        self.inner, self.prompts = inner, prompts

    def hear(self, prompt: Prompt) -> Understood | None:
        self.prompts.put(prompt)
        return self.inner.hear(prompt)

    def reread(self, prompt: Prompt, text: str) -> Understood:
        return self.inner.reread(prompt, text)


def decks_for(game_id: str):
    if game_id == "keep-cool":
        return load_decks([], [REPO / "lab" / "scripted_games" / "decks" / "keep-cool-test.csv"])
    return load_decks([], [])


@dataclass
class LiveGame:
    """One game with phones, running until `finish()`."""

    game_id: str
    options: GameOptions
    folder: Path
    port: int = 0
    session_id: str | None = None
    ears: FedEars = field(default_factory=FedEars)
    spoken: io.StringIO = field(default_factory=io.StringIO)

    def start(self, resume: bool = False) -> LiveGame:
        self.game = get_game(self.game_id)
        self.decks = decks_for(self.game_id)
        self.matcher = Matcher()
        self.events_path = self.folder / f"events-{time.monotonic_ns()}.jsonl"
        self.outcome: Ending | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(resume,), daemon=True)
        self._thread.start()
        assert self._ready.wait(20), "the game did not start"
        if self._error is not None:
            raise self._error
        return self

    def _run(self, resume: bool) -> None:
        self._error = None
        # SQLite connections belong to their thread: the session's is made here.
        self.journal = Journal(self.folder / "db.sqlite3")
        if self.session_id is None:
            self.session_id = self.journal.create(self.game.id, {"options": {}})
        try:
            self.table = PhoneTable.open(
                self.game, self.options, self.decks, self.journal, self.session_id, "127.0.0.1", self.port
            )
        except BaseException as error:  # handed to the test's thread
            self._error = error
            self._ready.set()
            self.journal.close()
            return
        log = EventLog(self.events_path, lambda: 0.0)
        seated = self.table.seat(self.game, self.ears, TextMouth(out=self.spoken))
        self.session = Session(
            self.game,
            self.options,
            self.decks,
            self.journal,
            SessionInfo(self.session_id, "group"),
            log,
            _PromptRecorder(seated.ears, self.ears.prompts),
            seated.mouth,
            clock=lambda: 0.0,
            watchers=[seated.watch],
            other_ways=seated.other_ways,
        )
        self.session.announcer.say(self.table.address.spoken, remember=False)
        if resume:
            self.session.restore(self.journal.accepted_actions(self.session_id))
        else:
            self.session.start()
        self._ready.set()
        outcome = Ending.EOF
        try:
            outcome = self.session.run()
        finally:
            self.outcome = outcome
            self.table.close(outcome)
            log.close()
            self.journal.close()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.table.address.port}"

    def prompt(self, timeout: float = 10) -> Prompt:
        """The next prompt the session asks (waits for it)."""
        return self.ears.prompts.get(timeout=timeout)

    def say(self, line: str) -> None:
        self.ears.lines.put(line)

    def finish(self) -> Ending:
        """End the input (as at the end of a piped script) and wait for the session to stop."""
        self.ears.lines.put(None)
        self._thread.join(timeout=20)
        assert not self._thread.is_alive(), "the session did not stop"
        return self.outcome or Ending.EOF

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def token(self, player: str) -> str:
        return self.table.seats.tokens[player]


CENTURION = GameOptions(players=("Ana", "Ben"), mode="pvp", deal="host", seed=3)
"""The two-player host-deal game most phone tests play."""


def running_centurion(folder: Path) -> Iterator[LiveGame]:
    """A pytest fixture body: a Centurion game with phones, finished after the test if still running."""
    game = LiveGame("centurion", CENTURION, folder).start()
    yield game
    if game.running:
        game.finish()


class PhoneGame:
    """A real `partyhost play --phones` on 127.0.0.1 (Centurion, Ana and Ben), waiting for its first line."""

    def __init__(self, tmp_path: Path, **popen):
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
        self.process = subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **popen,
        )
        assert self.process.stdout is not None and self.process.stdin is not None
        self.port = 0
        while not self.port:
            line = self.process.stdout.readline()
            assert line, "the game ended before its phone server started"
            found = re.search(r"PHONES: open http://127\.0\.0\.1:(\d+)/", line)
            self.port = int(found.group(1)) if found else 0

    def end(self) -> tuple[int, str, str]:
        """Its exit code and what it wrote on stdout (after its join line) and stderr, once its
        input has ended."""
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        self.process.stdin.close()
        out, err = self.process.stdout.read(), self.process.stderr.read()
        return self.process.wait(timeout=60), out, err

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
