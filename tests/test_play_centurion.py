"""Whole Centurion games played through the text CLI, one script per mode and deal.

Each script in lab/scripted_games/ is what the players type, one line per prompt; seed
and rules are fixed here, so the deal is always the same.

What each script plays:
- pvp-host (Ana, Ben; 2 jokers, joker_at_multiple): "what can I say", a card Ben
  does not hold (refused), an undo, a score request, a line not understood,
  joker offers passed and taken, a joker answered by a joker; Ana wins 21 to 18.
- pvp-table (Ana, Ben; target 15): the players name cards from a real pack; a
  card already on the pile is refused; Ben wins 16 to 13.
- vs-host (Ana against the host; highest_first, a pool of 21 counters): a card
  Ana does not hold (refused), score, an undo after the host answered (refused: its
  card is shown); the host wins 17 counters to 4.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole games through the command line, one process each

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "lab" / "scripted_games"

# script, players, mode, deal, seed, rules, final scores, refused moves, a line the host says
CASES = [
    (
        "centurion-pvp-host.txt",
        "Ana,Ben",
        "pvp",
        "host",
        7,
        ["jokers=2", "joker_at_multiple=true"],
        {"Ana": 21, "Ben": 18},
        1,
        "Ana lays a joker on 130 and takes the deal!",
    ),
    (
        "centurion-pvp-table.txt",
        "Ana,Ben",
        "pvp",
        "table",
        7,
        ["target=15"],
        {"Ana": 13, "Ben": 16},
        1,
        "The jack of spades has been played already.",
    ),
    (
        "centurion-vs-host.txt",
        "Ana",
        "vs-host",
        "host",
        2,
        ["highest_first=true", "pool=21"],
        {"Ana": 4, "Host": 17},
        2,
        "I play the",
    ),
]


def run_script(
    tmp_path: Path, script: str, players: str, mode: str, deal: str, seed: int, rules: list[str]
) -> tuple[subprocess.CompletedProcess, list[dict]]:
    events_path = tmp_path / "events.jsonl"
    command = [
        sys.executable,
        "-m",
        "partyhost",
        "play",
        "centurion",
        "--players",
        players,
        "--mode",
        mode,
        "--deal",
        deal,
        "--seed",
        str(seed),
        "--input",
        "text",
        "--output",
        "text",
        "--events",
        str(events_path),
    ]
    for rule in rules:
        command += ["--rules", rule]
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data")}
    with (SCRIPTS / script).open(encoding="utf-8") as stdin:
        result = subprocess.run(command, stdin=stdin, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    events = [json.loads(line) for line in events_path.read_text(encoding="utf-8").splitlines()]
    return result, events


@pytest.mark.parametrize(
    "script, players, mode, deal, seed, rules, final, refused, line", CASES, ids=[case[0] for case in CASES]
)
def test_script_plays_to_the_expected_winner(tmp_path, script, players, mode, deal, seed, rules, final, refused, line):
    result, events = run_script(tmp_path, script, players, mode, deal, seed, rules)
    assert result.returncode == 0, result.stderr
    assert events[0]["type"] == "game_start" and events[0]["game"] == "centurion"
    assert events[-1]["type"] == "game_over", result.stdout[-2000:]
    winner = max(final, key=final.get)
    assert events[-1]["scores"] == final
    assert events[-1]["winners"] == [winner]
    rules_refusals = [e for e in events if e["type"] == "rejected" and e["reason"] != "not understood"]
    assert len(rules_refusals) == refused
    assert line in result.stdout
    assert "The game is saved" not in result.stdout  # the script ends with the game
