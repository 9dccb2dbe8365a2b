"""Whole games of 1% typed into the command line, one script per deal.

Each script in lab/scripted_games/ is piped into `partyhost play one-percent`; the game
must reach its game_over event with the expected winner. The scripts include a
refused bid, undo, score, "what can I say" and (host deal) "read my cards"; the
host-deal game uses the host's dice, the table-deal game the players' own dice.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole games through the command line, one process each

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "lab" / "scripted_games"

CASES = [
    ("one-percent-basic-host.txt", ["--players", "Ana,Ben,Cy", "--seed", "26", "--deal", "host"], ["Cy"]),
    (
        "one-percent-basic-table.txt",
        ["--players", "Ana,Ben,Cy,Dee", "--seed", "187", "--deal", "table", "--rules", "dice=table"],
        ["Dee"],
    ),
]


def deck_arguments(folder: Path) -> list[str]:
    """1% needs no deck, but the CLI loads the shipped ones: stand-ins if they are absent."""
    shipped = REPO / "decks"
    if (shipped / "questions.csv").exists() and (shipped / "keep-cool.csv").exists():
        return []
    questions, words = folder / "questions.csv", folder / "words.csv"
    with open(questions, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "text", "answer", "year", "source", "category", "games"])
        writer.writerow(["q1", "How many out of 100 like tea?", "50", "2020", "stand-in", "food", "keep-it-100"])
    faces = {
        "red": "apple bread chair door eagle flute grape house igloo jelly".split(),
        "blue": "kite lemon mango nest olive piano queen river snake tiger".split(),
    }
    with open(words, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["card", "face", "line", "word"])
        for face, row in faces.items():
            for line, word in enumerate(row, start=1):
                writer.writerow([1, face, line, word])
    return ["--deck", str(questions), "--word-deck", str(words)]


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
                "one-percent",
                *args,
                *deck_arguments(tmp_path),
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
    rejected = [e for e in events if e["type"] == "rejected"]
    assert [e["reason"] for e in rejected if e["reason"] == "not understood"] == [], (
        "a scripted line was not understood"
    )
    assert len(rejected) == 1 and "You must beat" in rejected[0]["reason"]
    assert any(e["type"] == "undo" for e in events)
    assert any(e["type"] == "reveal" for e in events)


def test_host_deal_sends_hands_privately(tmp_path):
    events, _ = play(*CASES[0][:2], tmp_path)
    privates = [e for e in events if e["type"] == "private"]
    assert {e["player"] for e in privates} == {"Ana", "Ben", "Cy"}
    assert any(e["type"] == "sound" and e["name"] == "dice" for e in events)


def test_table_deal_asks_for_totals_and_dice(tmp_path):
    events, _ = play(*CASES[1][:2], tmp_path)
    prompts = {e["prompt"] for e in events if e["type"] == "prompt"}
    assert {"one-percent/total", "one-percent/dice", "one-percent/vote", "one-percent/reward"} <= prompts
    assert not [e for e in events if e["type"] == "private"]
