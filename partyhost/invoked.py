"""How the user started partyhost, so that a command the host suggests ("To continue: ...
resume ID") can be typed as it is said: the README teaches `scripts/run`, and `partyhost`
is on the PATH only inside the virtual environment."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

RUN_VARIABLE = "PARTYHOST_RUN"
"""Set by scripts/run to the way it was called ("scripts/run", "./run"): what it runs is
`partyhost`, but the user typed this."""


def command() -> str:
    """The command to suggest: scripts/run as called, `partyhost` where it is on the PATH,
    else the program's path as given (".venv/bin/partyhost"), or `python -m partyhost`."""
    named = os.environ.get(RUN_VARIABLE, "").strip()
    if named:
        return named
    program = sys.argv[0] if sys.argv else ""
    if not program or Path(program).name == "__main__.py":
        return "python -m partyhost"
    on_path = shutil.which("partyhost")
    if Path(program).name == "partyhost" and (
        "/" not in program or (on_path is not None and Path(on_path).resolve() == Path(program).resolve())
    ):
        return "partyhost"
    return program
