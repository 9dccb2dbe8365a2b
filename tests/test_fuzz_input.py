"""Typed input of any length or content is answered, never a traceback, never a hang."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from fuzz_input import configurations, fuzz_lines, run_fuzz

from host.games import game_ids
from voice.understanding.normalize import normalize, number_words

REPO = Path(__file__).resolve().parents[1]
SEED = 20261203
HANG_GUARD_S = 600
"""Not a timing assert: only so that a hang fails the test instead of stopping the suite."""


@pytest.mark.parametrize(
    "text, spoken",
    [
        ("9" * 4301, " ".join(["nine"] * 4301)),  # past int()'s 4300-digit limit
        ("1" * 3000, " ".join(["one"] * 3000)),  # once a RecursionError in number_words
        ("bet 1234567", "bet one two three four five six seven"),
        ("bet 999999", "bet nine hundred ninety nine thousand nine hundred ninety nine"),
        ("the " + "2" * 5000 + "nd", "the " + " ".join(["two"] * 5000)),
        ("1e309 nan -inf", "one e three hundred nine nan inf"),
    ],
)
def test_numbers_of_any_length_are_spelled(text, spoken):
    assert normalize(text, strip_fillers=False) == spoken


def test_number_words_spells_big_numbers_digit_by_digit():
    assert number_words(10**3000).split() == ["one"] + ["zero"] * 3000


def test_every_game_and_mode_is_fuzzed():
    configs = configurations()
    assert {c.game for c in configs} == set(game_ids())
    assert len(configs) >= 10
    assert fuzz_lines(SEED, 50) == fuzz_lines(SEED, 50)


@pytest.mark.slow
@pytest.mark.parametrize("lines", [2_000, pytest.param(10_000, marks=pytest.mark.nightly)])
def test_fuzzed_lines_give_no_traceback(lines):
    """2,000 lines in every run (enough that some game ends and another begins), 10,000 at night."""
    signal.alarm(HANG_GUARD_S)
    try:
        folder = Path("/dev/shm") if Path("/dev/shm").is_dir() else None  # fsyncs cost nothing there
        with tempfile.TemporaryDirectory(dir=folder) as scratch:
            result = run_fuzz(SEED, lines, Path(scratch))
    finally:
        signal.alarm(0)
    assert result.failures == []
    assert result.lines == lines and result.games > len(configurations())


def test_bytes_that_are_not_utf8_on_the_terminal_are_answered(tmp_path):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path), "PARTYHOST_CONFIG": os.devnull}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            "centurion",
            "--players",
            "Ana,Ben",
            "--seed",
            "7",
            "--input",
            "text",
            "--output",
            "text",
        ],
        cwd=REPO,
        env=env,
        input=b"\xff\xfe\x80 zebra\n\x1b[2J\x00\nscore\n",
        capture_output=True,
        timeout=120,
    )
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0 and "Traceback" not in err
    assert out.count("Sorry, I didn't catch that") == 1 and "HOST: The game is saved" in out
    assert "HOST: Ana, which card, by its place in your hand: first to seventh?" in out  # narrowed, no card named
    assert "\x1b" not in out and "\x00" not in out  # the echo cannot drive the terminal
