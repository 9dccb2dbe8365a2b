#!/usr/bin/env python3
"""How long `partyhost serve` takes to answer, as Home Assistant's conversation agent sees it.

    scripts/bench_serve.py [--rounds 100]

Starts the real service on 127.0.0.1 (a fresh data folder), starts Keep It 100 for two
by voice commands as Home Assistant sends them (one connection per Transcript), then
times, from connecting to the whole answer read:
- Describe -> Info (Home Assistant gives up after 1 s when adding or reloading it);
- "score", a command that plays nothing;
- a move and its undo, each journaled (a card picked, then taken back).
Prints p50 / p95 / max in milliseconds per kind, for docs/smart-speaker.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wyoming.asr import Transcript
from wyoming.client import AsyncTcpClient
from wyoming.event import Event
from wyoming.info import Describe

ROOT = Path(__file__).resolve().parent.parent


async def timed(port: int, event: Event) -> tuple[float, Event]:
    began = time.perf_counter()
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(event)
        answer = await client.read_event()
    return (time.perf_counter() - began) * 1000, answer


def percentiles(values: list[float]) -> str:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {cuts[49]:6.1f}  p95 {cuts[94]:6.1f}  max {max(values):6.1f} ms  (n={len(values)})"


async def measure(port: int, rounds: int) -> dict[str, list[float]]:
    say = lambda text: timed(port, Transcript(text).event())  # noqa: E731
    await say("let's play keep it 100")
    _, started = await say("two")
    assert "pick a card" in started.data["text"], started.data
    times: dict[str, list[float]] = {"describe": [], "score": [], "move": [], "undo": []}
    for _ in range(rounds):
        times["describe"].append((await timed(port, Describe().event()))[0])
        times["score"].append((await say("score"))[0])
        took, answer = await say("card three")
        assert "where does it go" in answer.data["text"], answer.data
        times["move"].append(took)
        took, answer = await say("undo")
        assert "Undone" in answer.data["text"], answer.data
        times["undo"].append(took)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PARTYHOST_DATA_DIR": data, "PARTYHOST_CONFIG": os.devnull}
        service = subprocess.Popen(
            [sys.executable, "-m", "partyhost", "serve", "--bind", "127.0.0.1", "--port", "0", "--no-zeroconf"],
            cwd=ROOT,
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        try:
            port = None
            for line in service.stdout:
                if "serving games on 127.0.0.1:" in line:
                    port = int(line.split("127.0.0.1:")[1].split()[0])
                    break
            if port is None:
                print("the service did not start", file=sys.stderr)
                return 1
            drain = subprocess.Popen(["cat"], stdin=service.stdout, stdout=subprocess.DEVNULL)
            times = asyncio.run(measure(port, args.rounds))
        finally:
            service.send_signal(signal.SIGTERM)
            service.wait(30)
        drain.wait(5)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    print(f"partyhost serve on 127.0.0.1, {args.rounds} rounds, commit {commit}, {os.cpu_count()} cores")
    for kind, values in times.items():
        print(f"{kind:>9}: {percentiles(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
