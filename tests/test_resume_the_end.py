"""A crash after the last move was saved: resuming says how the game ended (issue 46, item 4).

Each game's script is played to its end through the real command line; its status is
then set back to "playing", as a kill -9 between saving the last move and marking the
game over leaves it, and `partyhost resume` must speak the last move's ending (winner,
scores) and "game over", and log game_over again.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from partyhost_lab.scripted import load_cases

REPO = Path(__file__).resolve().parents[1]
CASES = {case.game: case for case in reversed(load_cases())}
"""The first case of each game."""


def _run(args: list[str], tmp_path: Path, stdin) -> subprocess.CompletedProcess:
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args, "--input", "text", "--output", "text"],
        cwd=REPO,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _last_move_said(events: list[dict]) -> list[str]:
    """What the host said for the last move it took."""
    last = max(i for i, event in enumerate(events) if event["type"] == "intent")
    return [e["text"] for e in events[last:] if e["type"] == "say"]


@pytest.mark.parametrize("game", sorted(CASES))
def test_resume_after_the_last_move_speaks_the_ending(game: str, tmp_path: Path):
    case = CASES[game]
    events_path = tmp_path / "events.jsonl"
    with (REPO / "lab" / "scripted_games" / case.script).open(encoding="utf-8") as script:
        played = _run([*case.cli_arguments(), "--events", str(events_path)], tmp_path, script)
    assert played.returncode == 0, played.stderr
    events = [json.loads(line) for line in events_path.read_text().splitlines()]
    ending = _last_move_said(events)
    assert [e for e in events if e["type"] == "game_over"] and ending

    with sqlite3.connect(tmp_path / "data" / "partyhost.sqlite3") as db:
        (session,) = db.execute("SELECT id FROM sessions").fetchone()
        db.execute("UPDATE sessions SET status = 'playing'")
    resumed = _run(["resume", session], tmp_path, subprocess.DEVNULL)
    assert resumed.returncode == 0, resumed.stderr
    said = [line.removeprefix("HOST: ") for line in resumed.stdout.splitlines() if line.startswith("HOST: ")]
    assert "The game is over" in said[0]
    assert said[1 : 1 + len(ending)] == ending
    assert "[to " not in resumed.stdout, "the secrets of the last move are not dealt again"
    again = [json.loads(line) for line in events_path.read_text().splitlines()]
    assert len([e for e in again if e["type"] == "game_over"]) == 2
    with sqlite3.connect(tmp_path / "data" / "partyhost.sqlite3") as db:
        assert db.execute("SELECT status FROM sessions").fetchone() == ("over",)
