"""A typed line of any length is read in bounded memory (issue 46, item 5).

The probe: a 200 MB line raised MemoryError, and a 50 MB one needed 565 MB. Now the
first LONGEST_LINE characters are the reply, the rest is dropped a piece at a time,
and the player is told once.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from host.contract import Prompt
from partyhost.textio import LONGEST_LINE, TextEars

REPO = Path(__file__).resolve().parents[1]
MEASURED = """
import resource, subprocess, sys
with open(sys.argv[1], "rb") as stdin:
    done = subprocess.run(sys.argv[2:], stdin=stdin, capture_output=True)
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
print(f"MAXRSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}", file=sys.stderr)
sys.exit(done.returncode)
"""


def test_an_over_long_line_is_cut_said_once_and_the_next_line_read_whole():
    stream = io.StringIO("x" * (LONGEST_LINE * 70 + 5) + "\nscore\n" + "y" * LONGEST_LINE + "\n")
    out = io.StringIO()
    ears = TextEars(stream=stream, out=out)
    prompt = Prompt(name="centurion/play_card", text="", player="Ana")
    ears.hear(prompt)
    ears.hear(prompt)
    ears.hear(prompt)
    lines = out.getvalue().splitlines()
    assert lines[0] == "(That line was too long: only its first 1000 characters were read.)"
    assert lines[1] == "Ana> " + "x" * LONGEST_LINE
    assert lines[2] == "Ana> score"
    assert lines[3] == "Ana> " + "y" * LONGEST_LINE  # exactly the longest: read whole, no notice
    assert len(lines) == 4


def test_a_50_mb_line_in_a_piped_game_costs_no_more_memory_and_the_game_goes_on(tmp_path: Path):
    script = tmp_path / "script.txt"
    with script.open("w", encoding="utf-8") as out:
        out.write("a" * 50_000_000 + "\n")
        out.write((REPO / "lab" / "scripted_games" / "one-percent-basic-host.txt").read_text())
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    game = [
        sys.executable,
        "-m",
        "partyhost",
        "play",
        "one-percent",
        "--players",
        "Ana,Ben,Cy",
        "--seed",
        "26",
        "--deal",
        "host",
        "--input",
        "text",
        "--output",
        "text",
    ]
    result = subprocess.run(
        [sys.executable, "-c", MEASURED, str(script), *game],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("That line was too long") == 1
    assert "Cy wins the game" in result.stdout
    kilobytes = int(result.stderr.rsplit("MAXRSS ", 1)[1])
    assert kilobytes < 200_000, f"{kilobytes} kB"
