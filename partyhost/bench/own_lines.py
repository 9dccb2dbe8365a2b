"""Recordings the product makes for itself: replies of every game, spoken by the host's own
voice, for `partyhost bench latency` (and `--choose`) on a machine with no recordings of
its own. They time the reading, not its accuracy on people: Piper's voice is no
player's, and a manifest of real players' speech measures better where one exists
(docs/specs/manifest.md)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import soundfile
import soxr

from host.contract import Intent, JsonObject
from voice.audio_types import SAMPLE_RATE
from voice.speaking.mixing import padded


@dataclass(frozen=True)
class OwnLine:
    """One reply as a manifest line has it (docs/specs/manifest.md)."""

    game: str
    prompt: str
    text: str
    expect: Intent
    context: JsonObject = field(default_factory=dict)


OWN_LINES = (
    OwnLine("keep-it-100", "place", "above 95", {"intent": "place", "after": 95}, {"lines": [[20, 50, 78], [35, 95]]}),
    OwnLine("keep-it-100", "predict", "lower", {"intent": "predict", "guess": "lower"}),
    OwnLine("keep-it-100", "bet", "pass", {"intent": "bet", "amount": 0}, {"max": 140, "step": 10}),
    OwnLine("keep-it-100", "tiebreak", "my guess is seventy two", {"intent": "number", "value": 72}),
    OwnLine("zero-to-100", "tiebreak", "we say 50", {"intent": "number", "value": 50}),
    OwnLine("keep-cool", "setup", "line three", {"intent": "line", "line": 3}, {"step": "line"}),
    OwnLine(
        "keep-cool", "word", "candle", {"intent": "word", "word": "candle"}, {"words": ["candle", "guitar", "pencil"]}
    ),
    OwnLine("keep-cool", "claim", "a castle", {"intent": "word", "word": "castle"}, {"words": ["castle", "piano"]}),
    OwnLine("one-percent", "vote", "disagree", {"intent": "disagree"}, {"last": {"count": 6, "family": "comet"}}),
    OwnLine("one-percent", "dice", "8 and 4", {"intent": "dice", "values": [8, 4]}, {"purpose": "setup"}),
    OwnLine("one-percent", "total", "3", {"intent": "number", "value": 3}, {"family": "star"}),
    OwnLine("centurion", "play_card", "the 3 of spades", {"intent": "play_card", "rank": 3, "suit": "spades"}),
    OwnLine("centurion", "joker_steal", "no", {"intent": "no"}, {"count": 120, "maker": "Ana"}),
    OwnLine("common", "menu", "play keep cool", {"intent": "choose_game", "game": "keep-cool"}),
    OwnLine("common", "yes_no", "correct", {"intent": "yes"}),
    OwnLine("common", "number", "i say one", {"intent": "number", "value": 1}),
    OwnLine("common", "name", "i'm ana", {"intent": "name", "name": "Ana"}, {"roster": ["Ana", "Ben", "Cy"]}),
    OwnLine("common", "paused", "resume", {"intent": "resume"}),
)
"""A reply or two at prompts of each game and the common ones, short and long."""


def spoken_manifest(folder: Path, lines: tuple[OwnLine, ...] = OWN_LINES) -> Path:
    """`lines` said by the host's voice into `folder` (a WAV each, with the silence around
    it a microphone gives), and their manifest; returns the manifest's path."""
    from voice.speaking.tts import PiperTTS

    voice = PiperTTS(warm_up=False, noise_scale=0.0)
    (folder / "wav").mkdir(parents=True, exist_ok=True)
    rows = []
    for number, line in enumerate(lines):
        audio = np.concatenate(list(voice.synthesize(line.text)))
        speech = soxr.resample(audio, voice.sample_rate, SAMPLE_RATE).astype(np.float32)
        wav = f"wav/{number:02d}.wav"
        soundfile.write(folder / wav, padded(speech), SAMPLE_RATE, subtype="PCM_16")
        rows.append({"id": f"{line.game}/{line.prompt}-{number}", "wav": wav, **asdict(line), "source": "host voice"})
    manifest = folder / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return manifest
