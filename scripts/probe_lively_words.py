#!/usr/bin/env python3
"""Where a short "yes" or "no" goes at a lively table: an utterance of its own, run into a
stretch too long for a reply, or never handed over by the endpointer at all.

    scripts/probe_lively_words.py [--snr 5,10,15]

People's "yes" and "no" (../shared/audio/speech-commands, every speaker) are said one
every 7 s at -23 dBFS (their loud samples, as `bench table` says its lines) over the
lively table's room of the tuning table (`partyhost_lab.chatter.party_noise(lively=True)`,
its chatter made of the digits corpus so that no word of it is one of the words said) at
--snr dB below them, and the stream goes through the front end and endpointer a game
builds (partyhost/listening_chain.py), without a break (live, the ears skip what was heard
while the host spoke). A measure of the endpointer only: nothing is read. Run by hand
(issue 54, docs/table-bench.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

EVERY_S = 7.0
VOICE_DBFS = -23.0
WORDS = ("yes", "no")


def spoken_part(audio: np.ndarray, rate: int = 16_000) -> np.ndarray:
    """The clip from its first to its last 10 ms within 30 dB of its loudest."""
    win = rate // 100
    n = len(audio) // win
    levels = 10 * np.log10(np.mean(audio[: n * win].astype(np.float64).reshape(n, win) ** 2, axis=1) + 1e-12)
    active = np.nonzero(levels > levels.max() - 30)[0]
    return audio[active[0] * win : (active[-1] + 1) * win]


def probe(snr_db: float, shared: Path) -> str:
    from partyhost.config import Settings
    from partyhost.listening_chain import endpointer_for, front_end
    from partyhost_lab.chatter import party_noise
    from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame
    from voice.listening.attention import REPLY_MAX_S
    from voice.listening.audio_in import read_wav_16k
    from voice.speaking.mixing import at_level

    paths = [p for word in WORDS for p in sorted((shared / "speech-commands" / word).glob("*.wav"))]
    words = [at_level(spoken_part(read_wav_16k(p)), VOICE_DBFS) for p in paths]
    room = party_noise(EVERY_S * len(words) + 5, lively=True, corpora=("fsdd",))
    stream = (room * 10 ** ((VOICE_DBFS - snr_db) / 20)).astype(np.float32)
    said = []
    for k, word in enumerate(words):
        at = int((3.0 + k * EVERY_S) * SAMPLE_RATE)
        stream[at : at + len(word)] += word
        said.append((at / SAMPLE_RATE, (at + len(word)) / SAMPLE_RATE))
    settings = Settings()
    endpointer = endpointer_for(settings)
    frames = (
        Frame(stream[i : i + FRAME_SAMPLES], i / SAMPLE_RATE)
        for i in range(0, len(stream) - FRAME_SAMPLES, FRAME_SAMPLES)
    )
    found = list(endpointer.utterances(front_end(settings).frames(frames)))
    own = long = 0
    for start, end in said:
        over = [u for u in found if u.start < end and u.end > start]
        long += any(u.end - u.start > REPLY_MAX_S for u in over)
        own += bool(over) and all(u.end - u.start <= REPLY_MAX_S for u in over)
    lost = len(said) - own - long
    return f"| {snr_db:g} dB | {len(said)} | {own} | {long} | {lost} | {endpointer.in_bed} | {endpointer.unconfirmed} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snr", default="5,10,15", help="comma-separated dB of the words over the room")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "audio")
    args = parser.parse_args()
    if not (args.shared / "speech-commands").is_dir():
        sys.exit(f"no people's recordings at {args.shared / 'speech-commands'}")
    print(
        "| words over the room | said | own utterance | in a stretch too long for a reply | not handed over "
        "| candidates dropped as the room (talk too) | not confirmed as speech |"
    )
    print("|---|---|---|---|---|---|---|")
    for snr in args.snr.split(","):
        print(probe(float(snr), args.shared), flush=True)


if __name__ == "__main__":
    main()
