"""Where the host's memory goes: resident memory after each part is loaded and used.

Issue 43: a Keep Cool game peaked at 1126 MB, the others at about 434. This runs what
`partyhost bench latency` runs, in its order, in one process, and prints what each
part added to the resident set (now, and to the peak), so a cut is aimed at the part
that costs most. Memory figures hold on a busy machine; no time is reported.

    .venv/bin/python scripts/measure_memory.py [--moonshine-first]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def resident_mb() -> tuple[float, float]:
    """(now, peak) resident memory of this process in MB, from /proc (Linux)."""
    status = Path("/proc/self/status").read_text().splitlines()
    fields = dict(line.split(":", 1) for line in status if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class Steps:
    """Prints each step's growth of the resident set and of its peak."""

    def __init__(self) -> None:
        self.last = resident_mb()
        print(f"{'step':52} {'+now':>6} {'+peak':>6} {'now':>6} {'peak':>6}")
        print(f"{'python':52} {'':6} {'':6} {self.last[0]:6.0f} {self.last[1]:6.0f}")

    def note(self, step: str) -> None:
        now, peak = resident_mb()
        print(f"{step:52} {now - self.last[0]:6.0f} {peak - self.last[1]:6.0f} {now:6.0f} {peak:6.0f}", flush=True)
        self.last = (now, peak)


def main() -> int:
    moonshine_first = "--moonshine-first" in sys.argv
    steps = Steps()
    from partyhost.bench import manifest as bench
    from partyhost.config import load_settings

    steps.note("imports (numpy, onnxruntime, the bench)")
    settings = load_settings()  # $PARTYHOST_CONFIG: e.g. second_opinion = false
    listener = bench.make_listener(settings)
    steps.note("Whisper tiny.en (ctranslate2)")
    second = listener.reader.second
    if moonshine_first and second is not None:
        second.get()
        steps.note("Moonshine loaded (second listener)")
    rows = [Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "voice" / "manifest.jsonl"]
    first = bench.run_accuracy(
        rows[0], listener, progress=False, limit=1, only=lambda line: line.get("game") != "keep-cool"
    )
    steps.note(f"first reading ({len(first['items'])}: Silero, front end)")
    bench.run_accuracy(rows[0], listener, progress=False, only=lambda line: line.get("game") != "keep-cool")
    steps.note("the other four games (+ step decoder, onnxruntime)")
    if not moonshine_first and second is not None:
        second.get()
        steps.note("Moonshine loaded (second listener)")
    bench.run_accuracy(rows[0], listener, progress=False, only=lambda line: line.get("game") == "keep-cool")
    steps.note("Keep Cool's recordings (word check, Moonshine)")
    bench.tts_latency()
    steps.note("Piper voice, 16 sentences")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
