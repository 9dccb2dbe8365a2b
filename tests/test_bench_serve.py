"""`partyhost bench serve`: it makes the load, plays through the real service and reports;
what it measures is not asserted here (figures are for docs/home-assistant.md)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from partyhost.served_games import PLAY_AGAIN
from partyhost_lab.serve import SPIN
from partyhost_lab.serve_player import Player, examples_in

REPO = Path(__file__).resolve().parents[1]
LAST_LINE = re.compile(
    r"^requests=(\d+) p50_ms=[\d.]+ p95_ms=[\d.]+ max_ms=[\d.]+ over_2s=\d+ one_moment=\d+ "
    r"loadavg_1m_min=[\d.]+ loadavg_1m_max=[\d.]+ games=(\d+) finished=(\d+)$"
)


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(_command(args), cwd=REPO, env=_env(), capture_output=True, text=True, timeout=300)


def bench_watched(*args: str) -> tuple[subprocess.CompletedProcess, set[int]]:
    """`bench`, and the busy processes it started, seen while it ran (by id)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(_command(args), cwd=REPO, env=_env(), stdout=out, stderr=err, text=True)
        started: set[int] = set()
        deadline = time.monotonic() + 300
        while process.poll() is None and time.monotonic() < deadline:
            started |= spinners(parent=process.pid)
            time.sleep(0.05)
        code = process.wait(timeout=1)
        out.seek(0), err.seek(0)
        return subprocess.CompletedProcess(process.args, code, out.read(), err.read()), started


def _command(args: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "partyhost", "bench", "serve", *args]


def _env() -> dict[str, str]:
    return {**os.environ, "PARTYHOST_CONFIG": os.devnull}


def spinners(parent: int | None = None) -> set[int]:
    """Busy processes of a bench (of the one whose process is `parent`, when given), by id.
    Only its own: another bench on the machine (another worktree's tests) may spin meanwhile."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if not (entry.name.isdigit() and SPIN.encode() in (entry / "cmdline").read_bytes()):
                continue
            if parent is None or int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.add(int(entry.name))
        except (OSError, ValueError, IndexError):
            pass
    return found


def test_bench_serve_plays_under_load_reports_and_stops_what_it_started(tmp_path):
    out = tmp_path / "serve.json"
    run, started = bench_watched(
        "--load", "1", "--warmup", "0", "--games", "keep-it-100", "--max-requests", "20", "--json", str(out)
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[1].startswith("load: 1 busy processes") and "1-minute loadavg" in lines[2]
    match = LAST_LINE.match(lines[-1])
    assert match, run.stdout
    requests, games, finished = map(int, match.groups())
    assert (games, finished) == (1, 0)  # quit after 20 requests: a small run
    result = json.loads(out.read_text())
    said = [r["words"] for r in result["requests"]]
    assert requests == len(said) == 22 and said[-2:] == ["quit", "yes"]
    assert said[0] == "let's play keep it 100" and "skip" in said  # a busy host's "one moment" may come between
    assert any("Keep It 100!" in r["answer"] for r in result["requests"])
    assert {r["kind"] for r in result["requests"]} == {"menu", "move", "command"}
    assert len(started) == 1 and not started & spinners()  # its busy process ran, and is gone


def test_bench_serve_rounds_times_each_kind_of_request_on_an_idle_machine():
    """`--rounds` (what scripts/bench_serve.py measured): Describe, score, a move and its undo."""
    run = bench("--rounds", "2")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("partyhost serve on 127.0.0.1, 2 rounds, load 0"), run.stdout
    kinds = [line.split(":")[0].strip() for line in lines[1:]]
    assert kinds == ["describe", "score", "move", "undo"], run.stdout
    assert all(re.search(r"p50 +[\d.]+  p95 +[\d.]+  max +[\d.]+ ms  \(n=2\)$", line) for line in lines[1:]), run.stdout


def test_the_rounds_follow_a_busy_host_s_one_moment_to_its_answer(tmp_path, monkeypatch):
    """The game is started while another process holds the journal's write lock (as a busy
    machine makes a save late): the host answers "one moment", and the rounds say "repeat"
    until its answer, as a player does. They took the next answer for the next question's,
    and on a busy CI machine the game "did not start"."""
    from partyhost_lab import serve

    real_ask, held = serve.ask, []

    async def ask_while_the_journal_is_locked(port: int, text: str) -> tuple[float, str]:
        if text != "Ana and Ben":
            return await real_ask(port, text)
        other = sqlite3.connect(data / "partyhost.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the game's first save waits for it (5 s at most)
        try:
            took, answer = await real_ask(port, text)
        finally:
            other.execute("ROLLBACK")
            other.close()
        held.append(answer)
        return took, answer

    monkeypatch.setattr(serve, "ask", ask_while_the_journal_is_locked)
    data = tmp_path / "data"
    data.mkdir()
    with serve.service(data) as port:
        times = asyncio.run(serve.each_kind(port, 1))
    assert held and held[0].startswith("One moment")
    assert {kind: len(values) for kind, values in times.items()} == {"describe": 1, "score": 1, "move": 1, "undo": 1}


def test_bad_arguments_are_refused_in_one_line_and_nothing_starts():
    for args, reason in (
        (("--load", "-1"), "--load"),
        (("--games", "chess"), "no game called chess"),
        (("--max-requests", "0"), "--max-requests"),
        (("--rounds", "1"), "--rounds"),
    ):
        run = bench(*args)
        assert run.returncode == 2 and reason in run.stderr and len(run.stderr.strip().splitlines()) == 1, run


def test_the_table_reads_the_menu_and_the_hosts_examples():
    import random

    player = Player("one-percent", random.Random(1))
    assert player.first().text == "let's play one percent"
    assert player.next("1%. How many players? From 2 to 6.").text == "three"
    assert player.next("Who's playing? Say your names.").text == "skip"
    move = player.next('You can say, for example: "3 sharks" or "5 clovers". Player 3, you open the bidding.')
    assert (move.kind, move.text in ("3 sharks", "5 clovers")) == ("move", True)
    assert player.next("That takes back Player 3's last move. Player 3, do you agree? Yes or no?").text == "yes"
    assert player.next("Player 1, Player 3 bids 12 clovers. Raise it.").kind == "command"
    assert player.next("One moment, I'm still working on that.").text == "repeat"
    assert not player.ended
    player.next(f"Player One wins! {PLAY_AGAIN}")
    assert player.ended
    assert examples_in('Sorry. You can say, for example: "card 1" or "read our cards". Team 1, "x"?') == [
        "card 1",
        "read our cards",
    ]
