"""How fast the Piper voice starts talking: time to first audio, real-time factor, memory.

Sentences are typical host lines from the five games. "cold" clears the piece cache
before each line (every line is new to the voice); "game" keeps it, as in a real game
where names and stock phrases recur; "mouth" is cold, from AudioMouth.say to the
sink (with its worker thread). Timings are wall clock on a machine that other
processes may be loading, so the load average is printed with them.

    partyhost bench tts [--repeat 2] [--threads 1]
"""

from __future__ import annotations

import os
import resource
import time

import numpy as np

from voice.speaking.mouth import AudioMouth
from voice.speaking.tts import PiperTTS

LINES = [
    "Ana, where does it go? Line one: 20, 50. Line two: 35, 95.",
    "Ben, between 35 and 95 on line two: lower, right or higher?",
    "Cy, above 50 on line one: lower or right?",
    "Ana, you're the Slider. Pick one of your 6 cards by number or by a word from it.",
    "What percent of Earth's atmosphere is nitrogen?",
    "78! Right spot! The card stays on line one.",
    "Wrong spot: it belonged lower. The card is discarded.",
    "Ana 20, Ben 10 and Cy 0.",
    "Team Ana, which question is closest to 50? Add power cards if you like.",
    "Team Ben plays card 1, with minus 50 and Spot On.",
    "The answer is 60. Plus 20 makes 80. That's 30 away from 50.",
    "Furthest: Team Cy, 41 away. Its card, 9, is the new target.",
    "Round 2. The target is 9.",
    "Ana, do you swap a card? Say its number, 1 to 4, or no.",
    "Ana starts. Keep cool!",
    "Careful, Cy: that word shares a root with one of your own. Say another.",
    "Round 1. Order of play: Ana, Ben and Cy.",
    "Welcome to 1%, Ana, Ben and Cy. Bluff well, and may your dice show zeros.",
    "Ben, Ana bids 2 sharks. Raise it, or say that's false.",
    "Cy says that's false! Ben bid 7 lightning.",
    "Ana, Cy says 3 clovers from Ben is false. Do you agree with the bid, or disagree?",
    "4 comets in all: the bid was false! Cy is out of play.",
    "Cy, 3 rewards to choose. On offer: 5, draw two and 7. Roll the dice or take a card.",
    "Ben: 4 and 5.",
    "One winning die, the 6 misses. A reroll card could save it.",
    "Queen of hearts, 36. Count 88.",
    "10 of diamonds, 20. Count 93. 7 to 100!",
    "Ana, Ben made 130. Lay a joker on it to take the deal, or say pass.",
    "Ana makes 110! 6 cards minus 1: 5 points. Score: Ana 21, Ben 18.",
    "Sorry, I didn't catch that. You can say, for example: card 1, the pizza one, or read my cards.",
]


def measure(tts: PiperTTS, lines: list[str], cold: bool) -> tuple[list[float], list[float], float, float]:
    """First-audio wall and CPU times (ms), total synthesis seconds, total audio seconds.

    CPU time (all threads of this process) shows the work itself when other
    processes make wall-clock times noisy.
    """
    firsts, cpus, work, audio = [], [], 0.0, 0.0
    for line in lines:
        if cold:
            tts.clear_cache()
        started, cpu_started = time.perf_counter(), time.process_time()
        first = cpu = None
        for piece in tts.synthesize(line):
            if first is None:
                first, cpu = time.perf_counter() - started, time.process_time() - cpu_started
            audio += len(piece) / tts.sample_rate
        work += time.perf_counter() - started
        firsts.append(1000 * (first or 0.0))
        cpus.append(1000 * (cpu or 0.0))
    return firsts, cpus, work, audio


class FirstPlayTimer:
    """A sink that notes when the first piece of each text arrives (what a player hears)."""

    def __init__(self) -> None:
        self.first: float | None = None

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        if self.first is None:
            self.first = time.perf_counter()
        return at + len(audio) / rate


def through_mouth(tts: PiperTTS, lines: list[str]) -> list[float]:
    """First-audio times (ms) from AudioMouth.say to the sink, cache cleared (cold)."""
    sink = FirstPlayTimer()
    mouth = AudioMouth(tts, sink, clock=lambda: 0.0, volume=1.0)
    firsts: list[float] = []
    for line in lines:
        tts.clear_cache()
        sink.first = None
        started = time.perf_counter()
        mouth.say(line)
        assert sink.first is not None  # say() hands every piece to the sink before it returns
        firsts.append(1000 * (sink.first - started))
    mouth.close()
    return firsts


def command(repeat: int, threads: int) -> int:
    """`partyhost bench tts`: the figures in one key=value line."""
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    tts = PiperTTS(threads=threads or None)
    load_s = time.perf_counter() - started

    cold: list[float] = []
    cold_cpu: list[float] = []
    work, audio = 0.0, 0.0
    for _ in range(repeat):
        firsts, cpus, w, a = measure(tts, LINES, cold=True)
        cold, cold_cpu = cold + firsts, cold_cpu + cpus
        work, audio = work + w, audio + a
    tts.clear_cache()
    game: list[float] = []
    for _ in range(repeat):
        game += measure(tts, LINES, cold=False)[0]
    mouth = through_mouth(tts, LINES)
    load_after = os.getloadavg()[0]
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    p = lambda values, q: float(np.percentile(values, q))  # noqa: E731
    print(
        f"tts_first_audio_p50_ms={p(cold, 50):.0f} p95_ms={p(cold, 95):.0f} "
        f"cpu_p50_ms={p(cold_cpu, 50):.0f} cpu_p95_ms={p(cold_cpu, 95):.0f} "
        f"game_p50_ms={p(game, 50):.0f} game_p95_ms={p(game, 95):.0f} "
        f"mouth_p50_ms={p(mouth, 50):.0f} mouth_p95_ms={p(mouth, 95):.0f} "
        f"rtf={work / audio:.3f} load_s={load_s:.2f} peak_rss_mb={rss_mb:.0f} "
        f"loadavg={load_before:.2f}->{load_after:.2f} cores={os.cpu_count()} "
        f"threads={threads or 'per-core'} lines={len(LINES)}x{repeat}"
    )
    return 0
