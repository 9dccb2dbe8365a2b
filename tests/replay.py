"""Typed whole-game scripts played in-process (lab/partyhost_lab/scripted.py, where the
benchmark that plays them live finds them too), and typed lines played into a new game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from understood import Say, Understands

from host.contract import Prompt, Understood
from host.decks import load_game_decks
from host.engine import GameOptions
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session
from partyhost_lab.scripted import ScriptCase, load_cases, outcomes, play_script  # noqa: F401 (the tests' too)

REPO = Path(__file__).resolve().parent.parent


class _Lines(Understands):
    """Typed lines; a Say (tests/understood.py) with a start is a line spoken aloud."""

    def __init__(self, lines: list[str | Say]):
        self.lines = list(lines)

    def hear(self, prompt: Prompt) -> Understood | None:
        if not self.lines:
            return None
        line = self.lines.pop(0)
        return self.understood(prompt, line) if isinstance(line, Say) else self.understand(prompt, line)


def play_lines(
    folder: Path,
    game_id: str,
    lines: list[str | Say],
    deck: str | None = None,
    undo_after_reveal: bool = False,
    **options: Any,
) -> tuple[Session, Any, list[dict[str, Any]]]:
    """Typed `lines` into a new game (GameOptions from `options`, `deck` a file of the
    repository) through the real Session and matcher, until they run out; returns the
    session, a RecordingMouth of all the host said, and the journaled moves."""
    from fakes import RecordingMouth

    game = get_game(game_id)
    folder.mkdir(parents=True, exist_ok=True)
    journal = Journal(folder / "db.sqlite3")
    session_id = journal.create(game_id, {"options": {}})
    mouth = RecordingMouth()
    decks = load_game_decks(game.deck, [REPO / deck] if deck else [], question_games=dealing("questions"))
    session = Session(
        game,
        GameOptions(**options),
        decks,
        journal,
        SessionInfo(session_id, "g"),
        EventLog(folder / "events.jsonl", lambda: 0.0),
        _Lines(lines),
        mouth,
        lambda: 0.0,
        undo_after_reveal=undo_after_reveal,
    )
    session.start()
    session.run()
    return session, mouth, journal.accepted_actions(session_id)
