"""`partyhost bench chatter`: a table talking among itself, played into a game of each kind.

Five voices talk at once for `minutes` (20 by default), nobody addressing the host.
The voices are made from the people's recordings beside the project
(../shared/audio: Free Spoken Digit Dataset and Speech Commands words), leaving out
the speakers that tuning used anywhere (scripts/measure_asr.py's TUNE_SPEAKERS; the
attention rules in voice/listening/attention.py were set without recordings). Each voice strings
random takes of many speakers with short gaps, at its own level; the five are summed
over a quiet room's floor. The recording is the microphone of a real `partyhost play`
(its front end, endpointer, recogniser, matcher and session) with the first scripted
case of each game, and the event log is counted:

- moves: intents the game applied from speech (a timed turn running out is not one);
- host utterances: everything the host said after its first question;
- ignored: speech the ears logged as not said to the host, by reason.

The issue's target: 0 moves, and 6 host utterances or fewer in 20 minutes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
import soundfile

from host.errors import PartyhostError
from partyhost_lab.places import CHECKOUT
from partyhost_lab.places import SHARED_AUDIO as AUDIO
from partyhost_lab.scripted import ScriptCase, load_cases
from voice.audio_types import SAMPLE_RATE

TUNE_SPEAKERS = {"jackson", "439c84f4"}  # scripts/measure_asr.py: used for tuning, so left out
VOICES = 5
ROOM_DBFS = -70.0
VOICE_DBFS = (-34.0, -26.0)  # each voice's speech level (RMS while it speaks)


class ChatterError(PartyhostError):
    """The recordings the babble is made from are missing; the message says where."""


def _read(path: Path) -> np.ndarray:
    import soxr

    audio, rate = soundfile.read(path, dtype="float32", always_2d=True)
    audio = audio.mean(axis=1)
    return soxr.resample(audio, rate, SAMPLE_RATE).astype(np.float32) if rate != SAMPLE_RATE else audio


def _speaker(path: Path) -> str:
    return path.stem.split("_")[1] if path.parent.name == "fsdd" else path.stem.split("_")[0]


CORPORA = ("fsdd", "speech-commands")


def takes(corpora: tuple[str, ...] = CORPORA) -> list[np.ndarray]:
    """Every take of these corpora by a speaker tuning did not use, trimmed to its
    speech, at unit RMS."""
    paths = (sorted((AUDIO / "fsdd").glob("*.wav")) if "fsdd" in corpora else []) + (
        sorted((AUDIO / "speech-commands").glob("*/*.wav")) if "speech-commands" in corpora else []
    )
    if not paths:
        raise ChatterError(f"no recordings in {AUDIO}: the babble is made from ../shared/audio")
    out = []
    for path in paths:
        if _speaker(path) in TUNE_SPEAKERS:
            continue
        audio = _read(path)
        loud = np.flatnonzero(np.abs(audio) > 0.1 * np.max(np.abs(audio)))
        if len(loud) == 0:
            continue
        audio = audio[max(0, loud[0] - 800) : loud[-1] + 800]
        out.append(audio / (np.sqrt(np.mean(audio**2)) + 1e-9))
    return out


def babble(
    seconds: float,
    seed: int = 19,
    voices: int = VOICES,
    corpora: tuple[str, ...] = CORPORA,
    pool: list[np.ndarray] | None = None,
) -> np.ndarray:
    """`voices` people talking at once for `seconds`, over a quiet room (`corpora`: whose
    recordings, so a test can keep the babble's speakers apart from its speech; `pool`:
    their takes, when already read)."""
    rng = np.random.default_rng(seed)
    pool = pool if pool is not None else takes(corpora)
    n = int(seconds * SAMPLE_RATE)
    mix = rng.standard_normal(n) * 10 ** (ROOM_DBFS / 20)
    for _ in range(voices):
        level = 10 ** (rng.uniform(*VOICE_DBFS) / 20)
        at = int(rng.uniform(0, 1.0) * SAMPLE_RATE)
        while at < n:
            take = pool[rng.integers(len(pool))] * level
            end = min(n, at + len(take))
            mix[at:end] += take[: end - at]
            at = end + int(rng.uniform(0.05, 0.35) * SAMPLE_RATE)
    return np.clip(mix, -1, 1).astype(np.float32)


PARTY = (("chatter", 1.0), ("doing_the_dishes", 0.5), ("music", 0.5))
"""A party's continuous noise: five voices of chatter, a kitchen and music, by power."""


LIVELY = (("chatter", 4.0), ("doing_the_dishes", 0.5), ("music", 0.5))
LIVELY_VOICES = 2
"""A lively table's noise: two people talking close by (the party has five, further off),
their talk most of the room's power, the kitchen and music under it."""


def party_noise(seconds: float, seed: int = 19, corpora: tuple[str, ...] = CORPORA, lively: bool = False) -> np.ndarray:
    """`seconds` of a party's noise (PARTY; `lively`: a lively table's, LIVELY) at unit
    RMS: the chatter above and the kitchen and music of ../shared/audio/noise, each looped
    from a random point."""
    from partyhost_lab.synthetic_speech import load_noise

    mix, voices = (LIVELY, LIVELY_VOICES) if lively else (PARTY, VOICES)
    sounds = [(babble(seconds, seed, voices, corpora) if name == "chatter" else load_noise(name), p) for name, p in mix]
    return by_power(sounds, seconds, np.random.default_rng(seed))


def by_power(sounds: list[tuple[np.ndarray, float]], seconds: float, rng: np.random.Generator) -> np.ndarray:
    """`seconds` of the sounds together at unit RMS, each looped from a random point and
    given its share of the power: the one way a room's noises are mixed."""
    n = int(seconds * SAMPLE_RATE)
    out = np.zeros(n)
    for sound, power in sounds:
        looped = np.roll(np.resize(sound, n), rng.integers(n)).astype(np.float64)
        out += looped * np.sqrt(power / (np.mean(looped**2) + 1e-12))
    return (out / np.sqrt(np.mean(out**2))).astype(np.float32)


def count(events: list[dict]) -> dict:
    """Moves, host utterances after the first question, and ignored speech by reason."""
    first = next((i for i, e in enumerate(events) if e["type"] == "prompt"), len(events))
    later = events[first:]
    asked_once = next((i for i, e in enumerate(later) if e["type"] == "say"), None)
    said = [e["text"] for i, e in enumerate(later) if e["type"] == "say" and i != asked_once]
    moves = [e["intent"] for e in later if e["type"] == "intent" and e["intent"].get("intent") != "timeout"]
    return {
        "moves": len(moves),
        "move_intents": moves,
        "host_utterances": len(said),
        "said": said,
        "timeouts": sum(e["type"] == "intent" and e["intent"].get("intent") == "timeout" for e in later),
        "ignored": dict(Counter(e["reason"] for e in later if e["type"] == "ignored")),
        "heard": sum(e["type"] == "heard" for e in later),
    }


def play(arguments: list[str], recording: Path, work: Path) -> list[dict]:
    """The event log of `partyhost ARGUMENTS` with `recording` as its microphone."""
    events = work / "events.jsonl"
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(work / "data"), "PARTYHOST_CONFIG": os.devnull}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            *arguments,
            "--input",
            str(recording),
            "--output",
            "text",
            "--events",
            str(events),
        ],
        cwd=CHECKOUT,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if run.returncode != 0:
        raise RuntimeError(f"partyhost {' '.join(arguments)} failed: {run.stderr[-2000:]}")
    return [json.loads(line) for line in events.read_text().splitlines()]


def command(
    minutes: float = 20.0, games: list[str] | None = None, json_out: Path | None = None, voices: int = VOICES
) -> int:
    try:
        audio = babble(minutes * 60, voices=voices)
    except ChatterError as error:
        print(error, file=sys.stderr)
        return 2
    cases: dict[str, ScriptCase] = {}
    for case in load_cases():
        cases.setdefault(case.game, case)
    chosen = games or list(cases)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        recording = Path(folder) / "babble.wav"
        soundfile.write(recording, audio, SAMPLE_RATE, subtype="PCM_16")
        print(
            f"# {minutes:g} minutes of {voices}-voice babble (people's recordings, tuning speakers "
            f"left out), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
        print("| game | moves | host utterances | timeouts | heard | ignored (by reason) | run s |")
        print("|---|---|---|---|---|---|---|")
        for game in chosen:
            work = Path(folder) / game
            work.mkdir()
            started = time.monotonic()
            result = count(play(cases[game].cli_arguments(), recording, work))
            result["seconds"] = round(time.monotonic() - started, 1)
            results[game] = result
            ignored = ", ".join(f"{k} {v}" for k, v in sorted(result["ignored"].items())) or "-"
            print(
                f"| {game} | {result['moves']} | {result['host_utterances']} | {result['timeouts']} | "
                f"{result['heard']} | {ignored} | {result['seconds']} |",
                flush=True,
            )
    if json_out:
        json_out.write_text(json.dumps(results, indent=1))
    return 0
