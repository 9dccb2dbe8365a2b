"""The write-ahead log check beside a live writer: never a false alarm, no copies (issue 46, item 1).

`partyhost sessions --check` run while a game is being played once reported "lost their
latest changes" (12 of 743 runs) and left copies of the log behind: it read the -shm
index of the live process while that process restarted its log. The check now reads
only while no other process has the database open (host/wal_check.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from host import wal_check
from host.journal import Journal

REPO = Path(__file__).resolve().parents[1]

WRITER = """
import sys
from pathlib import Path
from host.journal import Journal
journal = Journal(Path(sys.argv[1]))
journal.db.execute("PRAGMA wal_autocheckpoint=0")
game = journal.create("centurion", {})
for n in range(11):
    journal.append(game, "action", {"intent": "pass", "n": n}, float(n))
print("ready", flush=True)
for line in sys.stdin:                   # "restart": checkpoint, then write into a new log
    journal.db.execute("PRAGMA wal_checkpoint(RESTART)")
    journal.append(game, "action", {"intent": "pass", "n": 99}, 99.0)
    print("done", flush=True)
"""


def _moves(journal: Journal) -> int:
    return len(journal.accepted_actions(journal.sessions()[0].id))


def test_a_log_restarted_by_a_live_writer_while_the_check_reads_is_no_loss(tmp_path: Path, monkeypatch):
    """The race the probe hit, made certain: the writer restarts its log between the check's
    reading of the index and of the log."""
    db = tmp_path / "partyhost.sqlite3"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "ready"
        assert wal_check.read_index(db) is not None and wal_check.read_index(db).pending > 0
        real_salt = wal_check.wal_salt

        def restarted_meanwhile(wal: Path) -> bytes | None:
            writer.stdin.write("restart\n")
            writer.stdin.flush()
            assert writer.stdout.readline().strip() == "done"
            return real_salt(wal)

        monkeypatch.setattr(wal_check, "wal_salt", restarted_meanwhile)
        journal = Journal(db)
        assert journal.notice is None
        assert _moves(journal) >= 11  # 12 when the restart ran meanwhile
        journal.close()
    finally:
        writer.stdin.close()
        writer.wait(timeout=30)
    assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name] == []


def test_with_no_other_process_the_dead_man_s_switch_is_free_and_held_for_the_read(tmp_path: Path):
    db = tmp_path / "partyhost.sqlite3"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    assert writer.stdout is not None and writer.stdin is not None
    assert writer.stdout.readline().strip() == "ready"
    with wal_check.alone(db) as unused:
        assert not unused, "a live connection holds the switch"
    writer.kill()  # its locks die with it, its -shm stays
    writer.wait(timeout=30)
    with wal_check.alone(db) as unused:
        assert unused
        probe = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=10);"
                "print(c.execute('SELECT count(*) FROM actions').fetchone()[0])",
                str(db),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(0.5)
        assert probe.poll() is None, "no other process opens it while the index is read: it waits"
    assert probe.communicate(timeout=30)[0].strip() == "11"  # and reads it once the check is done
    journal = Journal(db)
    assert journal.notice is None and _moves(journal) == 11


MIN_CHECKS, MIN_GAMES = 10, 2
"""The checks, and the games beside them, that a run makes however long they take: a loaded
machine is slower, and a run bounded by time alone made 6 checks in its 20 s at load 26."""
GIVE_UP_S = 600.0


def _stress(tmp_path: Path, checks: int, seconds: float) -> tuple[int, int, list[str]]:
    """`partyhost sessions --check` in a loop beside typed games played back to back, each
    move saved (and the log checkpointed and restarted as SQLite does) as fast as the
    machine goes: `checks` checks or `seconds`, whichever comes first, and on past them
    until MIN_CHECKS beside MIN_GAMES. Returns the checks run, the games played, and every
    false alarm."""
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    script = (REPO / "lab" / "scripted_games" / "one-percent-basic-host.txt").read_text()
    game = [
        "play",
        "one-percent",
        "--players",
        "Ana,Ben,Cy",
        "--seed",
        "26",
        "--deal",
        "host",
        "--input",
        "text",
        "--output",
        "text",
    ]
    partyhost = [sys.executable, "-m", "partyhost"]
    subprocess.run([*partyhost, *game], input=script, env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    alarms: list[str] = []
    games = runs = 0
    started = time.monotonic()
    player = None
    try:
        while (runs < checks and time.monotonic() < started + seconds) or runs < MIN_CHECKS or games < MIN_GAMES:
            if time.monotonic() > started + GIVE_UP_S:
                break
            if player is None or player.poll() is not None:
                player = subprocess.Popen(
                    [*partyhost, *game],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env=env,
                    cwd=REPO,
                    text=True,
                )
                assert player.stdin is not None
                player.stdin.write(script)
                player.stdin.close()
                games += 1
            check = subprocess.run(
                [*partyhost, "sessions", "--check"], env=env, cwd=REPO, capture_output=True, text=True, timeout=120
            )
            runs += 1
            if check.returncode != 0 or check.stderr:
                alarms.append(f"rc {check.returncode}: {check.stderr.strip()}")
    finally:
        if player is not None:
            player.wait(timeout=120)
    copies = [p.name for p in (tmp_path / "data").iterdir() if ".damaged-" in p.name]
    return runs, games, alarms + [f"a copy left: {name}" for name in copies]


def test_sessions_check_beside_a_fast_live_game_never_raises_a_false_alarm(tmp_path: Path):
    """Bounded for CI (about 20 s, longer on a loaded machine until MIN_CHECKS); the 1,000-run
    version is STRESS_CHECKS=1000 (docs/robustness.md)."""
    runs, games, alarms = _stress(
        tmp_path,
        checks=int(os.environ.get("STRESS_CHECKS", "60")),
        seconds=float(os.environ.get("STRESS_SECONDS", "20")),
    )
    print(f"{runs} checks beside {games} games: {len(alarms)} false alarms")
    assert runs >= MIN_CHECKS and games >= MIN_GAMES
    assert alarms == []
