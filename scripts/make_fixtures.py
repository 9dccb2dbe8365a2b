#!/usr/bin/env python3
"""Build recorded-speech fixtures and their manifest (see tests/speech_fixtures.py).

  scripts/make_fixtures.py tests/fixtures/voice --per-prompt 8            # the committed test set
  scripts/make_fixtures.py build/bench --speeds 0.85 1 1.2 --espeak --snr 20 10 5   # the benchmark set
  scripts/make_fixtures.py build/held10 --speeds 1.2 --noise-voice piper-1.2 --snr 10   # noise, held-apart rate
then: partyhost bench accuracy build/bench/manifest.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]  # the fixtures are test support, in tests/

from speech_fixtures import build  # noqa: E402

from partyhost_lab.synthetic_speech import FixtureError  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--speeds", type=float, nargs="+", default=[1.0], help="Piper speaking rates")
    parser.add_argument("--espeak", action="store_true", help="also espeak-ng voices (held-apart speakers)")
    parser.add_argument(
        "--voices", nargs="*", default=[], help="other voices by name: piper-SPEED or espeak-VOICE (espeak-ng -v VOICE)"
    )
    parser.add_argument("--snr", type=float, nargs="*", default=[], help="noise mixes, in dB")
    parser.add_argument(
        "--noise-voice",
        default="piper-1",
        help="the voice mixed with noise (piper-SPEED or espeak-VOICE; default piper-1)",
    )
    parser.add_argument("--per-prompt", type=int, help="at most this many utterances per prompt")
    parser.add_argument("--limit", type=int, help="at most this many utterances in all")
    args = parser.parse_args()
    try:
        manifest = build(
            args.out,
            speeds=args.speeds,
            espeak=args.espeak,
            snrs=args.snr,
            noise_voice=args.noise_voice,
            per_prompt=args.per_prompt,
            limit=args.limit,
            voice_names=args.voices,
        )
    except FixtureError as error:
        print(f"make_fixtures: {error}", file=sys.stderr)
        return 2
    print(f"{sum(1 for _ in manifest.open())} recordings in {manifest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
