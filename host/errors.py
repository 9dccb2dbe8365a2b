"""The errors a player is told about, and what such errors say, for both halves and the
application above them: `PartyhostError`, the one base of those errors; `one_line`, the
one rule for text that reaches a terminal or a log, whichever half it comes from;
`command`, how the user started partyhost, so that a command either half suggests ("run
`scripts/run models fetch`") can be typed as it is printed; and `did_you_mean`, the one
way a name typed wrong (a command, an option, a game, a model, a recogniser, a file) is
answered with the known name closest to it, where one is close: "keep-it-10" is most
likely keep-it-100, "plya" play (rapidfuzz's ratio, the share of letters in common in
order, case aside; one name or none, never a list).

It imports nothing of the project, so voice/ may import it as it imports host.contract.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path


class PartyhostError(Exception):
    """An error a player or an integrator is told about in one line, never a traceback."""


def one_line(text: str) -> str:
    """`text` made safe to print or log: one line that cannot drive a terminal.

    Whatever wrote it (a phone's request path, a Wyoming event, a typed line, a player's
    name), every character that is not printable (escape sequences, newlines, carriage
    returns, bells, bidirectional overrides) becomes a space, and runs of spaces one, so
    nobody can forge a line of the host's, clear the screen or retitle the window.
    """
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def printable(text: str) -> bool:
    """Whether `text` would print as it is: no character one_line would take out."""
    return text.isprintable()


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


CLOSE = 70.0
"""The lowest ratio (0-100) a name is offered at: a letter left out, doubled or two swapped
in a short word ("plya" for play is 75); two words that only share a few letters are not."""

DID_YOU_MEAN = "did you mean"


def closest(word: str, names: Iterable[str]) -> str | None:
    """The name `word` was most likely meant to be, or None when none is close."""
    from rapidfuzz import fuzz, process, utils  # loaded only when a name is refused

    match = process.extractOne(
        word, list(names), scorer=fuzz.ratio, processor=utils.default_process, score_cutoff=CLOSE
    )
    return None if match is None else match[0]


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """ "; did you mean NAME?" to end a refusal with, or "" when no name is close."""
    name = closest(word, names)
    return "" if name is None else f"; {DID_YOU_MEAN} {name}?"
