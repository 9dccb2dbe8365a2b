#!/usr/bin/env python3
"""How often a "host, ..." command is understood at a Keep Cool turn; print the table.

    scripts/measure_host_commands.py [--json FILE]

At keep-cool/word the common commands need the prefix "host" (a bare "score" is a
clue), and the recogniser's prompt is full of the words in play, so the prefix word
is often misheard. Eight commands, said by Piper at three speeds and six espeak-ng
voices, clean and with music at 10 dB SNR, at two tables of words in play, each read
exactly as the benchmarks read a clip (partyhost.bench.manifest.Listener). A command heard
as a clue counts as missed. The game-phrase fixture sets have no such items, which
is why this exists (docs/lab/keep-cool-live.md records a run). The same commands after
the wake word: `partyhost bench wake` (lab/partyhost_lab/wake.py).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyhost.bench.manifest import make_listener
from partyhost.config import Settings
from partyhost_lab.synthetic_speech import Voices, load_noise, mix_at_snr
from partyhost_lab.wake import COMMAND_TABLES as TABLES
from partyhost_lab.wake import COMMAND_VOICES as VOICES
from partyhost_lab.wake import COMMANDS as SAID
from voice.speaking.mixing import padded

COMMANDS = {f"host, {said}": intent for said, intent in SAID.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write every reading here")
    args = parser.parse_args()
    listener, voices = make_listener(Settings()), Voices(noise_scale=0.0)
    music, rng = load_noise("music"), random.Random(3)
    rows = []
    for voice in VOICES:
        for said, intent in COMMANDS.items():
            clean = voices.speak(voice, said)
            for condition in ("clean", "music@10dB"):
                audio = clean if condition == "clean" else mix_at_snr(clean, music, 10, rng)
                for number, context in enumerate(TABLES):
                    heard = listener.understand("keep-cool/word", context, padded(audio))
                    rows.append(
                        {
                            "voice": voice,
                            "said": said,
                            "condition": condition,
                            "table": number,
                            "want": intent,
                            "got": (heard.intent or {}).get("intent"),
                            "heard": heard.text,
                        }
                    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    counts: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    for row in rows:
        group = (row["condition"], "piper" if row["voice"].startswith("piper") else "espeak-ng")
        counts[group][0] += row["got"] == row["want"]
        counts[group][1] += 1
    print(f"{'condition':<12} {'voices':<10} understood")
    for (condition, group), (right, n) in sorted(counts.items()):
        print(f"{condition:<12} {group:<10} {right / n:6.1%} ({right}/{n})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
