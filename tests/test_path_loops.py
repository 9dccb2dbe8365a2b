"""A file named on the command line that is a loop of symbolic links: one line, no traceback
(issue 46, item 6). `decks check` reported it cleanly; `play` raised RuntimeError from pathlib."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "game, flag, what",
    [
        ("keep-it-100", "--deck", "deck file"),
        ("keep-cool", "--word-deck", "deck file"),
        ("centurion", "--card-deck", "deck file"),
        ("keep-it-100", "--events", "event log"),
    ],
)
def test_a_symlink_loop_is_refused_in_one_line_before_anything_is_saved(tmp_path: Path, game, flag, what):
    (tmp_path / "a.csv").symlink_to(tmp_path / "b.csv")
    (tmp_path / "b.csv").symlink_to(tmp_path / "a.csv")
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            game,
            flag,
            str(tmp_path / "a.csv"),
            "--players",
            "Ana,Ben,Cy",
            "--input",
            "text",
            "--output",
            "text",
        ],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == (
        f"partyhost: {tmp_path / 'a.csv'}: cannot use this {what} (its symbolic links lead round in a loop)\n"
    )
    assert "HOST:" not in result.stdout
    assert not (tmp_path / "data" / "events").exists() or not any((tmp_path / "data" / "events").iterdir())
