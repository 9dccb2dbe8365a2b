"""A data folder copied or mounted read-only (issue 46, item 7).

A copy (cp -a) once went on writing its event logs, which hold the secret cards, into the
original folder, and `--delete` in the copy left the copy's logs behind: the journal kept
absolute paths. On a read-only mount even `partyhost sessions` failed.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from partyhost_lab.scripted import load_cases

REPO = Path(__file__).resolve().parents[1]
CASE = next(case for case in load_cases() if case.script == "keep-it-100-basic.txt")


def partyhost(args: list[str], data: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            *args,
            *(["--input", "text", "--output", "text"] if args[0] in ("play", "resume") else []),
        ],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def half_a_game(data: Path) -> str:
    lines = (REPO / "lab" / "scripted_games" / CASE.script).read_text().splitlines(keepends=True)
    played = partyhost(CASE.cli_arguments(), data, "".join(lines[: len(lines) // 2]))
    assert played.returncode == 0, played.stderr
    with sqlite3.connect(data / "partyhost.sqlite3") as db:
        (session,) = db.execute("SELECT id FROM sessions").fetchone()
    return session


def test_a_copied_folder_writes_and_deletes_its_own_event_logs(tmp_path: Path):
    original = tmp_path / "original"
    session = half_a_game(original)
    log = original / "events" / f"{session}.jsonl"
    before = log.read_bytes()
    copy = tmp_path / "copy"
    shutil.copytree(original, copy, symlinks=True)
    resumed = partyhost(["resume", session], copy, "score\n")
    assert resumed.returncode == 0, resumed.stderr
    assert log.read_bytes() == before, "the original's log is left alone"
    copied_log = copy / "events" / f"{session}.jsonl"
    assert any(json.loads(line)["type"] == "resumed" for line in copied_log.read_text().splitlines())
    deleted = partyhost(["sessions", "--delete", session], copy)
    assert deleted.returncode == 0, deleted.stderr
    assert not copied_log.exists() and log.exists()


def test_a_folder_copied_before_logs_were_kept_relative_is_self_contained_too(tmp_path: Path):
    """A journal written by an older partyhost names its default log with the whole path."""
    original = tmp_path / "original"
    session = half_a_game(original)
    log = original / "events" / f"{session}.jsonl"
    with sqlite3.connect(original / "partyhost.sqlite3") as db:
        (setup,) = db.execute("SELECT setup FROM sessions").fetchone()
        db.execute("UPDATE sessions SET setup = ?", (json.dumps({**json.loads(setup), "events": str(log)}),))
    before = log.read_bytes()
    copy = tmp_path / "copy"
    shutil.copytree(original, copy, symlinks=True)
    assert partyhost(["resume", session], copy, "score\n").returncode == 0
    assert log.read_bytes() == before
    assert partyhost(["sessions", "--prune", "--delete", session], copy).returncode == 0
    assert not (copy / "events" / f"{session}.jsonl").exists() and log.exists()


@pytest.fixture
def read_only(tmp_path: Path):
    """Make a folder read-only for partyhost: a read-only bind mount as root (who may write
    anything else), its mode otherwise."""
    mounted: list[Path] = []

    def make(folder: Path) -> Path:
        if os.geteuid() != 0:
            for path in (folder, *folder.rglob("*")):
                path.chmod(path.stat().st_mode & ~0o222)
            return folder
        view = tmp_path / "read-only"
        view.mkdir()
        for command in (["mount", "--bind", str(folder), str(view)], ["mount", "-o", "remount,ro,bind", str(view)]):
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                if mounted:
                    subprocess.run(["umount", str(view)])
                pytest.skip(f"root, and no read-only mount here: {done.stderr.strip()}")
            mounted.append(view) if view not in mounted else None
        return view

    yield make
    for view in mounted:
        subprocess.run(["umount", str(view)], check=True)


def test_a_read_only_data_folder_is_listed_and_checked_and_a_game_refused_plainly(tmp_path: Path, read_only):
    data = tmp_path / "data"
    session = half_a_game(data)
    fixed = read_only(data)
    listed = partyhost(["sessions"], fixed)
    assert listed.returncode == 0 and listed.stderr == ""
    assert session in listed.stdout and "keep-it-100" in listed.stdout
    checked = partyhost(["sessions", "--check"], fixed)
    assert checked.returncode == 0 and "all can be resumed" in checked.stdout
    for command in (["resume", session], CASE.cli_arguments()):
        refused = partyhost(command, fixed, "score\n")
        assert refused.returncode == 2 and "HOST:" not in refused.stdout
        [line] = refused.stderr.splitlines()
        assert line.startswith("partyhost: ") and "read-only" in line.lower()


# ---- a data folder that cannot be one, and nothing made for a game refused (issue 58, item 5) ----


@pytest.mark.parametrize("under", ["", "games/2026"])
def test_a_data_folder_that_is_a_file_is_named_in_one_line(tmp_path: Path, under: str):
    """It was SQLite's "[Errno 17] File exists: '...'" (or "[Errno 20] Not a directory")."""
    blocking = tmp_path / "partyhost-data"
    blocking.write_text("notes\n")
    folder = blocking / under if under else blocking
    made = "" if not under else f"{folder} cannot be made: "
    for args in (["sessions"], ["play", "centurion", "--players", "Ana,Ben"]):
        refused = partyhost(args, folder)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr == (
            f"partyhost: the data folder cannot be used: {made}{blocking} is a file, not a folder; "
            "choose another with --data-dir\n"
        )
    assert blocking.read_text() == "notes\n"


def test_a_refused_deck_leaves_no_journal_behind(tmp_path: Path):
    """A journal with no game in it was made before the deck was read and refused."""
    deck = tmp_path / "questions.csv"
    deck.write_text("question,answer\nWhat year?,1999\n")
    data = tmp_path / "data"
    refused = partyhost(["play", "keep-it-100", "--players", "Ana,Ben,Cy", "--deck", str(deck)], data)
    assert refused.returncode == 2 and refused.stderr.startswith(f"partyhost: bad deck: {deck}:1: missing columns")
    assert list(data.iterdir()) == []
