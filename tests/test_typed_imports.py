"""Typed play loads no audio code: the text understanding alone (issue 31).

A game played with --input text --output text in a fresh interpreter; at its end no
audio library and no module of voice's listening, speaking or recognisers is loaded.
numpy is: the matcher aligns words with it (voice/understanding/align.py).

A command that starts no game (help, the saved games, an option refused) loads none of
the game's machinery either: no grammar, understanding or network library.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
AUDIO = (
    "sounddevice",
    "soxr",
    "webrtcvad",
    "faster_whisper",
    "ctranslate2",
    "onnxruntime",
    "piper",
    "pymicro_wakeword",
    "voice.listening",
    "voice.speaking",
    "voice.asr",
)
PLAY = """
import atexit, json, runpy, sys
atexit.register(lambda: print("MODULES " + json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["partyhost", *sys.argv[1:]]
runpy.run_module("partyhost", run_name="__main__", alter_sys=True)
"""

MACHINERY = (
    "numpy",
    "hassil",
    "asyncio",
    "wyoming",
    "voice.understanding.grammar",
    "voice.understanding.matcher",
    "partyhost.sitting",
    "partyhost.voiceio",
)


def loaded_modules(args: list[str], tmp_path: Path, stdin: str = "") -> tuple[subprocess.CompletedProcess, list[str]]:
    """partyhost run with `args` in a fresh interpreter, and the modules loaded when it ended."""
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    result = subprocess.run(
        [sys.executable, "-c", PLAY, *args], input=stdin, cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    line = next(line for line in result.stderr.splitlines() if line.startswith("MODULES "))
    return result, json.loads(line.removeprefix("MODULES "))


def test_typed_play_imports_no_audio_module(tmp_path):
    args = ["play", "centurion", "--players", "Ana,Ben", "--seed", "7", "--input", "text", "--output", "text"]
    result, modules = loaded_modules(args, tmp_path, stdin="host, score\nqueen of hearts\nseven\n")
    assert "HOST: " in result.stdout and "The game is saved" in result.stdout, result.stdout[-1500:] + result.stderr
    assert "voice.understanding.matcher" in modules  # the replies were understood ...
    loaded = [m for m in modules if any(m == name or m.startswith(name + ".") for name in AUDIO)]
    assert not loaded, loaded  # ... with no audio module


@pytest.mark.parametrize(
    "args, said",
    [
        (["--help"], "play"),
        (["sessions"], "No saved games"),
        (["play", "centurion", "--mode", "solo", "--input", "text", "--output", "text"], "solo"),
        (["play", "keep-cool", "--players", "Ana,Ben", "--input", "text", "--output", "text"], "3"),
    ],
    ids=["help", "saved games", "unknown mode", "too few players"],
)
def test_a_command_that_starts_no_game_loads_no_game_machinery(tmp_path, args, said):
    result, modules = loaded_modules(args, tmp_path)
    assert said in result.stdout + result.stderr, result.stdout + result.stderr
    loaded = [m for m in modules if any(m == name or m.startswith(name + ".") for name in MACHINERY)]
    assert not loaded, loaded
