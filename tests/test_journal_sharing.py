"""Two connections to the journal in one process (the phone pages' seat claims, a test reading
it while a game runs) must not cost the first one its SQLite locks: POSIX drops every lock a
process holds on a file when any of its descriptors for that file is closed. Another process
closing its connection then takes itself for the last one, checkpoints and deletes the WAL,
and the first connection goes on committing to a deleted file that no reader sees."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from host.journal import Journal

REPO = Path(__file__).resolve().parents[1]
READ = ("import sys; from host.journal import Journal; j = Journal(__import__('pathlib').Path(sys.argv[1])); "
        "print(len(j.accepted_actions(sys.argv[2]))); j.close()")


def actions_seen_by_another_process(path: Path, session: str) -> int:
    done = subprocess.run([sys.executable, "-c", READ, str(path), session], cwd=REPO, capture_output=True,
                          text=True, timeout=60, check=True)
    return int(done.stdout)


def test_a_second_connection_in_the_same_process_keeps_the_first_ones_commits_visible(tmp_path):
    path = tmp_path / "partyhost.sqlite3"
    game = Journal(path)
    session = game.create("keep-it-100", {"options": {}})
    game.append(session, "action", {"intent": "choose_card", "card": 1}, 1.0)
    second = Journal(path)              # e.g. a seat claimed on a phone page, on the server's thread
    second.close()
    assert actions_seen_by_another_process(path, session) == 1    # that reader closes as if it were the last
    game.append(session, "action", {"intent": "place", "after": 5, "before": 80}, 2.0)
    assert actions_seen_by_another_process(path, session) == 2
    game.close()
    assert actions_seen_by_another_process(path, session) == 2
