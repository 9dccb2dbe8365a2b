"""A disk that fills up in the middle of a game: one line, exit 2, nothing accepted lost.

For real: the data folder on a 256 KB tmpfs, filled by the game itself, as on a Pi
whose SD card is full. Mounting needs root; without it that test is skipped and says
so. The test after it runs everywhere: SQLite's max_page_count caps the database at a
few pages more than it has, and SQLite refuses the page after that exactly as it
refuses a write to a full disk (SQLITE_FULL, "database or disk is full", from the
same pager call), so the host meets the same error at the same place.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.journal import Journal
from partyhost.cli import main

REPO = Path(__file__).resolve().parents[1]
SCRIPT = (REPO / "lab" / "scripted_games" / "centurion-pvp-host.txt").read_text()
CENTURION = [
    "play",
    "centurion",
    "--players",
    "Ana,Ben",
    "--seed",
    "7",
    "--mode",
    "pvp",
    "--deal",
    "host",
    "--rules",
    "jokers=2",
    "--rules",
    "joker_at_multiple=true",
    "--input",
    "text",
    "--output",
    "text",
]
CANNOT_SAVE = "HOST: I cannot save the game: the disk is full. So I stop here; every move before this one is saved."


def cli(args, data: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def moves_in(data: Path) -> list[dict]:
    journal = Journal(data / "partyhost.sqlite3")
    try:
        return journal.accepted_actions(journal.sessions()[0].id)
    finally:
        journal.close()


def lines_taken(stdout: str) -> int:
    """How many script lines the typed game read: each is echoed after its player's name and '>'."""
    return sum(1 for line in stdout.splitlines() if "> " in line and not line.startswith("HOST"))


def played_straight(tmp_path: Path, lines: int) -> list[dict]:
    """The moves the same game journals from its first `lines` lines on a disk with room."""
    data = tmp_path / f"straight-{lines}"
    cli(CENTURION, data, "\n".join(SCRIPT.splitlines()[:lines]) + "\n")
    return moves_in(data)


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip(
            "a real full disk is a 256 KB tmpfs, and mounting one needs root "
            "(test_a_full_database_stops_the_game_the_same_way runs everywhere)"
        )
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a 256 KB tmpfs here: {mounted.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.mark.slow
def test_a_disk_that_fills_mid_game_stops_it_in_one_line_and_loses_nothing(small_disk, tmp_path):
    full = cli(CENTURION, small_disk, SCRIPT)
    assert full.returncode == 2 and "Traceback" not in full.stderr + full.stdout
    assert full.stderr.splitlines() == [
        f"partyhost: cannot save the game in {small_disk}/partyhost.sqlite3: the disk is full"
    ]
    assert full.stdout.splitlines()[-1] == CANNOT_SAVE  # said to the players too, once, last
    taken = lines_taken(full.stdout)
    assert 0 < taken < len(SCRIPT.splitlines())  # it stopped mid-game
    saved = moves_in(small_disk)
    assert saved == played_straight(tmp_path, taken - 1)  # every move before the refused one, no more

    # on the still-full disk: the other commands explain, and change nothing
    listed = cli(["sessions"], small_disk)
    assert listed.returncode == 0 and "playing" in listed.stdout and listed.stderr == ""
    refused_line = SCRIPT.splitlines()[taken - 1]
    again = cli(["resume", "--input", "text", "--output", "text"], small_disk, refused_line + "\n")
    assert again.returncode == 2 and "Traceback" not in again.stderr and "the disk is full" in again.stderr
    assert again.stdout.splitlines()[-1] == CANNOT_SAVE
    new = cli(["play", "centurion", "--players", "Ana,Ben", "--input", "text", "--output", "text"], small_disk)
    assert new.returncode == 2 and new.stderr.strip().endswith("the disk is full") and "Traceback" not in new.stderr
    assert moves_in(small_disk) == saved

    # room again (the disk made bigger): the game goes on from the refused move
    subprocess.run(["mount", "-o", "remount,size=1m", str(small_disk)], check=True)
    resumed = cli(["resume", "--input", "text", "--output", "text"], small_disk, refused_line + "\n")
    assert resumed.returncode == 0, resumed.stderr
    assert len(moves_in(small_disk)) == len(saved) + 1


def test_a_full_database_stops_the_game_the_same_way(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    monkeypatch.setenv("PARTYHOST_DATA_DIR", str(data))
    monkeypatch.setenv("PARTYHOST_CONFIG", os.devnull)
    opened = Journal.__init__

    def with_few_pages_left(journal, path):
        opened(journal, path)
        (pages,) = journal.db.execute("PRAGMA page_count").fetchone()
        journal.db.execute(f"PRAGMA max_page_count = {pages + 1}")

    monkeypatch.setattr(Journal, "__init__", with_few_pages_left)
    monkeypatch.setattr("sys.stdin", io.StringIO(SCRIPT))
    code = main(CENTURION)
    out = capsys.readouterr()
    assert code == 2 and "Traceback" not in out.out + out.err
    assert out.err.splitlines() == [f"partyhost: cannot save the game in {data}/partyhost.sqlite3: the disk is full"]
    assert out.out.splitlines()[-1] == CANNOT_SAVE
    taken = lines_taken(out.out)
    assert 0 < taken < len(SCRIPT.splitlines())
    monkeypatch.setattr(Journal, "__init__", opened)
    assert moves_in(data) == played_straight(tmp_path, taken - 1)


@pytest.mark.slow
def test_a_served_table_pauses_on_a_full_disk_and_goes_on_when_there_is_room(small_disk):
    """`partyhost serve` with its data on the small disk: Keep It 100 played by transcripts until
    the disk is full; the players hear why, nothing more is taken, and the game goes on after."""
    from test_wyoming_service import Service, reply_to, say

    subprocess.run(["mount", "-o", "remount,size=512k", str(small_disk)], check=True)  # room for its deck copy
    table = Service(small_disk, "--no-zeroconf")
    try:
        question, said = "Which game shall we play?", []
        for _ in range(200):
            answer = say(table.port, reply_to(question))
            said.append(answer)
            if "cannot save" in answer:
                break
            question = answer
        assert said[-1] == (
            "I cannot save the game: the disk is full. So I stop here; every move before this "
            "one is saved. When there is room on the disk again, say anything and we go on."
        )
        saved = moves_in(small_disk)
        back = say(table.port, reply_to(question))  # the next words: the game again
        assert back.startswith("Welcome back to Keep It 100"), back
        again = say(table.port, reply_to(back))  # still full: told again, nothing taken
        assert again.startswith("I cannot save the game: the disk is full") and moves_in(small_disk) == saved
        subprocess.run(["mount", "-o", "remount,size=2m", str(small_disk)], check=True)
        back = say(table.port, "hello")
        assert back.startswith("Welcome back to Keep It 100"), back
        say(table.port, reply_to(back))
        assert len(moves_in(small_disk)) == len(saved) + 1
    finally:
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors
    assert "partyhost: cannot save the game in" in errors
