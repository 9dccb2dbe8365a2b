"""The real Home Assistant core, as the client of `partyhost serve`, for tests/test_home_assistant.py.

Home Assistant 2025.4.4 is the last release that runs on Python 3.13.0, which pyenv has
on these machines (2025.5 to 2026.2 ask for 3.13.2, later ones for 3.14.2). It cannot
share partyhost's venv (Python 3.11, and its own pins), so it lives in a venv of its
own, built with pyenv's 3.13 by uv (a test requirement: it downloads and installs the
about 110 packages in parallel, about a minute on a fresh 2-core machine, where pip
took about ten). It is kept in the user's cache folder (~/.cache/partyhost-tests/, or
$XDG_CACHE_HOME's), where every clone on the machine finds it.

It holds Home Assistant and the one requirement its `wyoming` integration
would install at run time (wyoming 1.5.4, its manifest's pin); everything
else the `conversation` and `wyoming` integrations need comes with Home Assistant's own
dependencies.

tests/home_assistant_agent.py runs in that venv: Home Assistant's core with those
integrations, driven one JSON line at a time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import pytest
from conftest import unavailable
from satellite import free_port

HOME_ASSISTANT_VERSION = "2025.4.4"
WYOMING_FOR_HOME_ASSISTANT = "1.5.4"
"""homeassistant/components/wyoming/manifest.json's requirement in that release."""
AGENT = Path(__file__).with_name("home_assistant_agent.py")


def python_313() -> Path | None:
    """A Python 3.13 to build the venv with: pyenv's, or one on the PATH."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found = sorted(root.glob("versions/3.13.*/bin/python3.13"), reverse=True)
    on_path = shutil.which("python3.13")
    return found[0] if found else Path(on_path) if on_path else None


def home_assistant_program() -> Path:
    """The Python of a cached venv holding Home Assistant, built if not there yet."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "partyhost-tests"
    venv = cache / f"home-assistant-{HOME_ASSISTANT_VERSION}"
    venv.mkdir(parents=True, exist_ok=True)
    program = venv / "bin" / "python"
    done = venv / ".installed"
    if done.exists():
        return program
    python = python_313()
    if python is None:
        unavailable(
            f"Home Assistant {HOME_ASSISTANT_VERSION} needs Python 3.13 and none was found "
            "(no pyenv version 3.13.*, no python3.13 on the PATH; Debian 12 packages only 3.11)"
        )
    uv = [sys.executable, "-m", "uv"]
    try:
        subprocess.run(
            [*uv, "venv", "--quiet", "--clear", "--python", str(python), str(venv)],
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
        # uv compiles nothing ahead: Home Assistant is 320 MB of Python; only what is imported is.
        subprocess.run(
            [
                *uv,
                "pip",
                "install",
                "--quiet",
                "--python",
                str(program),
                f"homeassistant=={HOME_ASSISTANT_VERSION}",
                f"wyoming=={WYOMING_FOR_HOME_ASSISTANT}",
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    except subprocess.CalledProcessError as error:
        unavailable(
            f"cannot install Home Assistant {HOME_ASSISTANT_VERSION} into {venv}: {(error.stderr or '')[-800:]}"
        )
    done.touch()
    return program


class RunningHomeAssistant:
    """Home Assistant's core in its own process, with its `wyoming` and `conversation` integrations."""

    def __init__(self, program: Path, work: Path):
        work.mkdir(parents=True, exist_ok=True)
        self.log = work / "home-assistant.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [str(program), str(AGENT), str(work), str(free_port())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )
        self._answers: Queue[str] = Queue()
        threading.Thread(target=self._read, daemon=True).start()
        started = self._next(timeout=180)
        self.version = started["version"]

    def _read(self) -> None:
        for line in self.process.stdout:
            self._answers.put(line)

    def _next(self, timeout: float) -> dict[str, Any]:
        try:
            answer = json.loads(self._answers.get(timeout=timeout))
        except Empty:
            raise AssertionError(
                f"Home Assistant did not answer in {timeout:g} s: {self.log.read_text()[-3000:]}"
            ) from None
        assert "error" not in answer, answer.get("traceback") or answer["error"]
        return answer

    def ask(self, request: dict[str, Any], timeout: float = 90) -> dict[str, Any]:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._next(timeout)

    def add_wyoming_service(self, host: str, port: int) -> dict[str, Any]:
        """The config flow's result and the conversation agent the entry made."""
        return self.ask({"add": {"host": host, "port": port}})

    def converse(self, text: str) -> dict[str, Any]:
        """Home Assistant's conversation result for `text`, from the Wyoming entry's agent."""
        return self.ask({"say": text})

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def home_assistant_program_path() -> Path:
    return home_assistant_program()


@pytest.fixture
def home_assistant(home_assistant_program_path, tmp_path):
    running = RunningHomeAssistant(home_assistant_program_path, tmp_path / "home-assistant")
    yield running
    running.stop()
