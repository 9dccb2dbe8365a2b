"""A whole game of Zero to 100 typed into the command line.

lab/scripted_games/zero-to-100-basic.txt is piped into `partyhost play zero-to-100` with
a small deck (lab/scripted_games/decks/zero-to-100-test.csv) (so the answers, and the winner, are known), 5 players
in 3 teams of hand size 3. The script walks through:

Round 1, target 50; Team Ana (Ana, Dan), Team Ben (Ben, Eve) and Team Cy pick in turn.
  Ana asks to hear her cards, forgets the sign of the 50 card (refused), then plays
  card 2 (35) with plus 20: 55. Ben plays "the bowling one" (10); Cy says undo and
  Ben plays it again. Cy plays 48. Ben is furthest (40 away): target 10, Ben draws.
Round 2, target 10, Ben first: 60 with minus 50 and Spot On (0 away: right); Cy asks
  the score, then plays 20; Ana tries her spent 20 card (refused), then plays 30.
  Ana is furthest: target 30, Ana draws. Ben throws away one more card.
  Ben and Cy both have one card left: tiebreak. Ben's last card is 55 and he says
  50; Cy's is 70 and she says 90. Team Ben wins.
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

DECK = REPO / "lab" / "scripted_games" / "decks" / "zero-to-100-test.csv"
"""14 hand-made questions; in deck order Team Ana gets the first 3, Team Ben the next 3,
Team Cy 3, then the pile."""

PLAYERS = ["--players", "Ana,Ben,Cy,Dan,Eve", "--rules", "hand_size=3", "--seed", "7"]
CASES = [
    ("zero-to-100-basic.txt", ["--mode", "basic", "--deal", "host", *PLAYERS], ["Team Ben"]),
    # the same teams given explicitly give the same game
    ("zero-to-100-basic.txt", ["--mode", "basic", *PLAYERS, "--teams", "Ana,Dan;Ben,Eve;Cy"], ["Team Ben"]),
]


def play(script: str, args: list[str], tmp_path: Path) -> tuple[list[dict], str]:
    """Run the CLI on a script; the event log's events and the printed transcript."""
    events_path = tmp_path / "events.jsonl"
    deck = DECK
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data")}
    with open(SCRIPTS / script, encoding="utf-8") as stdin:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "partyhost",
                "play",
                "zero-to-100",
                *args,
                "--deck",
                str(deck),
                "--input",
                "text",
                "--output",
                "text",
                "--events",
                str(events_path),
            ],
            cwd=REPO,
            stdin=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in events_path.read_text().splitlines() if line.strip()]
    return events, result.stdout


@pytest.mark.parametrize("script, args, winners", CASES, ids=["round-robin teams", "given teams"])
def test_script_plays_to_game_over(script, args, winners, tmp_path):
    events, transcript = play(script, args, tmp_path)
    assert events[-1]["type"] == "game_over", transcript[-2000:]
    assert events[-1]["winners"] == winners
    assert events[-1]["scores"] == {"Team Ana": 2, "Team Ben": 1, "Team Cy": 1}
    assert not any(e["type"] == "rejected" and e["reason"] == "not understood" for e in events), (
        "a scripted line was not understood"
    )
    refused = [e["reason"] for e in events if e["type"] == "rejected"]
    assert refused == [
        "Plus 50 or minus 50? Say which side you play.",
        "Team Ana has already used its plus or minus 20 card.",
    ]
    spoken = " ".join(e["text"] for e in events if e["type"] == "say")
    assert "Team Ana, your questions. 1: How many days" in spoken  # read our cards
    assert "Spot On! Team Ben will throw away one more question." in spoken
    assert "Team Ben is furthest and draws: marriage emerald anniversary. Target 10." in spoken  # after round 1
    used = [i for e in events if e["type"] == "questions_used" for i in e["ids"]]
    assert used == ["zt02", "zt05", "zt07", "zt04", "zt08", "zt01", "zt10", "zt09"]
