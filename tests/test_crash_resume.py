"""kill -9 in the middle of a game, then `partyhost resume`: nothing accepted is lost.

The same script is played twice: once straight through, once killed (SIGKILL, no
chance to clean up) after half its lines and resumed with the other half. Both must
journal the same accepted actions and end with the same game_over.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from host.journal import Journal

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "lab" / "scripted_games" / "one-percent-basic-host.txt"
ARGS = [
    "play",
    "one-percent",
    "--players",
    "Ana,Ben,Cy",
    "--seed",
    "26",
    "--deal",
    "host",
    "--input",
    "text",
    "--output",
    "text",
]


def cli(args, data, **kwargs):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data)}
    return subprocess.Popen([sys.executable, "-m", "partyhost", *args], cwd=REPO, env=env, text=True, **kwargs)


def journal_state(data: Path):
    journal = Journal(data / "partyhost.sqlite3")
    record = journal.sessions()[0]
    return record, journal.accepted_actions(record.id)


def last_event(path: Path) -> dict:
    return json.loads(path.read_text().splitlines()[-1])


def test_kill_9_mid_game_then_resume_loses_nothing(tmp_path):
    lines = SCRIPT.read_text().splitlines()
    half = len(lines) // 2

    straight = tmp_path / "straight"
    with open(SCRIPT) as stdin:
        cli(ARGS + ["--events", str(straight / "e.jsonl")], straight, stdin=stdin, stdout=subprocess.DEVNULL).wait(
            timeout=120
        )
    _, expected_actions = journal_state(straight)
    expected_end = last_event(straight / "e.jsonl")
    assert expected_end["type"] == "game_over"

    crashed = tmp_path / "crashed"
    proc = cli(ARGS + ["--events", str(crashed / "e.jsonl")], crashed, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.extend(proc.stdout), daemon=True)
    reader.start()
    proc.stdin.write("\n".join(lines[:half]) + "\n")
    proc.stdin.flush()
    # wait until the last line sent has been read and the host has gone quiet again
    deadline = time.monotonic() + 60
    echo = f"> {lines[half - 1].strip()}"
    while time.monotonic() < deadline and not any(echo in line for line in output):
        time.sleep(0.05)
    seen = -1
    while len(output) != seen and time.monotonic() < deadline:
        seen = len(output)
        time.sleep(0.5)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    record, actions_at_crash = journal_state(crashed)
    assert record.status == "playing" and 0 < len(actions_at_crash) < len(expected_actions)
    assert actions_at_crash == expected_actions[: len(actions_at_crash)]

    resumed = cli(
        ["resume", "--input", "text", "--output", "text"], crashed, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    transcript, _ = resumed.communicate("\n".join(lines[half:]) + "\n", timeout=120)
    assert resumed.returncode == 0
    assert "Welcome back" in transcript
    record, final_actions = journal_state(crashed)
    assert final_actions == expected_actions
    assert record.status == "over"
    end = last_event(crashed / "e.jsonl")
    assert (end["type"], end["winners"], end["scores"]) == (
        "game_over",
        expected_end["winners"],
        expected_end["scores"],
    )
