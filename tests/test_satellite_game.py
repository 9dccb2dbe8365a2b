"""A whole game played through a real wyoming-satellite, which is killed and brought back mid-game.

`partyhost play --input wyoming://... --output wyoming://...` hears the table
through the satellite's microphone and speaks on its speaker (tests/satellite.py).
The test is the table: each scripted line is spoken into the satellite's
microphone once the host has asked and fallen silent. Half-way through, the
satellite loses power for a few seconds; the game must wait, say it lost the
satellite on the terminal, reconnect, and end exactly as the typed game did.

The host's voice is the real wyoming-piper server (`voice = "wyoming://..."`), played
on the satellite. The recogniser is the local one: the stock wyoming-faster-whisper
cannot be steered by the prompt's words, and a whole scripted game cannot answer the
misreadings that follow ("we save fifty" for "we say fifty"); tests/test_remote_voice.py
reads the committed recordings through that server, and kills it mid-game.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time

import pytest
from recordings import partyhost
from replay import load_cases, outcomes, play_script
from satellite import HostSpeech, count, events, satellite, satellite_program_path  # noqa: F401 (fixtures)

from host.common_commands import UNDO_CONSENT
from voice.speaking.mixing import padded

pytestmark = [pytest.mark.slow, pytest.mark.audio, pytest.mark.model, pytest.mark.live]

CASE = next(case for case in load_cases() if case.script == "zero-to-100-basic.txt")
LOSE_AT_LINE = 7
"""The satellite is killed while the host waits for this line (0-based)."""
SETTINGS = 'rival_margin = 0.0\nvoice = "{tts}"\n'
"""A recording cannot answer "Did you mean ...?". The remote voice speaks at the normal
rate (a Wyoming voice has no speed; another rate would be the local Piper's)."""


def wait_until(condition, what: str, run: subprocess.Popen, timeout: float = 120.0, fail: bool = True) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if run.poll() is not None:
            raise AssertionError(f"partyhost ended while waiting for {what}")
        if time.monotonic() > deadline:
            if fail:
                raise AssertionError(f"timed out waiting for {what}")
            return False
        time.sleep(0.05)
    return True


def test_a_whole_game_through_a_satellite_and_a_voice_server_with_the_satellite_lost_and_back(
    satellite, tts_server, tmp_path, voices
):
    typed = play_script(CASE, tmp_path / "typed")
    typed_events = [json.loads(line) for line in typed.events.read_text().splitlines()]
    lines = [padded(voices.speak("piper-1", line)) for line in CASE.lines()]

    settings = SETTINGS.format(tts=tts_server[0])
    (tmp_path / "config.toml").write_text(settings, encoding="utf-8")
    log = tmp_path / "voice.jsonl"
    run = partyhost(
        [*CASE.cli_arguments(), "--input", satellite.address, "--output", satellite.address, "--events", str(log)],
        tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    told: list[str] = []  # the terminal, read as it comes: the test waits for "is back"
    reader = threading.Thread(target=lambda: told.extend(run.stderr), daemon=True)
    reader.start()
    host = HostSpeech(log, satellite)
    try:
        for index, line in enumerate(lines):
            wait_until(lambda index=index: questions(log) > index, f"the prompt for line {index}", run)
            for attempt in range(3):  # like a player, say it again if the host missed it
                wait_until(host.quiet, "the host to fall silent", run)
                if index == LOSE_AT_LINE and attempt == 0:
                    satellite.kill()  # power lost while the host listens
                    time.sleep(3.0)
                    satellite.start()
                    wait_until(lambda: "is back" in "".join(told), "the satellite to be back", run)
                    time.sleep(0.5)  # a player speaks once the host says it hears again
                ignored = count(log, "ignored")
                satellite.say(line)
                wait_until(
                    lambda index=index, ignored=ignored: count(log, "heard") > index or count(log, "ignored") > ignored,
                    f"line {index} to be heard",
                    run,
                    timeout=15,
                    fail=False,
                )
                if count(log, "heard") > index:
                    break
        run.wait(timeout=120)
        reader.join(10)
        err = "".join(told)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err
    played = events(log)
    heard = [(e["text"], e.get("confidence")) for e in played if e["type"] == "heard"]
    assert outcomes(played) == outcomes(typed_events), heard
    assert played[-1]["type"] == "game_over" and played[-1]["winners"] == list(CASE.winners)
    assert len(heard) == len(lines)  # no line lost, none heard twice
    assert "went away; the game waits for it" in err and "is back" in err
    assert "cannot be used" not in err  # the servers read and spoke throughout
    assert "Traceback" not in err


def questions(log) -> int:
    """The questions the host has asked: its prompts, and whether a player agrees to an
    undo of their move (asked outside any prompt; the script's next line answers it)."""
    consent = sum(1 for e in events(log) if e["type"] == "say" and e["text"].startswith(UNDO_CONSENT))
    return count(log, "prompt") + consent
