"""The two halves stay apart: host/ knows no audio, voice/ knows no game rules."""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
AUDIO_MODULES = {
    "voice",
    "sounddevice",
    "soxr",
    "numpy",
    "webrtcvad",
    "piper",
    "faster_whisper",
    "pocketsphinx",
    "vosk",
    "partyhost",
}


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
    bad = {
        m
        for m in imported_modules(path)
        if m == "host" or (m.startswith("host.") and m != "host.contract") or m.startswith("partyhost")
    }
    assert not bad, f"{path.relative_to(REPO)} imports {bad}"


WEB_MODULES = {"aiohttp", "qrcode", "playwright"}


@pytest.mark.parametrize(
    "path",
    sorted((REPO / "host").rglob("*.py")) + sorted((REPO / "voice").rglob("*.py")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_host_and_voice_import_no_web_code(path):
    """The phone server lives in partyhost/phones/: neither half knows about it."""
    bad = {m for m in imported_modules(path) if m.split(".")[0] in WEB_MODULES}
    assert not bad, f"{path.relative_to(REPO)} imports {bad}"


PACKAGES = ("host", "voice", "partyhost")


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_imports(path: Path) -> set[str]:
    """Every project module `path` imports, anywhere in it (a function's import too),
    relative imports resolved; "from pkg import name" counts pkg.name when it is a module."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PACKAGES}


def import_graph() -> dict[str, set[str]]:
    paths = [p for package in PACKAGES for p in (REPO / package).rglob("*.py")]
    modules = {module_name(p): p for p in paths}
    return {name: {m for m in project_imports(path) if m in modules and m != name} for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_cycle_finder_finds_a_circle():
    assert find_cycle({"voice.a": {"voice.b"}, "voice.b": {"voice.c"}, "voice.c": {"voice.a"}}) == [
        "voice.a",
        "voice.b",
        "voice.c",
        "voice.a",
    ]
    assert find_cycle({"voice.a": {"voice.b"}, "voice.b": set()}) is None


def test_no_module_imports_itself_round_a_circle():
    """Imports inside functions count: a circle hidden in a function is still one."""
    assert find_cycle(import_graph()) is None
