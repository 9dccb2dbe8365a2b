"""Documentation generated from code must match the code."""
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_rules_doc_is_current():
    spec = importlib.util.spec_from_file_location("rules_doc", REPO / "scripts" / "rules_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (REPO / "docs" / "rules.md").read_text(encoding="utf-8") == module.render(), \
        "docs/rules.md is stale: run python scripts/rules_doc.py"


# ---- the README's commands run as written, after the two commands -------------------

README_COMMANDS = [
    line.split("  #")[0].strip()
    for block in re.findall(r"```sh\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    for line in block.splitlines() if line.strip()
]
RUNS_ALONE = ("rules", "sessions", "decks", "models")
"""Commands that need no microphone, speaker, network or player: run, not just parsed."""


def partyhost_words(command: str) -> tuple[list[str], str | None]:
    """The arguments after scripts/run, and the file piped in with '<' (or None)."""
    words = shlex.split(command)
    stdin = words[words.index("<") + 1] if "<" in words else None
    words = words[:words.index("<")] if "<" in words else words
    assert words[0] == "scripts/run", command
    return words[1:], stdin


def test_the_readme_is_for_players_and_short():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert README_COMMANDS and all(c.split()[0] in ("scripts/run", "scripts/test", "scripts/install-service")
                                   for c in README_COMMANDS), "partyhost is not on PATH after the two commands"
    for tool in ("scripts/run", "scripts/test", "scripts/install-service", "scripts/ci-system-deps"):
        assert (REPO / tool).is_file() and os.access(REPO / tool, os.X_OK), tool


@pytest.mark.parametrize("command", [c for c in README_COMMANDS if c.startswith("scripts/run")])
def test_every_readme_command_is_understood(command):
    from partyhost.cli import build_parser
    words, stdin = partyhost_words(command)
    build_parser().parse_args(words)      # an unknown flag or choice exits here
    assert stdin is None or (REPO / stdin).is_file()


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for c in README_COMMANDS if c.startswith("scripts/run") and (
    c.split()[1:2] and c.split()[1] in RUNS_ALONE or "--input text" in c)])
def test_the_readme_commands_that_need_nobody_run(command, tmp_path):
    words, stdin = partyhost_words(command)
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
           "PARTYHOST_CONFIG": str(tmp_path / "none.toml")}
    piped = (REPO / stdin).read_text(encoding="utf-8") if stdin else ""
    result = subprocess.run([sys.executable, "-m", "partyhost", *words], cwd=REPO, env=env, input=piped,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
