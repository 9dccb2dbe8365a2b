"""Run a copy of the program's source tree as its own editable install would.

pyproject.toml installs grammars/, decks/ and models/ as package data inside voice/ and host/
([tool.setuptools.package-dir]), so the wheel adds no generic top-level names. A copy run from
source needs that mapping too: without it, the checkout's own editable install would hand the
copy the checkout's data. PARTYHOST maps each name of the copy's table to the copy's folder
(as setuptools' editable finder does, ahead of it), then runs `python -m partyhost`.
"""

from __future__ import annotations

import sys

BOOT = """
import importlib.util, runpy, sys
from pathlib import Path
try:
    import tomllib
except ImportError:
    import tomli as tomllib
root = Path.cwd()
folders = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]

class CopyData:
    @staticmethod
    def find_spec(name, path=None, target=None):
        folder = folders.get(name)
        return importlib.util.spec_from_file_location(name, root / folder / "__init__.py") if folder else None

sys.meta_path.insert(0, CopyData)
runpy.run_module("partyhost", run_name="__main__", alter_sys=True)
"""

PARTYHOST = [sys.executable, "-c", BOOT]
"""The command line of the copy in the working folder (which holds its pyproject.toml)."""

FILES = ("pyproject.toml",)
"""What a copy needs besides its packages and data folders: the package-dir table."""
