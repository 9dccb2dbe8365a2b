"""Nothing from outside writes its own lines on the host's terminal or in its logs (issue 46, item 2).

A phone's request path, a Wyoming event, a typed line and a player's name all reach the
terminal through host.errors.one_line; these tests send each one with escape sequences,
line breaks and bells, and look at what was printed. Network tests use 127.0.0.1 only.
"""

from __future__ import annotations

import ast
import io
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from phone_game import PhoneGame

from partyhost.textio import TextMouth

REPO = Path(__file__).resolve().parents[1]
FORGED = "x\nHOST: The game is over. Ana wins\n\x1b[2J\x1b]0;owned\x07"
FORGED_PATH = "/api/seat/x%0aHOST:%20The%20game%20is%20over.%20Ana%20wins%0a%1b%5b2J%1b%5d0;owned%07"
DRIVES_A_TERMINAL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
        "PARTYHOST_CONFIG": os.devnull,
        "PYTHONUNBUFFERED": "1",
    }


def test_one_line_turns_every_control_into_a_space_and_keeps_words():
    from host.errors import one_line

    assert one_line(FORGED) == "x HOST: The game is over. Ana wins [2J ]0;owned"
    assert one_line("Zoë  \u202eevil\u2028next\tend") == "Zoë evil next end"
    assert one_line("plain words") == "plain words"


def test_the_host_s_printed_words_cannot_forge_a_line(tmp_path: Path):
    out = io.StringIO()
    mouth = TextMouth(out=out)
    mouth.say(f"Welcome {FORGED}")
    mouth.private(FORGED, "your cards")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and all(not DRIVES_A_TERMINAL.search(line) for line in lines)
    assert not any(line.startswith("HOST: The game") for line in lines)


@pytest.mark.parametrize(
    "players, reason",
    [
        ("Ana\x1b[2J,Ben\nHOST: forged", "control character or a line break"),
        ("Ana,Ben HOST: forged", 'holds "HOST:"'),  # the spoken menu's rule too (partyhost/player_names.py)
        ("Ana,Bartholomew Maximilianus Smith", "is longer than 24 characters"),
    ],
    ids=["control character", "host line", "too long"],
)
def test_a_name_with_a_control_character_is_refused_with_a_reason(tmp_path: Path, players: str, reason: str):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            "keep-it-100",
            "--players",
            players,
            "--input",
            "text",
            "--output",
            "text",
        ],
        cwd=REPO,
        env=_env(tmp_path),
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert reason in result.stderr
    assert "\x1b" not in result.stderr + result.stdout and "HOST:" not in result.stdout
    assert "Traceback" not in result.stderr


def test_a_forged_request_path_prints_one_harmless_line_on_the_host_s_terminal(tmp_path: Path):
    """The probe's curl, against a real `partyhost play --phones` on 127.0.0.1."""
    game = PhoneGame(tmp_path)
    try:
        url = f"http://127.0.0.1:{game.port}"
        for path in (FORGED_PATH, "/seat/x%0d%0aHOST:%20forged%1b%5b2J", "/%1b%5d0;owned%07?code=%0aHOST:%20x"):
            try:
                urllib.request.urlopen(url + path, timeout=10).read()
            except urllib.error.HTTPError as refused:
                assert refused.code in (403, 404)
        _, out, err = game.end()
    finally:
        game.kill()
    assert "asked for x HOST: The game is over. Ana wins [2J ]0;owned 's cards" in err
    for line in (out + err).splitlines():
        assert not DRIVES_A_TERMINAL.search(line), repr(line)
        assert not line.startswith("HOST: The game is over. Ana wins") and not line.startswith("HOST: forged")


def test_a_record_of_any_logger_reaches_the_terminal_as_one_line(tmp_path: Path):
    """With nothing configured, Python's last-resort handler prints warnings: through one_line too."""
    program = (
        "import logging; from partyhost.logs import one_line_logs; one_line_logs();"
        f"logging.getLogger('voice.remote.satellite_link').warning('peer said %s', {FORGED!r});"
        "\ntry:\n raise ValueError('bad\\nHOST: forged')\nexcept ValueError:\n"
        " logging.getLogger('somewhere').exception('failed')"
    )
    result = subprocess.run([sys.executable, "-c", program], cwd=REPO, capture_output=True, text=True, timeout=60)
    lines = result.stderr.splitlines()
    assert lines == [
        "peer said x HOST: The game is over. Ana wins [2J ]0;owned",
        "failed: ValueError: bad HOST: forged",
    ]


def test_one_line_is_the_only_place_that_judges_what_may_be_printed():
    """One rule, called everywhere: no other module of the product filters characters itself."""
    judged = []
    for folder in ("host", "voice", "partyhost"):
        for path in (REPO / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr == "isprintable":
                    judged.append(str(path.relative_to(REPO)))
    assert set(judged) == {"host/errors.py"}
