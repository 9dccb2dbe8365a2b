#!/usr/bin/env python3
"""What the second listener adds to a Keep Cool turn's reading time; print percentiles.

    scripts/time_second_opinion.py [--voices piper-1.25,espeak-en-gb] [--tables 6]

`partyhost bench keep-cool` asks the second listener both of its questions about
every word (so that any line can be summarised afterwards), so its times are not a
live turn's. This times the live reading itself (the live ears' listening chain,
partyhost/listening_chain.py: front end, endpointer and reader) on the benchmark's words
and clues, each clip read twice in turn: by Whisper and its check alone, and with Moonshine's veto or rescue on top.
Both start from a cold encoder cache every time. Run it on an otherwise idle machine
(docs/lab/keep-cool-live.md records a run).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.games import grammar_slots
from partyhost.bench.manifest import bench_prompt, first_utterance, percentile
from partyhost.config import Settings
from partyhost.listening_chain import listening_chain
from partyhost_lab.keep_cool import PROMPT, ROSTER, build_set
from partyhost_lab.synthetic_speech import Voices
from voice.asr.moonshine import MoonshineScorer, Preloaded
from voice.speaking.mixing import padded  # noqa: E402
from voice.understanding.matcher import Matcher


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", default="piper-1.25,espeak-en-gb")
    parser.add_argument("--tables", type=int, default=6)
    args = parser.parse_args()
    chain, matcher = listening_chain(Settings()), Matcher()
    moonshine = Preloaded(MoonshineScorer)
    voices = Voices(noise_scale=0.0)
    bench = build_set(args.tables, 6)
    alone: list[float] = []
    both: list[float] = []
    for voice in args.voices.split(","):
        for item in bench.items:
            utterance = first_utterance(padded(voices.speak(voice, item.text)), chain.settings)
            if utterance is None:
                continue
            slots = grammar_slots(PROMPT, {"words": bench.tables[item.table], "roster": ROSTER})
            prompt = bench_prompt(PROMPT, slots)
            for second, times in ((None, alone), (moonshine, both)):
                # a new utterance for both: the recognisers keep the last encoding
                clip = np.concatenate([utterance.audio, np.zeros(1, np.float32)]) if second else utterance.audio
                started = time.perf_counter()
                replace(chain.reader, second=second).read(matcher, prompt, replace(utterance, audio=clip))
                times.append((time.perf_counter() - started) * 1000)
    added = [b - a for a, b in zip(alone, both)]
    print(f"words={len(alone)} whisper_alone_p50_ms={percentile(alone, 50):.0f} p95_ms={percentile(alone, 95):.0f}")
    print(f"with_second_listener_p50_ms={percentile(both, 50):.0f} p95_ms={percentile(both, 95):.0f}")
    print(
        f"added_p50_ms={round(percentile(added, 50))} p95_ms={round(percentile(added, 95))} "
        f"share_over_20_ms={np.mean([a > 20 for a in added]):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
