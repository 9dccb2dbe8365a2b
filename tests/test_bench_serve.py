"""`partyhost bench serve`: it makes the load, plays through the real service and reports;
what it measures is not asserted here (figures are for docs/home-assistant.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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
    env = {**os.environ, "PARTYHOST_CONFIG": os.devnull}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", "bench", "serve", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def spinners() -> set[int]:
    """Busy processes of any bench on this machine, by id."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and SPIN.encode() in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
        except OSError:
            pass
    return found


def test_bench_serve_plays_under_load_reports_and_stops_what_it_started(tmp_path):
    before = spinners()
    out = tmp_path / "serve.json"
    run = bench("--load", "1", "--warmup", "0", "--games", "keep-it-100", "--max-requests", "20", "--json", str(out))
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
    assert spinners() <= before  # its busy process is gone


def test_bench_serve_rounds_times_each_kind_of_request_on_an_idle_machine():
    """`--rounds` (what scripts/bench_serve.py measured): Describe, score, a move and its undo."""
    run = bench("--rounds", "2")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("partyhost serve on 127.0.0.1, 2 rounds, load 0"), run.stdout
    kinds = [line.split(":")[0].strip() for line in lines[1:]]
    assert kinds == ["describe", "score", "move", "undo"], run.stdout
    assert all(re.search(r"p50 +[\d.]+  p95 +[\d.]+  max +[\d.]+ ms  \(n=2\)$", line) for line in lines[1:]), run.stdout


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
