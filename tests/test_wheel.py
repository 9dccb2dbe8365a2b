"""The built wheel carries its data: installed outside the repository, it plays.

The project is built into a wheel (from a copy, so the checkout stays clean) and
installed without dependencies into a fresh virtualenv in a temporary folder; the
dependencies come from the running environment's site-packages through a .pth line
(its own partyhost is not on that path: .pth files of an added folder are not run).
Then, from a folder outside the repository, `partyhost decks stats` reads the shipped
decks and a typed Centurion game plays to its winner with the shipped grammars and pack.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from replay import load_cases

pytestmark = pytest.mark.slow   # builds a wheel and a virtualenv

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "partyhost", "host", "voice", "grammars", "decks", "models")


def build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / name, source / name)
    for folder in (source / "models").iterdir():      # downloaded models are not part of the build
        if folder.is_dir() and folder.name != "__pycache__":
            shutil.rmtree(folder)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                            str(tmp_path / "dist"), str(source)], capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        pytest.fail(f"the wheel did not build: {built.stderr[-2000:]}")
    return next((tmp_path / "dist").glob("partyhost-*.whl"))


def test_the_installed_wheel_finds_its_data_and_plays_outside_the_repo(tmp_path):
    wheel = build_wheel(tmp_path)
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                                "--quiet", str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PARTYHOST_DATA_DIR=str(tmp_path / "data"), PARTYHOST_CONFIG=str(tmp_path / "none.toml"))
    partyhost = str(env_dir / "bin" / "partyhost")

    where = subprocess.run([python, "-c", "import grammars, decks, models, partyhost; "
                            "print(grammars.FOLDER, decks.FOLDER, models.MANIFEST, partyhost.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True).stdout
    assert str(REPO) not in where and where.count(str(site)) == 4, where

    stats = subprocess.run([partyhost, "decks", "stats"], cwd=elsewhere, env=env,
                           capture_output=True, text=True, timeout=300)
    assert stats.returncode == 0, stats.stderr
    assert "questions:" in stats.stdout and "keep cool:" in stats.stdout

    case = next(c for c in load_cases() if c.game == "centurion" and c.script == "centurion-pvp-host.txt")
    events = tmp_path / "events.jsonl"
    played = subprocess.run([partyhost, *case.cli_arguments(), "--input", "text", "--output", "text",
                             "--events", str(events)], cwd=elsewhere, env=env, input="\n".join(case.lines()) + "\n",
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    last = json.loads(events.read_text(encoding="utf-8").splitlines()[-1])
    assert last["type"] == "game_over" and tuple(last["winners"]) == case.winners
