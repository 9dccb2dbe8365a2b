"""Several unfinished games in one data folder (issue 46, item 8).

Several `serve` processes share a data folder and are stopped mid-game: on restart,
only one game was resumed and the other processes started new games, leaving the rest
unfinished. Now `resume` without a game id (which `serve` does first) takes the newest
unfinished game no other process is playing, and says which, and how many more wait.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from test_wyoming_service import Service, say

from host.journal import Journal
from host.sessionlock import SessionLock
from partyhost.answer_bound import STILL_BUSY, STILL_WORKING
from partyhost_lab.scripted import load_cases

REPO = Path(__file__).resolve().parents[1]
CASE = next(case for case in load_cases() if case.script == "keep-it-100-basic.txt")


def partyhost(args: list[str], data: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": str(data / "config.toml")}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args, "--input", "text", "--output", "text"],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def unfinished_games(data: Path, count: int) -> list[str]:
    """`count` games stopped halfway, oldest first."""
    data.mkdir(parents=True, exist_ok=True)
    (data / "config.toml").write_text("")
    lines = (REPO / "lab" / "scripted_games" / CASE.script).read_text().splitlines(keepends=True)
    for _ in range(count):
        played = partyhost(CASE.cli_arguments(), data, "".join(lines[:4]))
        assert played.returncode == 0, played.stderr
    journal = Journal(data / "partyhost.sqlite3")
    try:
        games = [r.id for r in reversed(journal.sessions()) if r.status == "playing"]
    finally:
        journal.close()
    assert len(games) == count
    return games


def test_resume_takes_the_newest_game_no_other_process_plays_and_says_which(tmp_path: Path):
    data = tmp_path / "data"
    oldest, middle, newest = unfinished_games(data, 3)
    with SessionLock(data / "locks", newest):  # another process plays the newest
        resumed = partyhost(["resume"], data)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("HOST: Welcome back to Keep It 100")
    assert resumed.stderr == (
        f"partyhost: resuming game {middle} (keep-it-100), the newest unfinished game free "
        "to play; 1 being played elsewhere and 1 older one waiting: see python -m partyhost sessions\n"
    )
    alone = partyhost(["resume"], data)  # nobody else: the newest, and the two older ones said
    assert f"resuming game {newest} (keep-it-100)" in alone.stderr and "2 older ones waiting" in alone.stderr


def answered(port: int, text: str) -> str:
    """The host's answer to `text`, waited for when the first request outlasted its bound
    (a loaded machine: loading a saved game takes longer; the next request gets it)."""
    reply = say(port, text)
    for _ in range(30):
        if reply not in (STILL_WORKING, STILL_BUSY):
            break
        time.sleep(1.0)
        reply = say(port, "repeat")
    return reply


def test_two_services_restarted_on_one_folder_each_resume_an_unfinished_game(tmp_path: Path):
    data = tmp_path / "data"
    unfinished_games(data, 2)
    first = Service(data, "--no-zeroconf")
    try:
        assert answered(first.port, "score").startswith("Welcome back to Keep It 100")
        second = Service(data, "--no-zeroconf")
        try:
            assert answered(second.port, "score").startswith("Welcome back to Keep It 100")  # not the menu
        finally:
            second.stop()
    finally:
        first.stop()
