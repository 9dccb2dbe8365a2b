"""Whole games played by voice, from one recording each, through the real pipeline.

Each recording is built by speech_fixtures.build_session_wav from a typed game
script: every line spoken by Piper after the host's turn ends, with the host's own
voice mixed in as echo. Played into `partyhost play --input FILE.wav`, the game must
score, reveal and end exactly as the typed game did.
A second test plays speech into a real (PulseAudio null-sink) sound device while
partyhost listens to it as its microphone.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
import soundfile
from recordings import partyhost, play_recording
from replay import load_cases, outcomes, play_script
from speech_fixtures import build_session_wav

from voice.audio_types import SAMPLE_RATE
from voice.speaking.mixing import padded

pytestmark = [pytest.mark.slow, pytest.mark.audio, pytest.mark.model]

REPO = Path(__file__).resolve().parents[1]
CASES = {case.script: case for case in load_cases()}
# Only the games whose recordings are understood end to end today. keep-it-100-basic
# and one-percent-basic-table still diverge on a few misheard lines ("undo" heard as
# "and you", "reroll" as "we roll", which asks "Did you mean ...?" that a recording
# cannot answer); they are measured, not asserted, until recognition improves.
VOICE_GAMES = ["zero-to-100-basic.txt", "centurion-pvp-table.txt"]


@pytest.mark.parametrize("script", VOICE_GAMES)
def test_a_whole_game_played_from_one_recording(script, tmp_path, voices):
    case = CASES[script]
    typed = play_script(case, tmp_path / "typed")
    typed_events = [json.loads(line) for line in typed.events.read_text().splitlines()]

    recording = build_session_wav(case, tmp_path / "session.wav", voices)
    # A recording cannot answer "Did you mean ...?", so the host is not to ask it when
    # its n-best holds another move close behind (tested in test_ears_rival.py).
    events = play_recording(case, recording, tmp_path, settings="rival_margin = 0.0\n")
    heard = [e for e in events if e["type"] == "heard"]
    assert outcomes(events) == outcomes(typed_events), [(e["text"], e.get("confidence")) for e in heard]
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == list(case.winners)


def test_a_reply_spoken_into_a_real_sound_device_is_understood(pulse_null_sink, tmp_path, voices):
    """partyhost listens to the null sink's monitor as its microphone; paplay speaks into it."""
    case = CASES["one-percent-basic-host.txt"]  # Cy opens the bidding at once
    reply = tmp_path / "reply.wav"
    soundfile.write(reply, padded(voices.speak("piper-1", "three sharks")), SAMPLE_RATE, subtype="PCM_16")
    events_path = tmp_path / "live.jsonl"
    run = partyhost(
        [
            *case.cli_arguments(),
            "--input",
            "mic",
            "--input-device",
            "pulse",
            "--output",
            "text",
            "--events",
            str(events_path),
        ],
        tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _said(events_path, "one-percent/bid"):
            time.sleep(0.2)
        intent = None
        for _ in range(3):  # like a player, say it again if the host missed it
            time.sleep(1.0)  # the microphone stream settles (PulseAudio starts late)
            pulse_null_sink.paplay(reply).wait(timeout=30)
            heard_by = time.monotonic() + 10
            while time.monotonic() < heard_by and intent is None:
                intent = next((e["intent"] for e in _events(events_path) if e["type"] == "intent"), None)
                time.sleep(0.2)
            if intent is not None:
                break
    finally:
        run.terminate()
        run.communicate(timeout=30)
    assert intent == {"intent": "bid", "count": 3, "family": "shark"}


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _said(path: Path, prompt: str) -> bool:
    return any(e["type"] == "prompt" and e["prompt"] == prompt for e in _events(path))
