"""What a new user tries first: scripts/run from anywhere, resume, the typed menu, clear refusals."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
TEXT = ["--input", "text", "--output", "text"]


def run(args, tmp_path, stdin="", cwd=REPO):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_scripts_run_leaves_the_caller_where_they_are(tmp_path):
    """scripts/run itself, with a stand-in setup-env whose partyhost prints where it runs."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "run", repo / "scripts" / "run")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "partyhost").write_text('#!/bin/sh\necho "cwd=$PWD args=$*"\n')
    (bin_dir / "partyhost").chmod(0o755)
    (repo / "scripts" / "setup-env").write_text(f'export PATH="{bin_dir}:$PATH"\n')
    caller = tmp_path / "caller"
    caller.mkdir()
    result = subprocess.run(
        [str(repo / "scripts" / "run"), "play", "--input", "answers.wav"],
        cwd=caller,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"cwd={caller} args=play --input answers.wav"


def test_resume_keeps_the_games_own_typed_input_and_output(tmp_path):
    first = run(["play", "centurion", "--players", "Ana,Ben", "--seed", "7", *TEXT], tmp_path, "score\n")
    assert first.returncode == 0
    again = run(["resume"], tmp_path, "score\n")  # no flags: the settings say mic and speaker
    assert again.returncode == 0, again.stderr
    assert "HOST: Welcome back to Centurion" in again.stdout


def test_a_missing_microphone_suggests_typing(tmp_path):
    result = run(["play", "keep-it-100", "--input", "mic", "--input-device", "no such microphone"], tmp_path)
    assert result.returncode == 2 and "To type your replies instead, add --input text." in result.stderr
    assert ".;" not in result.stderr and ". To type" in result.stderr


def test_scripts_run_names_itself_in_the_commands_partyhost_suggests(tmp_path):
    """scripts/run (with a stand-in partyhost) tells partyhost how it was called ..."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "run", repo / "scripts" / "run")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "partyhost").write_text('#!/bin/sh\necho "run=$PARTYHOST_RUN"\n')
    (bin_dir / "partyhost").chmod(0o755)
    (repo / "scripts" / "setup-env").write_text(f'export PATH="{bin_dir}:$PATH"\n')
    result = subprocess.run(["scripts/run", "sessions"], cwd=repo, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "run=scripts/run"


def test_the_closing_line_names_the_command_that_was_run(tmp_path):
    """... and the closing line says it: the README teaches scripts/run, and `partyhost` is
    on the PATH only inside the virtual environment."""
    args = ["play", "keep-cool", "--players", "Ana,Ben,Cy", *TEXT]
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    for run_as, said in (
        ({"PARTYHOST_RUN": "scripts/run"}, "scripts/run resume "),
        ({}, "python -m partyhost resume "),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "partyhost", *args],
            cwd=REPO,
            env={**{k: v for k, v in env.items() if k != "PARTYHOST_RUN"}, **run_as},
            input="",
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[-1].startswith(f"HOST: The game is saved. To continue: {said}")


def test_scripts_run_with_no_arguments_does_what_its_header_says():
    """The header of scripts/run promises the spoken menu, which is what no arguments start."""
    from partyhost.cli import _with_command, build_parser

    header = [line for line in (REPO / "scripts" / "run").read_text().splitlines() if line.startswith("#")]
    assert any("With no arguments it starts the spoken menu" in line for line in header)
    assert not any("shows the available commands" in line for line in header)
    args = build_parser().parse_args(_with_command([]))
    assert args.command == "play" and args.game is None  # the menu asks which game


def test_io_flags_alone_start_the_typed_menu(tmp_path):
    result = run(TEXT, tmp_path, "centurion\n2\n")
    assert result.returncode == 0, result.stderr
    assert "Which game shall we play?" in result.stdout and "Centurion for 2" in result.stdout


def test_teams_alone_name_the_players(tmp_path):
    result = run(["play", "zero-to-100", "--teams", "Ana,Ben;Cy,Dee;Eve", "--seed", "1", *TEXT], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Eve" in result.stdout and "Ana" in result.stdout


def test_centurion_for_three_names_the_mode_for_one(tmp_path):
    result = run(["play", "centurion", "--players", "Ana,Ben,Cy", *TEXT], tmp_path)
    assert result.returncode == 2 and "--mode vs-host" in result.stderr


def test_the_package_metadata_is_current_for_setuptools():
    """What made `pip install` warn: a license table, and a data folder not named as a package."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert isinstance(project["project"]["license"], str)
    packages = project["tool"]["setuptools"]["packages"]
    for folder in project["tool"]["setuptools"]["package-data"]:
        assert folder in packages
    shipped = {
        p.relative_to(REPO).parent.as_posix().replace("/", ".")
        for p in (REPO / "partyhost").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert shipped <= set(packages)


def test_a_skip_for_something_missing_names_the_test_and_the_reason(tmp_path):
    (tmp_path / "test_needs.py").write_text(
        f"import sys\nsys.path.insert(0, {str(REPO / 'tests')!r})\nfrom conftest import unavailable\n\n"
        "def test_needs_a_browser():\n    unavailable('no browser here (run scripts/ci-system-deps)')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-ra", "-p", "no:cacheprovider", "test_needs.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "SKIPPED [1] test_needs.py:5: no browser here (run scripts/ci-system-deps)" in result.stdout


def test_a_resumed_keep_cool_game_gives_each_player_their_words_again(tmp_path):
    """The words each player was dealt privately, said again after a resume as the round's start said them."""
    first = run(["play", "keep-cool", "--players", "Ana,Ben,Cy", "--seed", "2", *TEXT], tmp_path, "red\nline three\n")
    assert first.returncode == 0, first.stderr
    dealt = [line for line in first.stdout.splitlines() if " only] Your words: " in line]
    assert [line[:13] for line in dealt] == ["[to Ana only]", "[to Ben only]", "[to Cy only] "]
    again = run(["resume"], tmp_path, "no\n")
    assert again.returncode == 0, again.stderr
    told = [line for line in again.stdout.splitlines() if " only] " in line]
    assert told[:3] == dealt
    welcome = again.stdout.splitlines().index("HOST: Welcome back to Keep Cool. We were in the middle of the game.")
    assert welcome < again.stdout.splitlines().index(dealt[0])
