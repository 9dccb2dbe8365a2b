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


MEETING_POINTS = {"host.contract", "host.errors"}
"""What voice/ may import of host/: where the halves meet, and the errors both tell of."""


@pytest.mark.parametrize("path", sorted((REPO / "voice").rglob("*.py")), ids=lambda p: p.name)
def test_voice_imports_no_game_rules(path):
    bad = {
        m
        for m in imported_modules(path)
        if m == "host" or (m.startswith("host.") and m not in MEETING_POINTS) or m.startswith("partyhost")
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


REGISTRIES = ("host.games",)
"""Packages that import each of their modules by name (importlib), unseen by `ast`."""


def import_graph() -> dict[str, set[str]]:
    paths = [p for package in PACKAGES for p in (REPO / package).rglob("*.py")]
    modules = {module_name(p): p for p in paths}
    graph = {name: {m for m in project_imports(path) if m in modules and m != name} for name, path in modules.items()}
    for registry in REGISTRIES:
        graph[registry] |= {m for m in modules if m.rsplit(".", 1)[0] == registry}
    return graph


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
    """Imports inside functions count: a circle hidden in a function is still one, and so is
    one through a registry that imports its modules by name (host.games finds the games)."""
    assert find_cycle(import_graph()) is None


FUNCTION_LINES_MAX = 50
"""The longest product function, its docstring and signature included: one a newcomer
reads in one screen, as well-named steps from top to bottom."""
CLI_LINES_MAX = 300
"""partyhost/cli.py only parses arguments and prints; a command's own work has its module."""


def long_functions(path: Path, root: Path = REPO) -> list[str]:
    """Every function of `path` (a method, a nested one too) longer than FUNCTION_LINES_MAX."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > FUNCTION_LINES_MAX:
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_the_length_finder_counts_a_function_from_its_def_to_its_last_line(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES_MAX))
    (tmp_path / "long.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}", encoding="utf-8")
    found = long_functions(tmp_path / "long.py", tmp_path)
    assert len(found) == 1 and "long (51 lines)" in found[0]


def test_no_product_function_is_over_fifty_lines():
    found = [
        line for package in PACKAGES for path in sorted((REPO / package).rglob("*.py")) for line in long_functions(path)
    ]
    assert not found, "split these into well-named steps:\n" + "\n".join(found)


def test_the_command_line_module_stays_short():
    lines = len((REPO / "partyhost" / "cli.py").read_text(encoding="utf-8").splitlines())
    assert lines <= CLI_LINES_MAX, f"partyhost/cli.py has {lines} lines: move a command's work to a module of its own"
