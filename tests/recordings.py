"""Playing a recording into the real command line, for the whole-game voice tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from replay import REPO, ScriptCase


def partyhost(args: list[str], tmp_path: Path, **kwargs) -> subprocess.Popen:
    """`python -m partyhost ARGS` with its own data folder, and tmp_path/config.toml as its
    settings file where a test wrote it (else none)."""
    env = {
        **os.environ,
        "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
        "PARTYHOST_CONFIG": _settings_file(tmp_path / "config.toml"),
    }
    return subprocess.Popen([sys.executable, "-m", "partyhost", *args], cwd=REPO, env=env, text=True, **kwargs)


def _settings_file(path: Path) -> str:
    """The settings file when a test wrote one, else /dev/null (no settings: a missing file is refused)."""
    return str(path) if path.exists() else os.devnull


def play_recording(case: ScriptCase, recording: Path, tmp_path: Path, settings: str = "") -> list[dict]:
    """The event log of `case` played with `recording` as its microphone (it must exit 0),
    with `settings` (config.toml text) instead of the defaults where given."""
    events_path = tmp_path / "voice.jsonl"
    if settings:
        (tmp_path / "config.toml").write_text(settings, encoding="utf-8")
    run = partyhost(
        [
            *case.cli_arguments(),
            "--input",
            str(recording),
            "--output",
            str(tmp_path / "host.wav"),
            "--events",
            str(events_path),
        ],
        tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    return [json.loads(line) for line in events_path.read_text().splitlines()]
