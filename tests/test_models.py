"""Model downloads: verified by SHA-256 before anything is unpacked (served from loopback)."""
from __future__ import annotations

import hashlib
import http.server
import threading
import zipfile
from pathlib import Path

import pytest

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
    (root / "m.zip").unlink()                          # a second fetch needs no network
    assert fetch(entry, tmp_path / "models", progress=False) == folder


def test_a_mismatched_download_installs_nothing(server, tmp_path):
    root, base = server
    make_zip(root / "m.zip", {"tiny-model/am/final.mdl": "tampered"})
    entry = ModelEntry("tiny-model", "vosk", f"{base}/m.zip", "0" * 64, 0.001)
    with pytest.raises(ModelFetchError, match="SHA-256"):
        fetch(entry, tmp_path / "models", progress=False)
    assert not (tmp_path / "models" / "tiny-model").exists()
    assert list((tmp_path / "models").iterdir()) == []      # no temporary leftovers


def test_unreachable_and_hostile_archives_are_refused(server, tmp_path):
    root, base = server
    with pytest.raises(ModelFetchError, match="cannot download"):
        fetch(ModelEntry("gone", "vosk", f"{base}/missing.zip", "0" * 64, 1), tmp_path / "m", progress=False)
    digest = make_zip(root / "evil.zip", {"../../outside.txt": "boo"})
    with pytest.raises(ModelFetchError, match="outside"):
        fetch(ModelEntry("evil", "vosk", f"{base}/evil.zip", digest, 1), tmp_path / "m", progress=False)
    assert not (tmp_path / "outside.txt").exists()
