"""Each package's __init__ names its public API in __all__, and stays light.

__all__ lists what a package offers: its public modules and subpackages (imported when
used, never by the package itself) and the few light names it defines or re-exports.
host.games lists only its registry: a game is found by its module's GAME, so adding
one edits nothing there. The data packages of [tool.setuptools.package-dir] hold no code.
"""

from __future__ import annotations

import importlib.util
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
PACKAGES = (
    "host",
    "host.games",
    "voice",
    "voice.understanding",
    "voice.listening",
    "voice.speaking",
    "voice.asr",
    "voice.remote",
    "partyhost",
    "partyhost.phones",
    "partyhost.bench",
)
FOUND_BY_REGISTRY = {"host.games"}
DATA_PACKAGES = set(
    tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
)


def test_every_package_of_the_project_is_checked():
    found = {
        ".".join(p.relative_to(REPO).parent.parts)
        for top in ("host", "voice", "partyhost")
        for p in (REPO / top).rglob("__init__.py")
    }
    assert found == set(PACKAGES)


@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_what_the_package_offers(name):
    package = importlib.import_module(name)
    offered = package.__all__
    assert len(offered) == len(set(offered)), f"{name}.__all__ names something twice"
    for entry in offered:  # a name defined here, or a module or subpackage of this package
        assert hasattr(package, entry) or importlib.util.find_spec(f"{name}.{entry}"), (
            f"{name}.__all__ names {entry!r}, which is neither defined there nor a module of it"
        )
    if name not in FOUND_BY_REGISTRY:
        public = {
            info.name
            for info in pkgutil.iter_modules(package.__path__)
            if not info.name.startswith("_") and f"{name}.{info.name}" not in DATA_PACKAGES
        }
        assert public <= set(offered), f"add {sorted(public - set(offered))} to {name}.__all__"


LIGHT = """
import json, sys
import {name}
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("host", "voice", "partyhost") and m != "{name}")
heavy = sorted(m for m in ("numpy", "sounddevice", "soxr", "hassil", "yaml", "aiohttp") if m in sys.modules)
print(json.dumps([loaded, heavy]))
"""


@pytest.mark.parametrize("name", PACKAGES)
def test_importing_a_package_imports_only_its_parents_and_the_contract(name):
    out = subprocess.run(
        [sys.executable, "-c", LIGHT.format(name=name)], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
    allowed = set(parents) | {
        "host",
        "host.contract",
        "host.errors",
    }  # the contract and the errors sit below both halves
    if name == "host.games":
        allowed |= {"host.engine", "host.views"}  # Game, and its hand_view's HandView
    loaded, heavy = json.loads(out)
    assert set(loaded) <= allowed and not heavy, out
