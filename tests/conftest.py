"""Shared fixtures: the real recordings beside the project, and a real sound device.

The sound device is a PulseAudio null sink: what is played into it can be captured
from its monitor source, so a test can play a WAV with `paplay` and let the host hear
it through PortAudio exactly as it would hear a microphone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_AUDIO = REPO.parent / "shared" / "audio"
NULL_SINK = "partyhost_test"


TMPFS = Path("/dev/shm")
TMPFS_SPARE = 4 << 30
"""tmp_path goes to RAM when this much is free there: the games fsync every event and
every move, which costs nothing on tmpfs and a disk wait elsewhere."""


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # xdist's workers inherit both from the controller
        _temporary_folders_in_ram(config)
        _bytecode_cached_outside_the_tree()


SLOW_MARKS = ("slow", "audio", "browser", "model", "live")
"""The marks scripts/test runs apart from the quick tests (scripts/test --fast leaves them out)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Two groups for `--dist loadgroup` (scripts/test): the live games, spoken in real time
    and mostly waiting, on one worker; every other slow test one at a time on the other
    (they share the sound server's null sink, and each loads models that want the cores)."""
    for item in items:
        if item.get_closest_marker("live"):
            item.add_marker(pytest.mark.xdist_group("live"))
        elif any(item.get_closest_marker(mark) for mark in SLOW_MARKS):
            item.add_marker(pytest.mark.xdist_group("one at a time"))


def _temporary_folders_in_ram(config: pytest.Config) -> None:
    """Temporary folders on tmpfs unless the caller chose a place (--basetemp,
    PYTEST_DEBUG_TEMPROOT)."""
    if config.option.basetemp or "PYTEST_DEBUG_TEMPROOT" in os.environ:
        return
    try:
        free = shutil.disk_usage(TMPFS).free
    except OSError:
        return
    if free >= TMPFS_SPARE and os.access(TMPFS, os.W_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(TMPFS)


def _bytecode_cached_outside_the_tree() -> None:
    """The fast suite starts `python -m partyhost` over a hundred times. With
    PYTHONDONTWRITEBYTECODE set, each one compiles every module it imports again (a
    quarter of its start-up); the processes started from here (xdist's workers too)
    keep their bytecode in one folder of the temporary root instead, leaving the
    source tree as clean as the setting asks. This process does too, from here on: pytest
    keeps its rewritten test modules there instead of rewriting them at every run."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    root = Path(os.environ.get("PYTEST_DEBUG_TEMPROOT") or tempfile.gettempdir())
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = str(root / f"partyhost-pycache-{os.getuid()}")
    sys.dont_write_bytecode = False


def on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def unavailable(message: str) -> None:
    """Skip on a developer's machine; fail on CI, where the setup must work."""
    if on_ci():
        pytest.fail(
            f"{message} (CI=true, so this is a failure; scripts/ci-system-deps installs what is needed)", pytrace=False
        )
    # Reported at the test that needed it (as a skipif mark is), not at this line of conftest.py.
    raise pytest.skip.Exception(message, _use_item_location=True)


@pytest.fixture(scope="session")
def shared_audio() -> Path:
    """../shared/audio (real recordings, not shipped with the project)."""
    if not SHARED_AUDIO.is_dir():
        pytest.skip(
            f"real recordings not found at {SHARED_AUDIO} (they live beside the project, "
            "not in it); these tests need them"
        )
    return SHARED_AUDIO


@dataclass
class PulseNullSink:
    """A running PulseAudio server with our null sink as this process's sink and source."""

    sink: str
    monitor: str
    env: dict[str, str]  # for subprocesses (paplay, pactl)

    def paplay(self, wav: Path) -> subprocess.Popen:
        return subprocess.Popen(
            ["paplay", "-d", self.sink, str(wav)],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def pactl(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["pactl", *args], env=self.env, capture_output=True, text=True, timeout=10)

    def load(self) -> None:
        """Add the null sink (as if a USB sound card were plugged in)."""
        done = self.pactl(
            "load-module", "module-null-sink", f"sink_name={self.sink}", "rate=48000", "channels=1", "norewinds=1"
        )
        if done.returncode != 0:
            raise RuntimeError(f"could not load a PulseAudio null sink: {done.stderr.strip()}")

    def unload(self) -> None:
        """Remove our null sink (and only ours), as if the device were unplugged."""
        listing = self.pactl("list", "short", "modules").stdout
        for line in listing.splitlines():
            fields = line.split("\t")
            if len(fields) > 2 and fields[1] == "module-null-sink" and f"sink_name={self.sink}" in fields[2]:
                self.pactl("unload-module", fields[0])


def _server_answers(env: dict[str, str]) -> bool:
    try:
        return subprocess.run(["pactl", "info"], env=env, capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _start_private_server(runtime: Path) -> tuple[subprocess.Popen, dict[str, str], str]:
    """A PulseAudio daemon of our own (works as root too), reachable at a private socket."""
    socket = runtime / "native"
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(runtime), "PULSE_SERVER": f"unix:{socket}"}
    args = [
        "pulseaudio",
        "--daemonize=no",
        "-n",
        "--exit-idle-time=-1",
        "--disallow-exit",
        "--use-pid-file=no",
        "--disable-shm=yes",
        "--log-target=stderr",
        "--log-level=error",
        "-L",
        f"module-native-protocol-unix socket={socket} auth-anonymous=1",
    ]
    with open(runtime / "pulseaudio.log", "w") as log:
        daemon = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if daemon.poll() is not None:
            break
        if socket.exists() and _server_answers(env):
            return daemon, env, f"unix:{socket}"
        time.sleep(0.1)
    daemon.kill()
    daemon.wait()
    raise RuntimeError((runtime / "pulseaudio.log").read_text()[-2000:] or "no output")


@pytest.fixture(scope="session")
def pulse_null_sink():
    """Start PulseAudio if none runs, add a null sink, and make it this process's default
    sink and source (PULSE_SINK / PULSE_SOURCE), so PortAudio's ALSA "pulse" device plays
    into it and captures from its monitor. Torn down at the end of the session."""
    missing = [tool for tool in ("pulseaudio", "pactl", "paplay") if shutil.which(tool) is None]
    if missing:
        unavailable(f"PulseAudio tools missing ({', '.join(missing)}): run scripts/ci-system-deps")
    saved = {k: os.environ.get(k) for k in ("PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE")}
    runtime = Path(tempfile.mkdtemp(prefix="partyhost-pulse-"))
    daemon, pulse = None, None
    try:
        env = dict(os.environ)
        if not _server_answers(env):
            try:
                daemon, env, server = _start_private_server(runtime)
            except (OSError, RuntimeError) as error:
                unavailable(f"could not start a PulseAudio daemon: {error}")
            os.environ["PULSE_SERVER"] = server
        os.environ["PULSE_SINK"] = NULL_SINK
        os.environ["PULSE_SOURCE"] = f"{NULL_SINK}.monitor"
        env = {**env, "PULSE_SINK": NULL_SINK, "PULSE_SOURCE": f"{NULL_SINK}.monitor"}
        pulse = PulseNullSink(sink=NULL_SINK, monitor=f"{NULL_SINK}.monitor", env=env)
        try:
            pulse.unload()  # a leftover from an interrupted run
            pulse.load()
        except RuntimeError as error:
            unavailable(str(error))
        yield pulse
    finally:
        if pulse is not None:
            pulse.unload()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if daemon is not None:
            from partyhost_lab.live_satellite import stop

            stop(daemon)
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture(scope="session")
def voices():
    """Speech synthesis for tests: the host's Piper voice and espeak-ng voices."""
    from partyhost_lab.synthetic_speech import Voices

    return Voices(noise_scale=0.0)  # the same audio on every run: no flaky reads


@pytest.fixture(scope="session")
def say(voices):
    """Text -> 16 kHz speech in Piper's voice, with the lead-in and tail the endpointer keeps."""
    import numpy as np

    lead, tail = np.zeros(3200, np.float32), np.zeros(4800, np.float32)
    return lambda text: np.concatenate([lead, voices.speak("piper-1", text), tail])


def understood(recognizer, matcher, prompt: str, audio, slots: dict | None = None):
    """The intent the live ears would act on for this audio at this prompt (with these
    live lists), or None: the same reading function as voice.listening.ears (confidence x match
    score >= 0.5)."""
    from host.contract import Prompt
    from host.reply_policy import acts
    from voice.audio_types import SAMPLE_RATE, Utterance
    from voice.listening.reading import read_utterance

    reading = read_utterance(
        recognizer,
        matcher,
        Prompt(prompt, None, "", slots=slots or {}),
        Utterance(audio, 0.0, len(audio) / SAMPLE_RATE),
        acts=acts,
    )
    return None if reading.rejected else matcher.match(prompt, reading.text, slots).intent


@pytest.fixture(scope="session")
def asr_server(tmp_path_factory):
    """The real wyoming-faster-whisper on 127.0.0.1 with the shipped tiny.en: (address, process)."""
    from wyoming_servers import asr_command, free_port, running

    from voice.remote.address import WyomingAddress

    port, folder = free_port(), tmp_path_factory.mktemp("wfw")
    with running(asr_command(port, folder), port, folder / "server.log") as server:
        yield WyomingAddress("127.0.0.1", port), server


@pytest.fixture(scope="session")
def tts_server(tmp_path_factory):
    """The real wyoming-piper on 127.0.0.1 with the packaged voice: (address, process)."""
    from wyoming_servers import free_port, running, tts_command

    from voice.remote.address import WyomingAddress

    port, folder = free_port(), tmp_path_factory.mktemp("piper")
    with running(tts_command(port, folder / "voices"), port, folder / "server.log") as server:
        yield WyomingAddress("127.0.0.1", port), server
