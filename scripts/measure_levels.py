#!/usr/bin/env python3
"""Hearing at any level: people's digits and yes/no, scaled, through the whole ear.

    scripts/measure_levels.py [--frontends none,agc] [--levels own,-20,-30,-40] [--snr 10] [--limit N]

Unlike scripts/measure_asr.py (which hands the recogniser utterances already cut),
each recording here is set in a stream of room sound (the second half of the shared
pink noise, at -70 dBFS RMS: a quiet room through a laptop microphone, or the
shared noises at --snr dB below the speech), and goes through the front end
(voice/listening/frontend.py), the endpointer (voice/listening/endpoint.py) and the ears' reading
(voice.listening.pipeline.read_checked, as voice/listening/ears.py reads), so a voice the endpointer
never finds counts as wrong, and so does one the ears would take as cut at the
start (voice/listening/onset.py: they ask again). Held-apart speakers are used (those that
scripts/measure_asr.py does not tune on), with the second half of each noise; with
--tune, the tuning speakers and the first half instead, to choose a front end on.
Levels: "own" leaves the recording as it is; a number scales its peak to that many
dBFS. The table gives per front end and
level: utterances, found by the endpointer, right intents, and the front end's CPU
per second of audio (its share of one core while idle listening is that figure).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import measure_asr as asr  # noqa: E402

from host.reply_policy import acts  # noqa: E402
from partyhost.bench.manifest import bench_prompt  # noqa: E402
from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame  # noqa: E402
from voice.listening.endpoint import Endpointer, SileroCheck  # noqa: E402
from voice.listening.frontend import FrontEnd, FrontEndConfig  # noqa: E402
from voice.listening.onset import missed_start  # noqa: E402
from voice.listening.pipeline import read_checked  # noqa: E402
from voice.understanding.matcher import Matcher  # noqa: E402

ROOM_DBFS = -70.0
LEAD_S, TAIL_S = 1.5, 1.2
FRONTENDS = {
    "none": FrontEndConfig(agc=False, noise_suppression=0),
    "agc": FrontEndConfig(agc=True, noise_suppression=0),
    "agc-1": FrontEndConfig(agc=True, limit_dbfs=-1.0),
    "room": FrontEndConfig(agc=True, webrtc_agc=False),
    "room+ns1": FrontEndConfig(agc=True, webrtc_agc=False, noise_suppression=1),
    "room+ns2": FrontEndConfig(agc=True, webrtc_agc=False, noise_suppression=2),
    "agc+ns1": FrontEndConfig(agc=True, noise_suppression=1),
    "agc+ns2": FrontEndConfig(agc=True, noise_suppression=2),
}


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x.astype(np.float64) ** 2)) + 1e-12)


def scene(speech: np.ndarray, level: str, background: np.ndarray, snr: float | None, offset: int) -> np.ndarray:
    """The recording at `level`, in a stretch of room sound (or noise at `snr` dB)."""
    if level != "own":
        speech = speech / (np.max(np.abs(speech)) + 1e-9) * 10 ** (float(level) / 20)
    lead, tail = int(LEAD_S * SAMPLE_RATE), int(TAIL_S * SAMPLE_RATE)
    total = lead + len(speech) + tail
    total = (total // FRAME_SAMPLES + 1) * FRAME_SAMPLES
    start = offset % (len(background) - total)
    room = background[start : start + total].astype(np.float64)
    if snr is None:
        room *= 10 ** (ROOM_DBFS / 20) / rms(room)
    else:
        room *= asr.active_rms(speech) / rms(room) / 10 ** (snr / 20)
    out = room.copy()
    out[lead : lead + len(speech)] += speech
    return np.clip(out, -1, 1).astype(np.float32)


def clean_positives(limit: int | None, tune: bool = False) -> list[asr.Item]:
    """Held-apart people's digits and yes/no (or, with `tune`, the tuning speakers'),
    unpadded (the scene adds the room)."""
    items = []
    for path in sorted((asr.AUDIO / "fsdd").glob("*.wav")):
        digit, speaker, _ = path.stem.split("_")
        if (speaker in asr.TUNE_SPEAKERS) == tune:
            items.append(
                asr.Item(
                    f"fsdd/{path.stem}",
                    "fsdd",
                    speaker,
                    "test",
                    "number",
                    {"intent": "number", "value": int(digit)},
                    "clean",
                    asr.read_wav(path),
                )
            )
    for word in asr.DIGITS + ["yes", "no"]:
        for path in sorted((asr.AUDIO / "speech-commands" / word).glob("*.wav")):
            speaker = path.stem.split("_")[0]
            if (speaker in asr.TUNE_SPEAKERS) != tune:
                continue
            prompt, expect = (
                ("yes_no", {"intent": word})
                if word in ("yes", "no")
                else ("number", {"intent": "number", "value": asr.DIGITS.index(word)})
            )
            items.append(
                asr.Item(f"sc/{word}/{path.stem}", "sc", speaker, "test", prompt, expect, "clean", asr.read_wav(path))
            )
    if limit and limit < len(items):
        step = len(items) / limit
        items = [items[int(i * step)] for i in range(limit)]
    return items


def hear(audio: np.ndarray, front: FrontEnd, endpointer: Endpointer):
    """The first utterance the endpointer finds in `audio`, and the front end's seconds."""
    spent = 0.0
    for i in range(0, len(audio) - FRAME_SAMPLES + 1, FRAME_SAMPLES):
        frame = Frame(audio[i : i + FRAME_SAMPLES], i / SAMPLE_RATE)
        t0 = time.process_time()
        frame = front.process(frame)
        spent += time.process_time() - t0
        utterance = endpointer.push(frame)
        if utterance is not None:
            return utterance, spent
    return endpointer.flush(), spent


def idle_cpu(config: FrontEndConfig, seconds: float = 60.0) -> float:
    """Share of one core the front end takes on room sound alone."""
    rng = np.random.default_rng(3)
    audio = (rng.standard_normal(int(seconds * SAMPLE_RATE)) * 10 ** (ROOM_DBFS / 20)).astype(np.float32)
    front = FrontEnd(config)
    t0 = time.process_time()
    for i in range(0, len(audio) - FRAME_SAMPLES + 1, FRAME_SAMPLES):
        front.process(Frame(audio[i : i + FRAME_SAMPLES], i / SAMPLE_RATE))
    return (time.process_time() - t0) / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frontends", default="none,agc")
    parser.add_argument("--levels", default="own,-20,-30,-40")
    parser.add_argument("--snr", type=float, help="mix the shared noises at this SNR instead of a quiet room")
    parser.add_argument("--limit", type=int, help="an evenly spread subset of this many utterances")
    parser.add_argument("--no-asr", action="store_true", help="count what the endpointer finds only")
    parser.add_argument(
        "--tune",
        action="store_true",
        help="the tuning speakers instead (to choose on), with the first half of the noises",
    )
    args = parser.parse_args(argv)
    if not asr.AUDIO.exists():
        print(f"{asr.AUDIO} is missing: the shared real-speech set is needed.", file=sys.stderr)
        return 2
    items = clean_positives(args.limit, args.tune)
    noises = {name: asr.read_wav(asr.AUDIO / "noise" / f"{name}.wav") for name in asr.NOISES}
    noises = {
        name: (n[: len(n) // 2] if args.tune else n[len(n) // 2 :])  # held apart: the second half
        for name, n in noises.items()
    }
    matcher = Matcher()
    recognizer = None if args.no_asr else asr.make_backend("whisper")
    check = SileroCheck()
    where = f"{args.snr:g} dB noise" if args.snr is not None else f"a {ROOM_DBFS:g} dBFS room"
    speakers = sorted({i.speaker for i in items})
    print(
        f"# {len(items)} {'tuning' if args.tune else 'held-apart'} utterances ({len(speakers)} speakers) in {where}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print("| front end | level | n | found | taken as cut at the start | right | front end CPU (idle, one core) |")
    print("|---|---|---|---|---|---|---|")
    for name in [f.strip() for f in args.frontends.split(",") if f.strip()]:
        config = FRONTENDS[name]
        cpu = idle_cpu(config)
        for level in [lv.strip() for lv in args.levels.split(",") if lv.strip()]:
            found = right = cut = 0
            for n, item in enumerate(items):
                background = noises["pink_noise"] if args.snr is None else noises[asr.NOISES[n % len(asr.NOISES)]]
                audio = scene(item.audio, level, background, args.snr, 7919 * n)
                utterance, _ = hear(audio, FrontEnd(config), Endpointer(speech_check=check))
                if utterance is None:
                    continue
                found += 1
                if missed_start(utterance, 0.0):
                    cut += 1  # the ears would ask again: not right
                    continue
                if recognizer is None:
                    continue
                prompt = bench_prompt(asr.PROMPTS[item.prompt], {})
                reading = read_checked(recognizer, matcher, prompt, utterance, acts=acts)
                intent = None if reading.rejected else matcher.match(prompt.name, reading.text).intent
                right += asr.correct(item, intent)
            print(
                f"| {name} | {level} | {len(items)} | {found / len(items):.1%} | {cut / len(items):.1%} | "
                f"{'-' if recognizer is None else f'{right / len(items):.1%}'} | {cpu:.2%} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
