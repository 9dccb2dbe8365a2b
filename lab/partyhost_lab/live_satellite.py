"""The real wyoming-satellite (PyPI) on 127.0.0.1, for `partyhost bench table` and for the
tests of voice/remote/satellite.py (tests/satellite.py: its fixtures).

wyoming-satellite 1.0.0 pins wyoming==1.4.1 while partyhost needs wyoming>=1.10, so
it lives in a venv of its own, built once and kept in the lab's cache folder
(lab/.cache/wyoming-satellite-1.0.0, which git ignores; the tests use the same
one); a fresh machine builds it on first use from PyPI. Its microphone is
lab/partyhost_lab/satellite_mic.py (a paced raw stream, as arecord gives, over a faint
floor or a room's continuous noise) and its speaker appends what it plays to a raw file.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from partyhost_lab.places import LAB_CACHE

SATELLITE_VERSION = "1.0.0"
SATELLITE_VENV = LAB_CACHE / f"wyoming-satellite-{SATELLITE_VERSION}"
"""Built once, and used by the bench and the tests alike."""
SND_RATE = 22050  # wyoming-satellite's default --snd-command-rate
MIC = Path(__file__).with_name("satellite_mic.py")


class SatelliteUnavailable(RuntimeError):
    """wyoming-satellite could not be installed; the message says why."""


def satellite_venv(venv: Path = SATELLITE_VENV) -> Path:
    """The Python of the venv holding wyoming-satellite, built there if not there yet.
    (Its 1.0.0 console script names a missing function, so it is run as
    `python -m wyoming_satellite`.)"""
    program = venv / "bin" / "python"
    venv.parent.mkdir(parents=True, exist_ok=True)
    with (venv.parent / f"{venv.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test workers at once: one builds, the other waits
        if not (venv / "bin" / "wyoming-satellite").exists():
            _build(venv)
    return program


def _build(venv: Path) -> None:
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", "--clear", str(venv)], check=True, capture_output=True, timeout=120
        )
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "--quiet", f"wyoming-satellite=={SATELLITE_VERSION}"],
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.CalledProcessError as error:
        raise SatelliteUnavailable(
            f"cannot install wyoming-satellite {SATELLITE_VERSION} into {venv}: {(error.stderr or '')[-500:]}"
        ) from error


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RunningSatellite:
    """One wyoming-satellite process: started, killed and started again on the same port."""

    def __init__(
        self,
        program: Path,
        work: Path,
        name: str = "Table",
        mic_chunk: int = 1024,
        room: Path | None = None,
        echo_gain: float | None = None,
        keep_heard: bool = False,
    ):
        """`room`: raw 16 kHz 16-bit noise the microphone hears, looped, under every line
        (None: a faint floor). `echo_gain`: the microphone hears the speaker too, its
        samples scaled by this (None: it does not). `keep_heard`: the microphone's whole
        stream is kept in heard.raw (raw 16 kHz 16-bit mono; heard.raw.start holds the
        time.monotonic() of its first sample)."""
        self.program, self.work, self.name = program, work, name
        self.mic_chunk = mic_chunk  # samples per microphone chunk (the satellite's default: 1024)
        self.room, self.echo_gain = room, echo_gain
        self.heard = work / "heard.raw" if keep_heard else None
        self.port = free_port()
        self.mailbox = work / "mic"
        self.played = work / "played.raw"
        self.players = work / "players.txt"  # a line for each start of its player (--snd-command)
        self.log = work / "satellite.log"
        self.mailbox.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None
        self.said = 0

    @property
    def address(self) -> str:
        return f"wyoming://127.0.0.1:{self.port}"

    def start(self) -> RunningSatellite:
        snd = (
            f"sh -c {shlex.quote(f'echo >> {shlex.quote(str(self.players))}; cat >> {shlex.quote(str(self.played))}')}"
        )
        echo = [] if self.echo_gain is None else [str(self.played), repr(self.echo_gain)]
        room = [str(self.room) if self.room else "-"] if self.room or echo else []
        mic = shlex.join([sys.executable, str(MIC), str(self.mailbox), str(self.mic_chunk), *room, *echo])
        args = [
            str(self.program),
            "-m",
            "wyoming_satellite",
            "--uri",
            f"tcp://127.0.0.1:{self.port}",
            "--name",
            self.name,
            "--no-zeroconf",
            "--mic-command",
            mic,
            "--mic-command-samples-per-chunk",
            str(self.mic_chunk),
            "--snd-command",
            snd,
            "--debug",
        ]
        env = os.environ | ({"HEARD_COPY": str(self.heard)} if self.heard else {})
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
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
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def say(self, audio: np.ndarray, wait: bool = True, timeout: float = 60) -> float:
        """Speak 16 kHz float audio into the satellite's microphone (and wait until it is
        said); the time.monotonic() at which its first sample was heard (once said)."""
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
        return float(name.with_suffix(".start").read_text()) if wait else 0.0

    def players_started(self) -> int:
        """How often the satellite started its player: after each AudioStop it starts anew."""
        return len(self.players.read_text().splitlines()) if self.players.exists() else 0

    def played_audio(self) -> np.ndarray:
        """Everything the satellite played, as float samples at SND_RATE."""
        if not self.played.exists():
            return np.zeros(0, np.float32)
        data = self.played.read_bytes()
        return np.frombuffer(data[: len(data) // 2 * 2], "<i2").astype(np.float32) / 32768


def events(path: Path) -> list[dict]:
    """The event log written so far (docs/specs/events.md)."""
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def count(path: Path, kind: str) -> int:
    return sum(e["type"] == kind for e in events(path))


class EventFollower:
    """The host's event log as it is written, each event stamped with when it was seen."""

    def __init__(self, path: Path):
        self.path = path
        self.events: list[dict] = []
        self.seen: list[float] = []
        self._offset = 0

    def update(self) -> list[dict]:
        if self.path.exists():
            with open(self.path, "rb") as log:
                log.seek(self._offset)
                data = log.read()
            complete = data[: data.rfind(b"\n") + 1]
            self._offset += len(complete)
            now = time.monotonic()
            for text in complete.decode("utf-8").splitlines():
                self.events.append(json.loads(text))
                self.seen.append(now)
        return self.events

    def since(self, mark: int) -> list[dict]:
        return self.update()[mark:]

    def first(self, kinds: tuple[str, ...], mark: int) -> int | None:
        """Index of the first event of these kinds at or after `mark`."""
        return next((i for i in range(mark, len(self.update())) if self.events[i]["type"] in kinds), None)


class HostSpeech:
    """Whether the host has finished what it began saying: the speaker got audio after the
    newest sound it logged (say or sound event; not the ticks played while it listened,
    logged after them), and nothing new for `quiet_s` (the satellite sink streams at
    most 0.3 s ahead of playing)."""

    SEEN_WITHIN_S = 0.1
    """A sound is logged at most this long before it is seen here (the callers poll
    every 50 ms), so a short cue played whole by then still counts as played."""

    def __init__(self, log: Path, satellite: RunningSatellite, quiet_s: float = 1.0) -> None:
        self.log, self.played, self.quiet_s = EventFollower(log), satellite.played, quiet_s
        self.sounds, self.logged_at = 0, float("-inf")

    def quiet(self) -> bool:
        sounds = sum(e["type"] in ("say", "sound") and not e.get("live") for e in self.log.update())
        now = time.time()
        if sounds != self.sounds:
            self.sounds, self.logged_at = sounds, now - self.SEEN_WITHIN_S
            return False
        if not self.played.exists():
            return False
        played_at = self.played.stat().st_mtime
        return played_at >= self.logged_at and now - played_at > self.quiet_s


def stop(process: subprocess.Popen) -> None:
    """End a process this bench or a test started (a host, a server): asked to end, killed after 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
