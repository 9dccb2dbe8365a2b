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


def test_typed_a_pick_is_not_heard_before_the_next_team_picks_and_every_pick_is_at_the_reveal(tmp_path):
    """Issue 59, as its audit listened (--hide-private: what is said aloud only): seed 3,
    three teams, the shipped deck. Nothing of Team Ana's pick before Team Ben's; at the
    reveal each team's question, and each power card with its side."""
    lines = "card 1 with plus fifty and spot on\ncard 2 with minus twenty\ncard 3 with plus twenty\n"
    result = subprocess.run(
        [sys.executable, "-m", "partyhost", "play", "zero-to-100", "--players", "Ana,Ben,Cy", "--seed", "3"]
        + ["--input", "text", "--output", "text", "--hide-private"],
        cwd=REPO,
        input=lines,
        capture_output=True,
        text=True,
        env={**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data")},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    said = [line.removeprefix("HOST: ") for line in result.stdout.splitlines() if line.startswith("HOST: ")]
    before_ben = said[: said.index("Team Ben, your pick?") + 1]
    assert "Team Ana has chosen." in before_ben
    assert not any(word in line.lower() for line in before_ben for word in ("plus", "fifty", "spot on", "card 1"))
    reveal = said[said.index("Team Cy has chosen.") + 1 :]
    assert reveal[:2] == [
        "Team Ana: Out of 100 men of northern European descent, about how many have red-green color blindness?",
        "Team Ana 8, plus 50 makes 58.",
    ]
    assert "Spot On missed." in reveal
    assert "Team Ben: How many gold stars are on the flag of the European Union?" in reveal
    assert "Team Ben 12, minus 20 makes -8." in reveal
    assert any(line.startswith("Team Cy: What is the most units of alcohol") for line in reveal)
    assert "Team Cy 14, plus 20 makes 34." in reveal
