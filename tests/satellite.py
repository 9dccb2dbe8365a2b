"""The real wyoming-satellite (PyPI) on 127.0.0.1, for the tests of voice/remote/satellite.py.

wyoming-satellite 1.0.0 pins wyoming==1.4.1 while partyhost needs wyoming>=1.10, so
it lives in a venv of its own, built once and kept in pytest's cache folder
(.pytest_cache/d/wyoming-satellite, which git ignores); a fresh CI machine builds it
on first use from PyPI. Its microphone is tests/satellite_mic.py (a paced raw
stream, as arecord gives) and its speaker appends what it plays to a raw file.
"""
from __future__ import annotations

import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import unavailable

SATELLITE_VERSION = "1.0.0"
SND_RATE = 22050          # wyoming-satellite's default --snd-command-rate
MIC = Path(__file__).with_name("satellite_mic.py")


def satellite_program(cache: pytest.Cache) -> Path:
    """The Python of a cached venv holding wyoming-satellite, built if not there yet.
    (Its 1.0.0 console script names a missing function, so it is run as
    `python -m wyoming_satellite`.)"""
    venv = cache.mkdir(f"wyoming-satellite-{SATELLITE_VERSION}")
    program = venv / "bin" / "python"
    if (venv / "bin" / "wyoming-satellite").exists():
        return program
    try:
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True,
                       capture_output=True, timeout=120)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet",
                        f"wyoming-satellite=={SATELLITE_VERSION}"], check=True, capture_output=True,
                       text=True, timeout=600)
    except subprocess.CalledProcessError as error:
        unavailable(f"cannot install wyoming-satellite {SATELLITE_VERSION} into {venv}: "
                    f"{(error.stderr or '')[-500:]}")
    return program


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RunningSatellite:
    """One wyoming-satellite process: started, killed and started again on the same port."""

    def __init__(self, program: Path, work: Path, name: str = "Table", mic_chunk: int = 1024):
        self.program, self.work, self.name = program, work, name
        self.mic_chunk = mic_chunk        # samples per microphone chunk (the satellite's default: 1024)
        self.port = free_port()
        self.mailbox = work / "mic"
        self.played = work / "played.raw"
        self.players = work / "players.txt"      # a line for each start of its player (--snd-command)
        self.log = work / "satellite.log"
        self.mailbox.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None
        self.said = 0

    @property
    def address(self) -> str:
        return f"wyoming://127.0.0.1:{self.port}"

    def start(self) -> "RunningSatellite":
        snd = f"sh -c {shlex.quote(f'echo >> {shlex.quote(str(self.players))}; cat >> {shlex.quote(str(self.played))}')}"
        args = [str(self.program), "-m", "wyoming_satellite", "--uri", f"tcp://127.0.0.1:{self.port}", "--name", self.name,
                "--no-zeroconf", "--mic-command", f"{sys.executable} {MIC} {self.mailbox} {self.mic_chunk}",
                "--mic-command-samples-per-chunk", str(self.mic_chunk),
                "--snd-command", snd, "--debug"]
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"wyoming-satellite exited: {self.log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("wyoming-satellite did not start listening in 30 s")

    def kill(self) -> None:
        """As if the satellite lost power: the process group (it and its mic/snd programs) dies."""
        if self.process is not None and self.process.poll() is None:
            import os
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def say(self, audio: np.ndarray, wait: bool = True, timeout: float = 60) -> None:
        """Speak 16 kHz float audio into the satellite's microphone (and wait until it is said)."""
        self.said += 1
        name = self.mailbox / f"{self.said:04d}"
        pcm = np.round(np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        name.with_suffix(".tmp").write_bytes(pcm)
        name.with_suffix(".tmp").rename(name.with_suffix(".raw"))
        deadline = time.monotonic() + timeout
        while wait and not name.with_suffix(".said").exists():
            if time.monotonic() > deadline:
                raise TimeoutError("the satellite's microphone did not take the line")
            time.sleep(0.02)

    def players_started(self) -> int:
        """How often the satellite started its player: after each AudioStop it starts anew."""
        return len(self.players.read_text().splitlines()) if self.players.exists() else 0

    def played_audio(self) -> np.ndarray:
        """Everything the satellite played, as float samples at SND_RATE."""
        if not self.played.exists():
            return np.zeros(0, np.float32)
        data = self.played.read_bytes()
        return np.frombuffer(data[:len(data) // 2 * 2], "<i2").astype(np.float32) / 32768


@pytest.fixture(scope="session")
def satellite_program_path(request) -> Path:
    return satellite_program(request.config.cache)


@pytest.fixture
def satellite(satellite_program_path, tmp_path):
    running = RunningSatellite(satellite_program_path, tmp_path / "satellite").start()
    yield running
    running.kill()
