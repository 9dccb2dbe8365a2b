"""How firmly the Keep Cool recording's lines are read: the test's game played again with
faint noise added, as another CPU's kernels shift Piper's and Whisper's numbers a little.

    .venv/bin/python scripts/recording_margin.py [--level -70] [--tries 5]

Prints, for each try, the words the host took and what the ears read. A line read otherwise
in any try is one a fresh machine may read otherwise too (docs/development.md, "Speech
tests on any machine"): reword it in lab/scripted_games/voice/keep-cool-live.txt.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from recordings import play_recording  # noqa: E402
from test_voice_keep_cool import CASE, build_recording  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=float, default=-70.0, help="the added noise's RMS, dBFS")
    parser.add_argument("--tries", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recording-margin-"))
    recording = build_recording(work / "session.wav")
    audio, rate = sf.read(recording, dtype="float32")
    for seed in range(args.tries):
        noise = np.random.default_rng(seed).standard_normal(audio.shape).astype("float32")
        folder = work / f"try-{seed}"
        folder.mkdir()
        noisy = folder / "session.wav"
        sf.write(noisy, audio + noise * 10 ** (args.level / 20), rate, subtype=sf.info(recording).subtype)
        events = play_recording(CASE, noisy, folder)
        taken = [e["intent"].get("word") or e["intent"].get("text") for e in events if e["type"] == "intent"]
        read = [f"{e['player']}: {e.get('text')!r}" for e in events if e["type"] in ("heard", "misheard")]
        print(f"try {seed}: took {taken}\n    read {', '.join(read)}", flush=True)


if __name__ == "__main__":
    main()
