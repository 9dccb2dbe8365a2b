"""End of speech to intent, through a real wyoming-satellite against a local microphone.

The same replies (Piper's voice, game commands of one prompt) reach the ears two ways:

- local: 30 ms frames handed to the endpointer as they are "captured", at real-time
  pace in this process (a sound card with no transport delay at all: the floor);
- satellite: spoken into wyoming-satellite 1.0.0's --mic-command (lab/partyhost_lab/satellite_mic.py,
  a paced raw stream like arecord's, 1024-sample chunks), over TCP on 127.0.0.1 to
  voice/remote/satellite.SatelliteSource.

Both paths hear as the live ears do (partyhost/listening_chain.py: front end, endpointer,
reader). For each reply, "end of speech" is the moment its last speech sample was captured
(the microphone program logs when each line starts). Measured: end of speech ->
utterance endpointed, and -> intent (recognised and matched: the same recogniser
for both). The satellite's overhead is the difference. Run:
    partyhost bench satellite [--rounds 2] [--chunk 1024]
It needs the satellite's venv that lab/partyhost_lab/live_satellite.py builds (run tests/test_satellite.py once).
"""

from __future__ import annotations

import queue
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from partyhost.bench.manifest import bench_prompt
from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame
from voice.speaking.mixing import padded, speech_end

if TYPE_CHECKING:
    from partyhost.listening_chain import ListeningChain
    from voice.understanding.matcher import Matcher

PROMPT = "zero-to-100/choose_card"
REPLIES = [
    "card one",
    "card two",
    "card three",
    "the bowling one",
    "card two with plus twenty",
    "card one with minus fifty and spot on",
    "read our cards",
    "score",
    "number one",
    "undo",
]
VOICES = ["piper-1", "piper-1.15"]


class DirectMic:
    """Frames handed over as they are captured, at real-time pace: no transport at all."""

    def __init__(self) -> None:
        self.lines: queue.Queue = queue.Queue()
        self.started: list[float] = []

    def frames(self) -> Iterator[Frame]:
        due = time.monotonic()
        pending = np.zeros(0, np.float32)
        while True:
            if not len(pending) and not self.lines.empty():
                pending = self.lines.get()
                self.started.append(due)
            piece, pending = pending[:FRAME_SAMPLES], pending[FRAME_SAMPLES:]
            piece = np.pad(piece, (0, FRAME_SAMPLES - len(piece)))
            due += FRAME_SAMPLES / SAMPLE_RATE
            if (ahead := due - time.monotonic()) > 0:
                time.sleep(ahead)
            yield Frame(piece.astype(np.float32), due - FRAME_SAMPLES / SAMPLE_RATE)

    def now(self) -> float:
        return time.monotonic()


def measure(
    frames: Iterator[Frame],
    now: Callable[[], float],
    say: Callable[[np.ndarray], object],
    started: Callable[[], list[float]],
    replies: list[tuple[str, np.ndarray]],
    chain: ListeningChain,
    matcher: Matcher,
) -> list[tuple[float, float, bool]]:
    """(end of speech -> endpointed, -> intent, understood) for each reply that was
    endpointed within 5 s of its end; a reply never endpointed is left out (counted)."""
    from voice.listening.turns import listen_for_turn

    prompt = bench_prompt(PROMPT, {})
    results = []
    frames, endpointer, reader = chain.front_end().frames(frames), chain.endpointer(), chain.reader
    for text, audio in replies:
        before = len(started())
        say(audio)
        turn = listen_for_turn(endpointer, frames, 0.0, now() + len(audio) / SAMPLE_RATE + 5.0)
        endpointed = time.monotonic()
        if turn.utterance is None:
            print(f"not endpointed: {text!r}", file=sys.stderr)
            endpointer.reset()
            continue
        reading = reader.read(matcher, prompt, turn.utterance)
        match = None if reading.rejected else matcher.match(PROMPT, reading.text, {})
        intent_at = time.monotonic()
        spoken_end = started()[before] + speech_end(audio) / SAMPLE_RATE
        wanted = matcher.match(PROMPT, text, {}).intent
        results.append((endpointed - spoken_end, intent_at - spoken_end, match is not None and match.intent == wanted))
        time.sleep(0.3)
    return results


def percentiles(values: list[float]) -> str:
    ms = np.array(values) * 1000
    return f"p50 {np.percentile(ms, 50):6.0f} ms  p95 {np.percentile(ms, 95):6.0f} ms"


def command(rounds: int, chunk: int) -> int:
    """`partyhost bench satellite`: both paths measured, the figures printed."""
    from partyhost.config import Settings
    from partyhost.listening_chain import listening_chain
    from partyhost_lab.live_satellite import SATELLITE_VENV, RunningSatellite
    from partyhost_lab.synthetic_speech import Voices
    from voice.remote.address import parse_address
    from voice.remote.satellite import SatelliteSource
    from voice.remote.satellite_link import SatelliteLink
    from voice.understanding.matcher import Matcher

    program = SATELLITE_VENV / "bin" / "python"
    if not program.exists():
        print(f"no wyoming-satellite venv at {program}: run tests/test_satellite.py once", file=sys.stderr)
        return 2
    voices = Voices(noise_scale=0.0)
    replies = [(text, padded(voices.speak(voice, text))) for _ in range(rounds) for voice in VOICES for text in REPLIES]
    chain, matcher = listening_chain(Settings()), Matcher()  # as a live game hears

    direct = DirectMic()
    local = measure(direct.frames(), direct.now, direct.lines.put, lambda: direct.started, replies, chain, matcher)

    work = Path(tempfile.mkdtemp(prefix="bench-satellite-"))
    running = RunningSatellite(program, work, mic_chunk=chunk).start()
    link = SatelliteLink(parse_address(running.address))
    source = SatelliteSource(link)
    try:
        source.open()

        def said_at() -> list[float]:
            return [float(p.read_text()) for p in sorted(running.mailbox.glob("*.start"))]

        remote = measure(
            source.frames(), source.now, lambda audio: running.say(audio, wait=False), said_at, replies, chain, matcher
        )
    finally:
        source.close()
        link.close()
        running.kill()
        shutil.rmtree(work, ignore_errors=True)

    report(rounds, chunk, replies, local, remote)
    return 0


def report(rounds: int, chunk: int, replies: list, local: list, remote: list) -> None:
    print(f"satellite microphone chunks of {chunk} samples")
    print(f"{len(replies)} replies per path ({rounds} rounds x {len(VOICES)} voices x {len(REPLIES)})")
    for name, rows in (("local", local), ("satellite", remote)):
        print(f"{name:10s} end of speech -> endpointed: {percentiles([r[0] for r in rows])}")
        print(
            f"{name:10s} end of speech -> intent:     {percentiles([r[1] for r in rows])}"
            f"  understood {sum(r[2] for r in rows)}/{len(rows)} endpointed of {len(replies)}"
        )
    print("the satellite path minus the local one, the same reply paired (replies endpointed on both paths):")
    for label, i in (("endpointed", 0), ("intent", 1)):
        both = len(local) == len(remote) == len(replies)
        paired = [there[i] - here[i] for here, there in zip(local, remote)] if both else []
        if paired:
            print(f"  to {label:10s}: {percentiles(paired)}")
    for label, i in (("endpointed", 0), ("intent", 1)):
        ep_l, ep_r = np.array([r[i] for r in local]), np.array([r[i] for r in remote])
        p50 = 1000 * (np.percentile(ep_r, 50) - np.percentile(ep_l, 50))
        p95 = 1000 * (np.percentile(ep_r, 95) - np.percentile(ep_l, 95))
        print(f"satellite overhead to {label:10s}: p50 {p50:+.0f} ms  p95 {p95:+.0f} ms")
