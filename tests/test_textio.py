"""Typed play: a Keep Cool turn refused for two words keeps its clock running; commands
typed after "host" or the wake word work at any prompt."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

from host.contract import Outcome, Prompt
from partyhost.textio import TextEars, TypedCommands
from voice.understanding.matcher import Matcher

TURN = Prompt("keep-cool/word", "Ana", "", timeout=8.0)


def test_the_same_prompt_asked_again_at_once_gets_what_is_left_of_its_time():
    ears = TextEars(io.StringIO())
    assert ears._time_left(TURN) == 8.0
    time.sleep(0.05)
    left = ears._time_left(Prompt("keep-cool/word", "Ana", "", timeout=8.0))  # asked again
    assert 7.0 < left < 8.0


def test_another_prompt_or_a_passed_deadline_starts_a_fresh_clock():
    ears = TextEars(io.StringIO())
    ears._time_left(TURN)
    assert ears._time_left(Prompt("keep-cool/word", "Ben", "", timeout=8.0)) == 8.0  # next turn
    ears._timed = (TURN, time.monotonic() - 1)  # ran out
    assert ears._time_left(TURN) == 8.0


# ---- commands typed after "host" or the wake word, as the README says they work -------------

REPO = Path(__file__).resolve().parents[1]
KEEP_COOL_TURN = Prompt("keep-cool/word", "Ana", "", slots={"word": [("pillow", "pillow")], "player": []}, timeout=8.0)


def typed(lines: str, prompt: Prompt, wake_word: str = "okay_nabu"):
    out = io.StringIO()
    ears = TextEars(io.StringIO(lines), out, TypedCommands(Matcher(), wake_word))
    return [ears.hear(prompt) for _ in lines.splitlines()], out.getvalue()


def test_host_and_the_wake_word_address_a_command_at_any_prompt():
    choose = Prompt("keep-it-100/choose_card", "Ana", "", slots={"card_number": [("1", 1)]})
    heard, _ = typed("host, score\nOkay Nabu, score\nok nabu whose turn\nscore\n", choose)
    assert [h.intent for h in heard[:3]] == [{"intent": "score"}, {"intent": "score"}, {"intent": "whose_turn"}]
    assert all(h.outcome is Outcome.DECIDED for h in heard[:3])
    assert heard[3].outcome is Outcome.REPLY and heard[3].text == "score"  # bare, as always, to the matcher
    heard, _ = typed("hey jarvis, score\n", choose, wake_word="hey_jarvis")
    assert heard[0].intent == {"intent": "score"} and heard[0].outcome is Outcome.DECIDED
    heard, _ = typed("okay nabu, score\n", choose, wake_word="off")
    assert heard[0].outcome is Outcome.REPLY  # the wake word is off: words to match


def test_at_a_keep_cool_turn_a_bare_command_is_asked_about_once_then_a_clue():
    heard, out = typed("score\nscore\nhost, relaxed mode\npillow\ncloud\n", KEEP_COOL_TURN)
    assert heard[0].outcome is Outcome.IGNORED and 'type "host, score"' in out and "type it again" in out
    assert heard[1].outcome is Outcome.REPLY and heard[1].intent == {"intent": "word", "word": None, "text": "score"}
    assert heard[2].intent == {"intent": "relaxed", "on": True} and heard[2].outcome is Outcome.DECIDED
    assert heard[3].outcome is Outcome.REPLY  # a word in play is a guess
    assert heard[4].outcome is Outcome.REPLY and out.count("(During a turn") == 1  # near "louder", but a clue


def test_typed_commands_through_the_command_line(tmp_path):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    play = [sys.executable, "-m", "partyhost", "play", "--input", "text", "--output", "text"]
    result = subprocess.run(
        play + ["keep-it-100", "--players", "Ana,Ben"],
        input="host, score\nokay nabu, score\n",
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.count("HOST: Ana 0 and Ben 0.") == 2, result.stdout[-1500:]
    result = subprocess.run(
        play
        + [
            "keep-cool",
            "--players",
            "Ana,Ben,Cy",
            "--rules",
            "face=red",
            "--rules",
            "line=1",
            "--rules",
            "swap=false",
            "--rules",
            "relaxed=true",
        ],
        input="host, help\n",
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "say host before a command: host, score" in result.stdout, result.stdout[-1500:]
