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
    """The command to suggest: scripts/run as called, `python -m partyhost` as run, the
    program's path as given where `partyhost` on the PATH is another (".venv/bin/partyhost"),
    else `partyhost` (also when partyhost runs inside another program)."""
    named = os.environ.get(RUN_VARIABLE, "").strip()
    if named:
        return named
    program = sys.argv[0] if sys.argv else ""
    if Path(program).name == "__main__.py" and Path(program).parent.name == "partyhost":
        return "python -m partyhost"
    if Path(program).name != "partyhost" or "/" not in program:
        return "partyhost"
    on_path = shutil.which("partyhost")
    same = on_path is not None and Path(on_path).resolve() == Path(program).resolve()
    return "partyhost" if same else program
