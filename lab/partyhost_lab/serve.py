"""`partyhost bench serve`: how long `partyhost serve` takes to answer a player, on a busy machine.

Home Assistant's conversation client waits for ever, so every request must be answered
within 2 s (issue 45). This starts `--load` busy processes (each a Python loop spinning on
one core: the 1-minute loadavg climbs towards that number), waits `--warmup` seconds so
the loadavg shows the load, then starts the real service on 127.0.0.1 with a fresh data
folder and plays whole games through it as Home Assistant sends them: one connection per
Transcript, timed from connecting to the whole answer read. The table is
lab/partyhost_lab/serve_player.py: menu, moves, and mid-game score, whose turn, repeat and
undo. Reports p50 / p95 / max, the answers over 2 s, the "one moment" answers, and the
loadavg seen (other programs on the machine add to it: the figure is then conservative).

With `--rounds N` it times each kind of request instead, on a machine left as it is (no
load unless `--load` is given): Keep It 100 for two started, then N rounds of Describe ->
Info (Home Assistant gives up after 1 s when adding or reloading the service), "score" (a
command that plays nothing), a move and its undo (each journaled: a card picked, then
taken back); p50 / p95 / max per kind, for docs/smart-speaker.md.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from wyoming.asr import Transcript
from wyoming.client import AsyncTcpClient
from wyoming.event import Event
from wyoming.info import Describe

from partyhost.bench.manifest import percentile
from partyhost_lab.serve_player import Player

BOUND_MS = 2000.0
"""Home Assistant's request must be answered within this (issue 45)."""
NO_ANSWER_S = 60.0
"""A request unanswered this long is counted as unanswered and the run stops."""
DEFAULT_GAMES = ("keep-it-100", "one-percent", "zero-to-100")
"""Games a voice assistant can play to the end without secrets or a clock."""
SPIN = "while True: pass"


@dataclass
class Timed:
    game: str
    kind: str
    words: str
    ms: float
    answer: str


@dataclass
class Played:
    game: str
    requests: int = 0
    finished: bool = False


@dataclass
class Run:
    load: int
    warmup_s: float
    loadavg_before: float
    loadavg: list[float] = field(default_factory=list)
    """The 1-minute loadavg after each request."""
    games: list[Played] = field(default_factory=list)
    requests: list[Timed] = field(default_factory=list)


@contextmanager
def busy_processes(count: int) -> Iterator[list[subprocess.Popen]]:
    """`count` processes each spinning one core, stopped (by their own ids) on the way out."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]
    try:
        yield spinners
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


@contextmanager
def service(data: Path) -> Iterator[int]:
    """The real `partyhost serve` on 127.0.0.1 (any free port, no zeroconf); yields its port."""
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    command = [sys.executable, "-m", "partyhost", "serve", "--bind", "127.0.0.1", "--port", "0", "--no-zeroconf"]
    process = subprocess.Popen(command, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        port = None
        for line in process.stdout:
            if "serving games on 127.0.0.1:" in line:
                port = int(line.split("127.0.0.1:")[1].split()[0])
                break
        if port is None:
            raise RuntimeError(f"partyhost serve did not start (exit {process.wait(10)})")
        threading.Thread(target=process.stdout.read, daemon=True).start()  # keep its terminal drained
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def exchange(port: int, event: Event) -> tuple[float, Event]:
    """Milliseconds from connecting to the whole answer, and the answer."""
    began = time.perf_counter()
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(event)
        answer = await asyncio.wait_for(client.read_event(), NO_ANSWER_S)
    took = (time.perf_counter() - began) * 1000
    if answer is None:
        raise RuntimeError(f"the service closed the connection without answering {event.data or event.type}")
    return took, answer


async def ask(port: int, text: str) -> tuple[float, str]:
    """Milliseconds from connecting to the whole answer, and the answer's text."""
    took, answer = await exchange(port, Transcript(text).event())
    return took, str(answer.data.get("text", ""))


async def heard(port: int, text: str) -> tuple[float, str]:
    """Milliseconds to the answer to `text`, and the host's answer itself: a busy host's
    "one moment" is followed by "repeat", as it asks, until that answer comes (the words
    were taken; its answer is the next request's: partyhost/answer_bound.py). The time is
    the first request's, what the player waited to hear something."""
    took, answer = await ask(port, text)
    while answer.startswith("One moment"):
        answer = (await ask(port, "repeat"))[1]
    return took, answer


async def play(port: int, run: Run, games: list[str], max_requests: int, rng: random.Random) -> None:
    """Each game from the menu to its end, or "quit" after `max_requests` requests."""
    for game in games:
        player, played = Player(game, rng), Played(game)
        run.games.append(played)
        words = player.first()
        while not player.ended:
            if played.requests >= max_requests:
                for text in ("quit", "yes"):
                    await _timed(port, run, game, "command", text)
                break
            answer = await _timed(port, run, game, words.kind, words.text)
            played.requests += 1
            words = player.next(answer)
        played.finished = player.ended


async def _timed(port: int, run: Run, game: str, kind: str, text: str) -> str:
    took, answer = await ask(port, text)
    run.requests.append(Timed(game, kind, text, round(took, 1), answer))
    run.loadavg.append(os.getloadavg()[0])
    return answer


def measure(load: int, games: list[str], warmup_s: float, max_requests: int, seed: int) -> Run:
    """Start the load, wait `warmup_s`, serve and play; everything started is stopped."""
    run = Run(load, warmup_s, os.getloadavg()[0])
    with busy_processes(load), tempfile.TemporaryDirectory(prefix="partyhost-bench-serve-") as data:
        time.sleep(warmup_s)
        with service(Path(data)) as port:
            asyncio.run(play(port, run, games, max_requests, random.Random(seed)))
    return run


def report(run: Run) -> str:
    """The figures as docs/home-assistant.md gives them, ending in one key=value line."""
    times = [r.ms for r in run.requests]
    over = [r for r in run.requests if r.ms > BOUND_MS]
    moments = sum(r.answer.startswith("One moment") for r in run.requests)
    finished = sum(g.finished for g in run.games)
    seen = run.loadavg or [run.loadavg_before]
    lines = [
        f"partyhost bench serve, {time.strftime('%Y-%m-%d')}, commit {_commit()}, {os.cpu_count()} cores",
        f"load: {run.load} busy processes (a Python loop each) started {run.warmup_s:g} s before the service",
        f"1-minute loadavg: {run.loadavg_before:.2f} before, {min(seen):.2f} to {max(seen):.2f} while playing",
        "games: "
        + ", ".join(f"{g.game} ({g.requests} requests, {'to the end' if g.finished else 'quit'})" for g in run.games),
    ]
    for kind in ("menu", "move", "command"):
        some = [r.ms for r in run.requests if r.kind == kind]
        if some:
            lines.append(f"{kind:>8}: {_cuts(some)}  (n={len(some)})")
    lines.append(f'     all: {_cuts(times)}  (n={len(times)}), over 2 s: {len(over)}, "one moment": {moments}')
    lines += [f"  over 2 s: {r.ms:.0f} ms {r.game} {r.words!r}" for r in over]
    lines.append(
        f"requests={len(times)} p50_ms={percentile(times, 50):.1f} p95_ms={percentile(times, 95):.1f} "
        f"max_ms={max(times, default=0):.1f} over_2s={len(over)} one_moment={moments} "
        f"loadavg_1m_min={min(seen):.2f} loadavg_1m_max={max(seen):.2f} games={len(run.games)} finished={finished}"
    )
    return "\n".join(lines)


def _cuts(values: list[float]) -> str:
    return f"p50 {percentile(values, 50):7.1f}  p95 {percentile(values, 95):7.1f}  max {max(values):7.1f} ms"


def _commit() -> str:
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True
        )
    except OSError:
        return "?"  # no git: an installed copy
    return found.stdout.strip() or "?"


async def each_kind(port: int, rounds: int) -> dict[str, list[float]]:
    """Keep It 100 for Ana and Ben started, then `rounds` of Describe, "score", a move and its undo."""
    for words in ("let's play keep it 100", "two"):
        await heard(port, words)
    started = (await heard(port, "Ana and Ben"))[1]
    if "pick a card" not in started:
        raise RuntimeError(f"Keep It 100 did not start: {started!r}")
    times: dict[str, list[float]] = {"describe": [], "score": [], "move": [], "undo": []}
    for _ in range(rounds):
        times["describe"].append((await exchange(port, Describe().event()))[0])
        times["score"].append((await heard(port, "score"))[0])
        for kind, words, answered in (("move", "card three", "where does it go"), ("undo", "undo", "Undone")):
            took, answer = await heard(port, words)
            if answered not in answer:
                raise RuntimeError(f"{words!r} was answered {answer!r}")
            times[kind].append(took)
    return times


def rounds_command(load: int, rounds: int) -> int:
    """`bench serve --rounds N`: each kind of request timed, printed per kind."""
    with busy_processes(load), tempfile.TemporaryDirectory(prefix="partyhost-bench-serve-") as data:
        with service(Path(data)) as port:
            times = asyncio.run(each_kind(port, rounds))
    print(f"partyhost serve on 127.0.0.1, {rounds} rounds, load {load}, commit {_commit()}, {os.cpu_count()} cores")
    for kind, values in times.items():
        cuts = statistics.quantiles(values, n=100, method="inclusive")
        print(f"{kind:>9}: p50 {cuts[49]:6.1f}  p95 {cuts[94]:6.1f}  max {max(values):6.1f} ms  (n={len(values)})")
    return 0


def command(load: int, games: list[str], warmup_s: float, max_requests: int, seed: int, json_path: Path | None) -> int:
    run = measure(load, games, warmup_s, max_requests, seed)
    print(report(run))
    if json_path is not None:
        json_path.write_text(json.dumps(asdict(run), indent=1))
    return 0
