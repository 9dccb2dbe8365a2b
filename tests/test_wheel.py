"""The built wheel carries its data: installed outside the repository, it plays.

The project is built into a wheel (from a copy, so the checkout stays clean) and
installed without dependencies into a fresh virtualenv in a temporary folder; the
dependencies come from the running environment's site-packages folders through a .pth
file (its own partyhost is not on that path: .pth files of an added folder are not run).
Then, from a folder outside the repository, `partyhost decks stats` reads the shipped
decks and a typed Centurion game plays to its winner with the shipped grammars and pack.
The data folders are package data inside voice/ and host/: no top-level `grammars`,
`decks` or `models` can be imported from the installed wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from replay import load_cases

pytestmark = pytest.mark.slow  # builds a wheel and a virtualenv

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
    for folder in (source / "models").iterdir():  # downloaded models are not part of the build
        if folder.is_dir() and folder.name != "__pycache__":
            shutil.rmtree(folder)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode != 0:
        pytest.fail(f"the wheel did not build: {built.stderr[-2000:]}")
    return next((tmp_path / "dist").glob("partyhost-*.whl"))


@dataclass(frozen=True)
class Installed:
    """The wheel installed in a fresh virtualenv, and how to run it outside the repository."""

    wheel: Path
    python: Path
    site: Path  # the virtualenv's site-packages, where the wheel went
    elsewhere: Path  # a working folder outside the repository
    env: dict[str, str]

    def run(self, *args: str | Path, **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*args], cwd=self.elsewhere, env=self.env, capture_output=True, text=True, timeout=300, **kwargs
        )


def dependency_folders() -> list[str]:
    """The running environment's site-packages folders (a worktree's venv may take its
    dependencies from another venv through a .pth line)."""
    return [path for path in sys.path if Path(path).name == "site-packages"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(tmp_path)
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "dependencies.pth").write_text("\n".join(dependency_folders()) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PARTYHOST_DATA_DIR=str(tmp_path / "data"), PARTYHOST_CONFIG=os.devnull)
    return Installed(wheel, python, site, elsewhere, env)


FIND_DATA = """
from host.decks import default_deck_dir, default_pack, load_default_decks
from host.games import dealing
from partyhost.models import MANIFEST, load_manifest
from voice.understanding.grammar import GRAMMAR_DIR, load_grammar
from voice.understanding.vocabulary import EXTRA_PRONUNCIATIONS
import partyhost

grammar = load_grammar("centurion")
decks = load_default_decks(question_games=dealing("questions"))
models = load_manifest()
assert grammar.prompts and decks.questions and decks.words and default_pack() and models
assert EXTRA_PRONUNCIATIONS.is_file()
print(GRAMMAR_DIR, default_deck_dir(), MANIFEST, partyhost.__file__, sep="\\n")
"""


def test_the_installed_wheel_has_no_generic_top_level_names(installed):
    for name in ("grammars", "decks", "models"):
        tried = installed.run(installed.python, "-c", f"import {name}")
        assert tried.returncode != 0 and f"ModuleNotFoundError: No module named '{name}'" in tried.stderr, (
            name,
            tried.stdout,
            tried.stderr,
        )


def test_the_wheel_holds_no_lab_and_only_the_measuring_a_player_runs(installed):
    """The simulated table, its scripted games and decks stay in the checkout's lab/;
    the wheel's `bench` is `accuracy` and `latency` with their own recordings."""
    names = zipfile.ZipFile(installed.wheel).namelist()
    assert not [name for name in names if "partyhost_lab" in name or "scripted_games" in name]
    bench = {Path(name).name for name in names if name.startswith("partyhost/bench/")}
    assert bench == {"__init__.py", "commands.py", "manifest.py", "model_choice.py", "own_lines.py"}, bench
    assert not [name for name in names if name.startswith("tests/") or "/tests/" in name]


def test_the_wheel_marks_each_of_its_packages_as_typed(installed):
    """PEP 561: a project importing partyhost, host or voice from the wheel is checked
    against their type hints, which a py.typed beside each top-level package says are there."""
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert {f"{package}/py.typed" for package in ("partyhost", "host", "voice")} <= names


def test_the_installed_wheel_finds_its_grammars_decks_and_model_list(installed):
    found = installed.run(installed.python, "-c", FIND_DATA)
    assert found.returncode == 0, found.stderr
    where = found.stdout.splitlines()
    assert len(where) == 4 and all(line.startswith(str(installed.site)) for line in where), where
    assert str(REPO) not in found.stdout


def test_the_installed_wheel_plays_outside_the_repo(installed, tmp_path):
    partyhost = str(installed.python.parent / "partyhost")

    stats = installed.run(partyhost, "decks", "stats")
    assert stats.returncode == 0, stats.stderr
    assert "questions:" in stats.stdout and "keep cool:" in stats.stdout

    case = next(c for c in load_cases() if c.game == "centurion" and c.script == "centurion-pvp-host.txt")
    events = tmp_path / "events.jsonl"
    played = installed.run(
        partyhost,
        *case.cli_arguments(),
        "--input",
        "text",
        "--output",
        "text",
        "--events",
        str(events),
        input="\n".join(case.lines()) + "\n",
    )
    assert played.returncode == 0, played.stderr
    last = json.loads(events.read_text(encoding="utf-8").splitlines()[-1])
    assert last["type"] == "game_over" and tuple(last["winners"]) == case.winners
