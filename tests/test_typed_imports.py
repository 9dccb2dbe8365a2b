"""Typed play loads no audio code: the text understanding alone (issue 31).

A game played with --input text --output text in a fresh interpreter; at its end no
audio library and no module of voice's listening, speaking or recognisers is loaded.
numpy is: the matcher aligns words with it (voice/understanding/align.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AUDIO = ("sounddevice", "soxr", "webrtcvad", "faster_whisper", "ctranslate2", "onnxruntime", "piper",
         "pymicro_wakeword", "voice.listening", "voice.speaking", "voice.asr")
PLAY = """
import atexit, json, runpy, sys
atexit.register(lambda: print("MODULES " + json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["partyhost", *sys.argv[1:]]
runpy.run_module("partyhost", run_name="__main__", alter_sys=True)
"""


def test_typed_play_imports_no_audio_module(tmp_path):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": str(tmp_path / "none.toml")}
    args = ["play", "centurion", "--players", "Ana,Ben", "--seed", "7", "--input", "text", "--output", "text"]
    result = subprocess.run([sys.executable, "-c", PLAY, *args], input="host, score\nqueen of hearts\nseven\n",
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert "HOST: " in result.stdout and "The game is saved" in result.stdout, result.stdout[-1500:] + result.stderr
    line = next(line for line in result.stderr.splitlines() if line.startswith("MODULES "))
    modules = json.loads(line.removeprefix("MODULES "))
    assert "voice.understanding.matcher" in modules          # the replies were understood ...
    loaded = [m for m in modules if any(m == name or m.startswith(name + ".") for name in AUDIO)]
    assert not loaded, loaded                                 # ... with no audio module
