"""The two halves stay apart: host/ knows no audio, voice/ knows no game rules."""
import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
AUDIO_MODULES = {"voice", "sounddevice", "soxr", "numpy", "webrtcvad", "piper", "faster_whisper",
                 "pocketsphinx", "vosk", "partyhost"}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted((REPO / "host").rglob("*.py")), ids=lambda p: p.name)
def test_host_imports_no_audio_code(path):
    bad = {m for m in imported_modules(path) if m.split(".")[0] in AUDIO_MODULES}
    assert not bad, f"{path.relative_to(REPO)} imports {bad}"


@pytest.mark.parametrize("path", sorted((REPO / "voice").rglob("*.py")), ids=lambda p: p.name)
def test_voice_imports_no_game_rules(path):
    bad = {m for m in imported_modules(path)
           if m == "host" or (m.startswith("host.") and m != "host.engine") or m.startswith("partyhost")}
    assert not bad, f"{path.relative_to(REPO)} imports {bad}"


WEB_MODULES = {"aiohttp", "qrcode", "playwright"}


@pytest.mark.parametrize("path", sorted((REPO / "host").rglob("*.py")) + sorted((REPO / "voice").rglob("*.py")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_host_and_voice_import_no_web_code(path):
    """The phone server lives in partyhost/phones/: neither half knows about it."""
    bad = {m for m in imported_modules(path) if m.split(".")[0] in WEB_MODULES}
    assert not bad, f"{path.relative_to(REPO)} imports {bad}"
