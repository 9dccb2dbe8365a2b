"""One process, two journals on one file, another process reading: nothing committed is lost.

The cause of issue 29's lost moves, reproduced without the service: `partyhost serve`
opens a journal for each game while the last one is still alive, and opening used to
os.close() a descriptor of the database, which dropped every POSIX lock the process
held on it. Another process closing its connection then found the database unused,
checkpointed and deleted the -wal, and every later row went into the deleted file:
invisible to others, and gone at kill -9.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

HOLDER = """
import sys
from pathlib import Path
from host.journal import Journal
path = Path(sys.argv[1])
earlier = Journal(path)                 # the game before, not yet closed
journal = Journal(path)                 # the next game's
session = journal.create("centurion", {})
print(session, flush=True)
sys.stdin.readline()                    # meanwhile another process reads, and closes its connection
for n in range(5):
    journal.append(session, "action", {"intent": "pass", "n": n}, float(n))
print("saved", flush=True)
sys.stdin.readline()
"""


def count(path: Path, table: str) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        db.close()


def test_rows_saved_with_two_journals_open_survive_another_reader_and_kill_9(tmp_path):
    path = tmp_path / "partyhost.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], cwd=REPO, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        holder.stdout.readline()
        assert count(path, "sessions") == 1  # a reader opens and closes its connection
        assert Path(f"{path}-wal").exists()  # the holder's log is still the file's log
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "saved"
        assert count(path, "actions") == 5  # seen by another process at once
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
    finally:
        holder.kill()
    assert count(path, "actions") == 5  # and still there after kill -9
