"""Picovoice's speech-to-intent benchmark (coffee orders) through partyhost's ears.

    partyhost bench coffee [--snr 24,12,6] [--out DIR] [--backend NAME]

Makes a manifest of ../shared/peers/picovoice's recordings, clean and mixed with its
kitchen noise the way the benchmark mixes (README there), runs `partyhost bench
accuracy` on it with docs/examples/coffee_maker.yaml, and scores it as Rhino is
scored: a recording is right when the intent and every labelled slot are right, no
slot missing or extra; here it must also be acted on without "Did you mean ...?".
It also reports how many transcripts hold every labelled value word for word: the
recogniser's ceiling beside the matcher's result.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import soundfile

from host.contract import Intent
from partyhost.bench.manifest import Item, make_listener, run_accuracy
from partyhost.config import Settings
from partyhost_lab.places import CHECKOUT
from voice.listening.audio_in import read_wav_16k
from voice.speaking import mixing
from voice.understanding.normalize import normalize

PEER = CHECKOUT.parent / "shared" / "peers" / "picovoice"
GRAMMAR = CHECKOUT / "docs" / "examples" / "coffee_maker.yaml"


def mix(speech: np.ndarray, noise: np.ndarray, snr_db: float, rng: random.Random) -> np.ndarray:
    """The benchmark's mix: SNR between the loudest frame of the speech and of a random
    stretch of noise as long, then the mix scaled to half of full range."""
    mixed = mixing.mix(
        speech, noise, snr_db, start=mixing.random_start(noise, len(speech), rng), measure=mixing.LOUDEST_FRAME
    )
    return (mixed / (np.abs(mixed).max() or 1.0) * 0.5).astype(np.float32)


def build(out: Path, snrs: list[float], seed: int = 1) -> Path:
    labels = json.loads((PEER / "label.json").read_text())
    noise = read_wav_16k(PEER / "noise" / "kitchen.wav")
    rng = random.Random(seed)
    (out / "wav").mkdir(parents=True, exist_ok=True)
    lines = []
    for name, label in sorted(labels.items()):
        speech = read_wav_16k(PEER / "speech" / name)
        expect = {"intent": label["intent"], **{k: v.strip() for k, v in label["slots"].items()}}
        for snr in [None] + snrs:
            condition = "clean" if snr is None else f"kitchen {snr:g} dB"
            wav = f"wav/{Path(name).stem}-{'clean' if snr is None else f'{snr:g}'}.wav"
            soundfile.write(out / wav, speech if snr is None else mix(speech, noise, snr, rng), 16000)
            lines.append(
                {
                    "id": f"{Path(name).stem}-{condition}",
                    "wav": wav,
                    "game": "coffee_maker",
                    "prompt": "order",
                    "expect": expect,
                    "condition": condition,
                }
            )
    manifest = out / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return manifest


def holds_every_value(heard: str, expect: Intent) -> bool:
    said = f" {normalize(heard, strip_fillers=False)} "
    return all(f" {normalize(str(v), strip_fillers=False)} " in said for k, v in expect.items() if k != "intent")


TUNING_HALF = 62
"""The first 62 recordings (by name) tuned the decoding's lines (docs/lab/recognition.md);
the rest are held apart, as are the benchmark's 495 recordings not in ../shared."""


def report(items: list[Item]) -> None:
    tuning = set(sorted({_recording(i) for i in items})[:TUNING_HALF])
    print(
        f"{'condition':16} {'half':>6} {'n':>4} {'right unasked':>14} {'asked first':>12} {'wrong unasked':>14} "
        f"{'rejected':>9} {'transcript ceiling':>19}"
    )
    for condition in dict.fromkeys(i["condition"] for i in items):
        for half in ("tuning", "held"):
            rows = [i for i in items if i["condition"] == condition and (_recording(i) in tuning) == (half == "tuning")]
            if not rows:
                continue
            n = len(rows)
            right = sum(i["got"] == i["expect"] and not i["asked"] for i in rows)
            asked = sum(bool(i["asked"]) for i in rows)
            wrong = sum(i["got"] is not None and i["got"] != i["expect"] and not i["asked"] for i in rows)
            rejected = sum(i["got"] is None for i in rows)
            ceiling = sum(holds_every_value(i["heard"], i["expect"]) for i in rows)
            print(
                f"{condition:16} {half:>6} {n:4} {right / n:14.1%} {asked / n:12.1%} {wrong / n:14.1%} "
                f"{rejected / n:9.1%} {ceiling / n:19.1%}"
            )


def _recording(item: Item) -> str:
    """The recording an item was made from (its id is "<name>-<condition>")."""
    return item["id"].removesuffix("-" + item["condition"])


def command(snrs: list[float], out: Path, backend: str | None) -> int:
    """`partyhost bench coffee`: the manifest made in `out`, read, and scored."""
    if not PEER.is_dir():
        print(f"partyhost bench coffee: {PEER} is missing", file=sys.stderr)
        return 2
    manifest = build(out, snrs)
    result = run_accuracy(manifest, make_listener(Settings(backend=backend), GRAMMAR), out / "result.json")
    report(result["items"])
    print(f"p50 {result['summary']['p50_ms']} ms, p95 {result['summary']['p95_ms']} ms (recognise and match)")
    return 0
