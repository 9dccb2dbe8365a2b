"""End of speech to intent through a Wyoming ASR server against the local recogniser.

Starts the real wyoming-faster-whisper (PyPI) on 127.0.0.1 with the shipped tiny.en,
or uses --server wyoming://HOST:PORT, and reads the same committed recordings through
both, interleaved (one remote, one local, per item), with the ears' own reading
path (partyhost.bench.manifest.Listener: read_checked and the matcher). Reports p50 and p95
of each, the accuracy of each, and the link's own overhead per request: the
round trip seen by the host minus the time the server itself spent (its debug log,
"Completed request in ..."), which is what the protocol and the connection add.

    python scripts/measure_remote_asr.py [--every 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from host.reply_policy import acts  # noqa: E402
from partyhost.bench.manifest import (  # noqa: E402 (after the path above)
    Listener,
    expected_matches,
    is_negative,
    manifest_lines,
    percentile,
    prompt_name,
)  # noqa: E402
from voice.listening.audio_in import read_wav_16k  # noqa: E402
from voice.listening.pipeline import Reader  # noqa: E402
from voice.recognizers import make_recognizer  # noqa: E402
from voice.remote import asr as remote_asr  # noqa: E402
from voice.understanding.matcher import Matcher  # noqa: E402

COMPLETED = re.compile(r"Completed request in ([0-9.e-]+) second")


def timed_transcribe(rounds: list[float]):
    """remote_asr.transcribe, noting each round trip (seconds) in `rounds`."""
    inner = remote_asr.transcribe

    def transcribe(*args, **kwargs):
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            rounds.append(time.perf_counter() - started)

    return transcribe


def measure(server: str, manifest: Path, every: int, log: Path | None) -> dict:
    recognizer = make_recognizer(server)
    if not recognizer.check():
        raise SystemExit(f"{server} does not answer as a speech recogniser")
    matcher = Matcher()
    remote, local = (
        Listener(Reader(recognizer, acts=acts), matcher),
        Listener(Reader(recognizer.local(), acts=acts), matcher),
    )
    rounds: list[float] = []
    remote_asr.transcribe = timed_transcribe(rounds)
    items = []
    for number, line in enumerate(manifest_lines(manifest)):
        if number % every:
            continue
        audio = read_wav_16k(manifest.parent / line["wav"])
        name, context = prompt_name(line), line.get("context") or {}
        row = {"id": line["id"]}
        for label, listener in (("remote", remote), ("local", local)):
            got = listener.understand(name, context, audio)
            row[f"{label}_ms"] = round(got.ms, 1)
            row[f"{label}_correct"] = expected_matches(line["expect"], got.intent) or (
                is_negative(line) and got.intent is None
            )
            row[f"{label}_text"] = got.text
            if listener is remote:
                row["fell_back"] = recognizer._last_local
        items.append(row)
    # An item the server failed (timeout) was read by the fallback: kept out of both sides' figures.
    kept = [i for i in items if not i["fell_back"]]
    result = {"n": len(kept), "fell_back": len(items) - len(kept), "items": items}
    for label in ("remote", "local"):
        times = [i[f"{label}_ms"] for i in kept if i[f"{label}_ms"] > 0]
        result[label] = {
            "p50_ms": round(percentile(times, 50)),
            "p95_ms": round(percentile(times, 95)),
            "accuracy": round(sum(i[f"{label}_correct"] for i in kept) / max(1, len(kept)), 3),
        }
    if log is not None:
        served = [float(s) for s in COMPLETED.findall(log.read_text())]
        if len(served) == len(rounds) and not result["fell_back"]:
            overhead = [(r - s) * 1000 for r, s in zip(rounds, served)]
            result["link_overhead"] = {
                "p50_ms": round(percentile(overhead, 50), 1),
                "p95_ms": round(percentile(overhead, 95), 1),
                "n": len(overhead),
            }
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="wyoming://HOST:PORT (default: start wyoming-faster-whisper here)")
    parser.add_argument("--manifest", type=Path, default=ROOT / "tests" / "fixtures" / "voice" / "manifest.jsonl")
    parser.add_argument("--every", type=int, default=1, help="take every n-th recording (default: all)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.server:
        result = measure(args.server, args.manifest, args.every, None)
    else:
        from wyoming_servers import asr_command, free_port, running

        port = free_port()
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "server.log"
            with running(asr_command(port, Path(folder)) + ["--debug"], port, log):
                result = measure(f"wyoming://127.0.0.1:{port}", args.manifest, args.every, log)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "items"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
