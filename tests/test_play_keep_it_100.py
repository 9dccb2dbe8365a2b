"""Whole games of Keep It 100 typed into the command line, one script per mode.

Each script in lab/scripted_games/ is piped into `partyhost play keep-it-100`; the game
must reach its game_over event with the expected winners. The scripts include
misheard and refused answers, "read my cards", score and undo requests.
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
DECK = REPO / "lab" / "scripted_games" / "decks" / "questions-starter.csv"  # fixed, so deck edits can't change the deal

CASES = [
    (
        "keep-it-100-basic.txt",
        ["--mode", "basic", "--players", "Ana,Ben,Cy", "--seed", "7", "--rules", "hand_size=2"],
        ["Ana"],
    ),
    (
        "keep-it-100-over100.txt",
        ["--mode", "over100", "--players", "Ana,Ben", "--seed", "3", "--rules", "hand_size=3"],
        ["Ana"],
    ),
    ("keep-it-100-challenge.txt", ["--mode", "challenge", "--players", "Ana,Ben", "--seed", "5"], ["Ana", "Ben"]),
]


def play(script: str, args: list[str], tmp_path: Path) -> tuple[list[dict], str]:
    """Run the CLI on a script; the event log's events and the printed transcript."""
    events_path = tmp_path / "events.jsonl"
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data")}
    with open(SCRIPTS / script, encoding="utf-8") as stdin:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "partyhost",
                "play",
                "keep-it-100",
                *args,
                "--deck",
                str(DECK),
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


@pytest.mark.parametrize("script, args, winners", CASES, ids=[case[0] for case in CASES])
def test_script_plays_to_game_over(script, args, winners, tmp_path):
    events, transcript = play(script, args, tmp_path)
    assert events[-1]["type"] == "game_over", transcript[-2000:]
    assert events[-1]["winners"] == winners
    assert not any(e["type"] == "rejected" and e["reason"] == "not understood" for e in events), (
        "a scripted line was not understood"
    )


def test_typed_play_shows_a_hand_in_full_once_privately_and_names_it_by_titles_aloud(tmp_path):
    """Each Slider's turn names the cards by short titles; the full questions are printed
    once, as the private deal (issue 22: typed mode printed them twice)."""
    events, transcript = play(*CASES[0][:2], tmp_path)
    private = [e["text"] for e in events if e["type"] == "private"]
    questions = [q for text in private for q in text.split("Card ")[1:]]
    turns = [line for line in transcript.splitlines() if "you're the Slider" in line]
    assert turns and questions
    for question in questions:
        full = question.split(": ", 1)[1].strip()
        assert not any(full in line for line in turns), full


def test_typed_lower_at_a_prompt_where_it_is_no_move_leaves_the_speed_alone(tmp_path):
    """A player types "lower" early, at the card choice: it is a Keep It 100 word, so it is
    not "slower"; the game plays on as the script has it."""
    script = (SCRIPTS / "keep-it-100-basic.txt").read_text()
    (tmp_path / "early.txt").write_text("lower\n" + script)
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data")}
    with open(tmp_path / "early.txt", encoding="utf-8") as stdin:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "partyhost",
                "play",
                "keep-it-100",
                *CASES[0][1],
                "--deck",
                str(DECK),
                "--input",
                "text",
                "--output",
                "text",
            ],
            cwd=REPO,
            stdin=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
    assert result.returncode == 0, result.stderr
    assert "Speaking speed" not in result.stdout
    answer = result.stdout.split("Ana> lower\n", 1)[1].splitlines()
    assert answer[:2] == ["[sound: wrong]", answer[1]] and answer[1].startswith("HOST: Sorry, I didn't catch that.")
