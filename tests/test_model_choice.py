"""Larger Whisper models: fetched file by file from a pinned revision and checked,
loaded, timed, and the largest within the latency budget chosen. No model hub is
reachable here, so the shipped tiny.en files stand in for a download, served by a
real HTTP server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from test_models import server  # noqa: F401  (the loopback file server fixture)

from partyhost.bench.model_choice import Measured, choose, choose_command
from partyhost.config import load_settings
from partyhost.model_list import SHIPPED, candidates, model_lines
from partyhost.models import ModelEntry, ModelFetchError, ModelFile, fetch, installed, load_manifest

FIXTURES = Path(__file__).parent / "fixtures" / "voice"
REVISION = "0d3d19a32d3338f10357c0889762bd8d64bbdeba"


def tiny_files() -> Path:
    from voice.asr.whisper import default_model_path

    return default_model_path()


def served_entry(server, sha256=None) -> ModelEntry:  # noqa: F811
    """tiny.en's files published like a Hugging Face revision, and the manifest entry for them."""
    root, address = server
    folder = root / "Systran" / "faster-whisper-tiny.en" / "resolve" / REVISION
    folder.mkdir(parents=True)
    files = []
    for path in sorted(tiny_files().iterdir()):
        shutil.copyfile(path, folder / path.name)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        files.append(ModelFile(path.name, (sha256 or {}).get(path.name, digest), path.stat().st_size))
    return ModelEntry(
        "faster-whisper-tiny.en-copy",
        "whisper",
        f"{address}/Systran/faster-whisper-tiny.en/resolve/{REVISION}/",
        None,
        78,
        files=tuple(files),
        revision=REVISION,
    )


def test_the_manifest_pins_revisions_and_never_invents_a_checksum():
    entries = {e.name: e for e in load_manifest()}
    for name in ("faster-whisper-base.en", "faster-whisper-small.en", "faster-distil-whisper-small.en"):
        entry = entries[name]
        assert len(entry.revision) == 40 and f"/resolve/{entry.revision}/" in entry.url
        assert {f.name for f in entry.files} >= {"model.bin", "config.json", "tokenizer.json"}
    assert entries["faster-whisper-small.en"].unverifiable() == []
    assert "vosk-model-en-us-0.22-lgraph" in entries


def test_an_entry_without_a_known_checksum_is_refused_before_any_download(tmp_path):
    entry = next(e for e in load_manifest() if e.name == "faster-distil-whisper-small.en")
    with pytest.raises(ModelFetchError, match="no published SHA-256"):
        fetch(entry, tmp_path / "models", progress=False)
    assert not (tmp_path / "models" / entry.name).exists()


def test_fetched_files_are_checked_loaded_and_read(server, tmp_path):  # noqa: F811
    from voice.listening.audio_in import read_wav_16k
    from voice.recognizers import make_recognizer
    from voice.understanding.matcher import Matcher

    entry = served_entry(server)
    models = tmp_path / "models"
    folder = fetch(entry, models, progress=False)
    assert installed(entry, models)
    assert sorted(p.name for p in folder.iterdir() if p.name != ".sha256") == sorted(f.name for f in entry.files)
    recogniser = make_recognizer("whisper", models, entry.name)
    table = Matcher().table("common/yes_no")
    wav = next(FIXTURES.glob("wav/*yes_no*.wav"), None) or next(FIXTURES.glob("wav/*.wav"))
    assert recogniser.recognize(read_wav_16k(wav), recogniser.compile(list(table.texts)))


def test_a_wrong_checksum_installs_nothing(server, tmp_path):  # noqa: F811
    entry = served_entry(server, sha256={"model.bin": "0" * 64})
    with pytest.raises(ModelFetchError, match="SHA-256 of .*model.bin"):
        fetch(entry, tmp_path / "models", progress=False)
    assert not (tmp_path / "models" / entry.name).exists()
    assert not installed(entry, tmp_path / "models")


def test_the_choice_is_the_largest_within_the_budget_and_is_written_to_the_settings(server, tmp_path):  # noqa: F811
    entry = served_entry(server)
    models = tmp_path / "models"
    fetch(entry, models, progress=False)
    found = candidates(models, [entry])
    assert [c.label for c in found][:1] == [SHIPPED] and entry.name in [c.label for c in found]
    fast, slow = Measured(50, 120, 90, 10, "today"), Measured(300, 900, 90, 10, "today")
    bigger = max(found, key=lambda c: c.disk_mb)
    assert choose({c.label: fast for c in found}, found) == bigger
    assert choose({c.label: (slow if c == bigger else fast) for c in found}, found) != bigger
    assert choose({c.label: slow for c in found}, found) == found[0]  # none fits: the smallest
    settings = tmp_path / "config.toml"
    settings.write_text("volume = 0.5\n", encoding="utf-8")
    assert choose_command(models, FIXTURES / "manifest.jsonl", limit=3, settings_file=settings) == 0
    chosen = load_settings(settings)
    assert chosen.volume == 0.5 and chosen.whisper_model in ("", entry.name)
    assert any("p95" in line and "measured" in line for line in model_lines([entry], models, "fetch {name}"))


def test_fetch_without_names_leaves_the_large_and_the_unverifiable_alone(tmp_path, capsys, monkeypatch):
    """`partyhost models fetch` with no names must not start a 486 MB download or fail on
    an entry without a checksum; it says how to get them."""
    from partyhost import models
    from partyhost.cli import main

    fetched = []
    monkeypatch.setattr(models, "fetch", lambda entry, folder, **kw: fetched.append(entry.name) or folder)
    assert main(["models", "fetch", "--models-dir", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert not any("whisper" in name or "lgraph" in name for name in fetched)
    assert "faster-whisper-small.en: only when named: partyhost models fetch faster-whisper-small.en" in said
    assert "lgraph" not in said  # no checksum: not offered (models list says so)


@pytest.mark.model
@pytest.mark.audio
def test_the_products_own_recordings_are_read_as_their_replies(tmp_path):
    """`bench latency` with no manifest times replies said by the host's own voice: each
    is a recording the live ears find and read, at a prompt of every game."""
    from partyhost.bench.manifest import make_listener, run_accuracy
    from partyhost.bench.own_lines import OWN_LINES, spoken_manifest
    from partyhost.config import Settings

    manifest = spoken_manifest(tmp_path)
    result = run_accuracy(manifest, make_listener(Settings()), progress=False)
    assert len(result["items"]) == len(OWN_LINES)
    assert {line.game for line in OWN_LINES} >= {"keep-it-100", "zero-to-100", "keep-cool", "one-percent", "centurion"}
    assert all(item["ms"] > 0 for item in result["items"])  # each one heard and timed
    missed = [(item["id"], item["heard"]) for item in result["items"] if not item["correct"]]
    assert len(missed) <= 2, missed  # the host's voice at its own prompts: almost all read right


@pytest.mark.model
def test_bench_latency_keeps_the_speed_models_list_shows(tmp_path, capsys, monkeypatch):
    """After `bench latency` the model it timed is no longer "speed not measured" (issue 57)."""
    from partyhost.cli import main

    manifest = tmp_path / "manifest.jsonl"
    lines = [json.loads(line) for line in (FIXTURES / "manifest.jsonl").read_text().splitlines()[:3]]
    manifest.write_text("".join(json.dumps({**line, "wav": str(FIXTURES / line["wav"])}) + "\n" for line in lines))
    config = tmp_path / "config.toml"
    config.write_text(f'models_dir = "{tmp_path / "models"}"\n')
    monkeypatch.setenv("PARTYHOST_CONFIG", str(config))
    assert main(["models", "list"]) == 0
    assert "speed not measured" in next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith(SHIPPED)
    )
    assert main(["bench", "latency", str(manifest)]) == 0
    printed = capsys.readouterr().out
    p95 = printed.split("end_of_speech_to_intent_p50_ms=")[1].split("p95_ms=")[1].split()[0]
    assert main(["models", "list"]) == 0
    shipped = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(SHIPPED))
    assert f"p95 {p95} ms end of speech to intent here" in shipped and "MB memory measured" in shipped
