"""A damaged journal: set aside or reported, never a traceback, and the other games still work.

Two real games are saved by the real command line (a Centurion game with moves, and
a second one). Then one kind of damage is done to a copy of the database at a time,
and `partyhost sessions`, `sessions --check` and `resume` are asked about it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from host.decks import load_decks
from host.journal import Journal
from partyhost.cli import main
from partyhost.saved import open_saved

REPO = Path(__file__).resolve().parents[1]
SCRIPT = (REPO / "lab" / "scripted_games" / "centurion-pvp-host.txt").read_text().splitlines()
CENTURION = [
    "play",
    "centurion",
    "--players",
    "Ana,Ben",
    "--seed",
    "7",
    "--mode",
    "pvp",
    "--deal",
    "host",
    "--rules",
    "jokers=2",
    "--rules",
    "joker_at_multiple=true",
    "--input",
    "text",
    "--output",
    "text",
]
KEEP_IT_100 = ["play", "keep-it-100", "--players", "Cy,Dee,Eve", "--seed", "3", "--input", "text", "--output", "text"]


def cli(args, data: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """A data folder holding a Centurion game with moves (damaged below) and another game (kept)."""
    data = tmp_path_factory.mktemp("saved")
    assert cli(CENTURION, data, "\n".join(SCRIPT[:6]) + "\n").returncode == 0
    assert cli(KEEP_IT_100, data, "score\n").returncode == 0
    return data


def ids(db: Path) -> tuple[str, str]:
    journal = Journal(db)
    by_game = {r.game: r.id for r in journal.sessions()}
    journal.close()
    return by_game["centurion"], by_game["keep-it-100"]


def sql(db: Path, statement: str, *params) -> None:
    con = sqlite3.connect(db)
    con.execute(statement, params)
    con.commit()
    con.close()


def overwrite(db: Path, at: int, data: bytes) -> None:
    with open(db, "r+b") as f:
        f.seek(at)
        f.write(data)


def truncate(db: Path, _damaged: str) -> None:
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size // 2 + 100)


ROW_DAMAGE = {
    "bad JSON in a move": lambda db, s: sql(
        db, "UPDATE actions SET action = '{\"intent\": ' WHERE session_id = ? AND seq = 2", s
    ),
    "a move that is not one": lambda db, s: sql(
        db, "UPDATE actions SET action = '[1, 2]' WHERE session_id = ? AND seq = 2", s
    ),
    "an empty move": lambda db, s: sql(db, "UPDATE actions SET action = NULL WHERE session_id = ? AND seq = 1", s),
    "an unknown kind of record": lambda db, s: sql(
        db, "UPDATE actions SET kind = 'redo' WHERE session_id = ? AND seq = 1", s
    ),
    "an illegal move": lambda db, s: sql(
        db,
        'UPDATE actions SET action = \'{"intent": "play_card", "rank": 4, "suit": "diamonds", '
        '"player": "Ben"}\' WHERE session_id = ? AND seq = 1',
        s,
    ),
    "an unknown game": lambda db, s: sql(db, "UPDATE sessions SET game = 'chess' WHERE id = ?", s),
    "a setup that is not JSON": lambda db, s: sql(db, "UPDATE sessions SET setup = 'garbage{' WHERE id = ?", s),
    "a setup without options": lambda db, s: sql(db, "UPDATE sessions SET setup = '{\"options\": 5}' WHERE id = ?", s),
    "bytes that are not UTF-8 in a setup": lambda db, s: sql(
        db, "UPDATE sessions SET setup = CAST(X'7b22ff22fe3a' AS TEXT) WHERE id = ?", s
    ),
    "a damaged copy of a deck": lambda db, s: sql(
        db,
        "UPDATE input_copies SET content = X'00' WHERE sha256 IN (SELECT sha256 FROM inputs WHERE session_id = ?)",
        s,
    ),
}
FILE_DAMAGE = {
    "a truncated file": truncate,
    "a garbage header": lambda db, s: overwrite(db, 0, b"this is not SQLite at all" * 4),
    "flipped bytes in its pages": lambda db, s: overwrite(db, 4096, bytes(range(256)) * 8),
    "a dropped actions table": lambda db, s: sql(db, "DROP TABLE actions"),
    "a dropped sessions table": lambda db, s: sql(db, "DROP TABLE sessions"),
}


def damaged_copy(saved: Path, tmp_path: Path, damage, kind: str):
    data = tmp_path / "data"
    shutil.copytree(saved, data, ignore=shutil.ignore_patterns("locks"))
    db = data / "partyhost.sqlite3"
    broken, kept = ids(db)
    damage(db, broken)
    return data, db, broken, kept


def run(args, data, monkeypatch, capsys):
    monkeypatch.setenv("PARTYHOST_DATA_DIR", str(data))
    monkeypatch.setenv("PARTYHOST_CONFIG", os.devnull)
    code = main(args)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


@pytest.mark.parametrize("kind", ROW_DAMAGE)
def test_a_damaged_game_is_reported_and_the_others_still_work(saved, tmp_path, kind, monkeypatch, capsys):
    data, db, broken, kept = damaged_copy(saved, tmp_path, ROW_DAMAGE[kind], kind)

    code, out, _ = run(["sessions"], data, monkeypatch, capsys)
    assert code == 0 and kept in out
    code, out, _ = run(["sessions", "--check"], data, monkeypatch, capsys)
    assert code == 1
    line = next(row for row in out.splitlines() if row.startswith(broken))
    assert "unresumable:" in line
    assert next(row for row in out.splitlines() if row.startswith(kept)).split()[2] == "playing"

    code, _, err = run(["resume", broken], data, monkeypatch, capsys)
    assert code == 2 and f"game {broken} cannot be resumed" in err

    journal = Journal(db)
    saved_game = open_saved(journal, journal.get(kept))  # what resume does before it listens
    assert saved_game.record.id == kept and journal.notice is None


@pytest.mark.parametrize("kind", FILE_DAMAGE)
def test_a_damaged_database_is_set_aside_named_and_replaced(saved, tmp_path, kind, monkeypatch, capsys):
    data, db, _, _ = damaged_copy(saved, tmp_path, FILE_DAMAGE[kind], kind)
    before = db.read_bytes()

    code, out, err = run(["sessions"], data, monkeypatch, capsys)
    assert code == 0
    assert "damaged" in err and "is kept as partyhost.sqlite3.damaged-" in err and "new one is started" in err
    kept = [
        p
        for p in data.iterdir()
        if p.name.startswith("partyhost.sqlite3.damaged-") and not p.name.endswith(("-wal", "-shm"))
    ]
    assert len(kept) == 1 and kept[0].read_bytes() == before  # kept as it was, for a rescue
    assert (db.stat().st_mode & 0o777) == 0o600

    code, out, err = run(["sessions", "--check"], data, monkeypatch, capsys)  # the new one works
    assert code == 0 and "No saved games yet" in out and err == ""


def test_a_missing_table_is_an_error_not_a_fresh_start(saved, tmp_path, monkeypatch, capsys):
    data, db, broken, _ = damaged_copy(saved, tmp_path, FILE_DAMAGE["a dropped actions table"], "")
    code, _, err = run(["resume", broken], data, monkeypatch, capsys)
    assert code == 2
    assert "actions table is missing" in err and f"no saved game {broken!r}" in err


def test_a_changed_deck_is_replaced_by_the_copy_saved_with_the_game(tmp_path):
    deck = tmp_path / "cards.yaml"
    shutil.copy(REPO / "decks" / "cards.yaml", deck)
    data = tmp_path / "data"
    assert cli([*CENTURION, "--card-deck", str(deck)], data, "\n".join(SCRIPT[:4]) + "\n").returncode == 0
    original = load_decks([], [], pack=deck).pack
    deck.write_text(
        deck.read_text().replace("{name: spades, value: 4}", "{name: spades, value: 5}")
    )  # spades count more
    assert load_decks([], [], pack=deck).pack != original

    again = cli(["resume"], data, "score\n")
    assert again.returncode == 0, again.stderr
    assert f"{deck} changed since this game began; it goes on with the copy saved when it began" in again.stderr
    journal = Journal(data / "partyhost.sqlite3")
    assert open_saved(journal, journal.sessions()[0]).decks.pack == original


def test_a_deck_used_by_many_games_is_kept_once(tmp_path):
    deck = tmp_path / "cards.yaml"
    shutil.copy(REPO / "decks" / "cards.yaml", deck)
    journal = Journal(tmp_path / "j.sqlite3")
    games = [journal.create("centurion", {}) for _ in range(3)]
    for game in games:
        journal.pin_inputs(game, [deck])

    def count() -> int:
        return journal.db.execute("SELECT COUNT(*) FROM input_copies").fetchone()[0]

    assert count() == 1 and journal.pinned_inputs(games[0]) == journal.pinned_inputs(games[2])
    for game in games[:2]:
        journal.delete(game)
    assert count() == 1 and str(deck) in journal.pinned_inputs(games[2])
    journal.delete(games[2])
    assert count() == 0


def test_a_default_rule_changed_by_an_update_is_put_back_for_a_saved_game(saved, tmp_path, monkeypatch):
    from host.games import centurion

    data, db, game_id, _ = damaged_copy(saved, tmp_path, lambda db, s: None, "")
    journal = Journal(db)
    before = open_saved(journal, journal.get(game_id))
    assert before.notes == [] and "target" not in before.options.rules
    monkeypatch.setitem(centurion.RULE_DEFAULTS, "target", 50)  # an update changes a default
    after = open_saved(journal, journal.get(game_id))
    assert after.options.rules["target"] == 21
    assert after.notes == [
        "the default rules changed since this game began (target); it goes on with the ones it began with"
    ]


# ---- the write-ahead log after a crash, and an emptied file (issue 29) ---------------

CRASHING = """
import os, signal, sys
from pathlib import Path
from host.journal import Journal
journal = Journal(Path(sys.argv[1]))
game = journal.create("centurion", {})
journal.db.execute("PRAGMA wal_checkpoint")     # the game began long ago: in the database file
for n in range(29):
    journal.append(game, "action", {"intent": "pass", "n": n}, float(n))
os.kill(os.getpid(), signal.SIGKILL)     # no checkpoint: the 29 moves are in the -wal only
"""


def crashed_journal(tmp_path: Path) -> Path:
    """A data folder whose journal's process was killed with 29 moves in its write-ahead log."""
    data = tmp_path / "data"
    data.mkdir()
    db = data / "partyhost.sqlite3"
    done = subprocess.run([sys.executable, "-c", CRASHING, str(db)], cwd=REPO, timeout=60)
    assert done.returncode == -9 and Path(f"{db}-wal").stat().st_size > 29 * 4096
    return data


def random_bytes_in_the_log(wal: Path) -> None:
    import random

    chance = random.Random(29)
    overwrite(wal, chance.randrange(32 + 4120, wal.stat().st_size // 2), chance.randbytes(200))


WAL_DAMAGE = {
    "a deleted -wal": (lambda wal: wal.unlink(), "is missing"),
    "200 random bytes in the -wal": (random_bytes_in_the_log, "is damaged"),
    "a -wal cut in half": (lambda wal: os.truncate(wal, wal.stat().st_size // 2), "was cut short"),
}


@pytest.mark.parametrize("kind", WAL_DAMAGE)
def test_moves_lost_with_the_write_ahead_log_are_named_not_silent(tmp_path, kind, monkeypatch, capsys):
    data = crashed_journal(tmp_path)
    damage, found = WAL_DAMAGE[kind]
    wal = data / "partyhost.sqlite3-wal"
    damage(wal)
    found_as = wal.read_bytes() if wal.exists() else None
    code, out, err = run(["sessions"], data, monkeypatch, capsys)
    assert code == 0
    [line] = err.splitlines()
    assert "lost their latest changes" in line and f"write-ahead log partyhost.sqlite3-wal {found}" in line
    assert "may be missing its last moves" in line and "pages saved since the last checkpoint are gone" in line
    journal = Journal(data / "partyhost.sqlite3")
    assert len(journal.accepted_actions(journal.sessions()[0].id)) < 29  # really lost, and now said so
    kept = [p.read_bytes() for p in data.iterdir() if ".damaged-" in p.name]
    assert kept == ([found_as] if found_as is not None else [])  # the log as found, for a rescue
    code, _, err = run(["sessions"], data, monkeypatch, capsys)  # said once, when it was found
    assert err == ""


KILLED_AT_THE_END = """
import io, os, signal, sys
from partyhost.cli import main

class KilledWhenDone(io.StringIO):
    def readline(self, size=-1):
        line = super().readline(size)
        if not line:  # every line played: killed while waiting for the next one
            os.kill(os.getpid(), signal.SIGKILL)
        return line

sys.stdin = KilledWhenDone(sys.argv[1])
main(sys.argv[2:])
"""


@pytest.fixture(scope="module")
def fresh_game_killed(tmp_path_factory) -> Path:
    """A data folder whose first game (Centurion, Ana and Ben, 40 typed lines) was killed: its
    tables and moves are all in the write-ahead log, none yet in the database file."""
    data = tmp_path_factory.mktemp("killed")
    lines = "\n".join(SCRIPT[:40]) + "\n"
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    done = subprocess.run([sys.executable, "-c", KILLED_AT_THE_END, lines, *CENTURION], cwd=REPO, env=env, timeout=120)
    assert done.returncode == -9
    assert (data / "partyhost.sqlite3").stat().st_size == 4096  # the first page only: an empty schema
    return data


def flip(wal: Path, at: int) -> None:
    with open(wal, "r+b") as log:
        log.seek(at)
        flipped = bytes(b ^ 0xFF for b in log.read(16))
        log.seek(at)
        log.write(flipped)


@pytest.mark.parametrize("at", [268, 2_062, 4_920, "mid-log"])
def test_a_log_damaged_in_its_first_pages_is_reported_as_mid_log_damage_is(
    fresh_game_killed, tmp_path, at, monkeypatch, capsys
):
    """Issue 58: with its first frame bad the log gives SQLite no table; the check once came
    after the tables were made anew, whose write started a new log that it took for a live
    process's, and `sessions --check` said "No saved games yet" and exit 0."""
    data = tmp_path / "data"
    shutil.copytree(fresh_game_killed, data)
    wal = data / "partyhost.sqlite3-wal"
    flip(wal, wal.stat().st_size // 2 if at == "mid-log" else at)
    found_as = wal.read_bytes()
    code, out, err = run(["sessions", "--check"], data, monkeypatch, capsys)
    assert code == 1
    [line] = err.splitlines()
    assert "lost their latest changes: its write-ahead log partyhost.sqlite3-wal is damaged" in line
    assert "pages saved since the last checkpoint are gone" in line
    kept = [p.read_bytes() for p in data.iterdir() if ".damaged-" in p.name]
    assert kept == [found_as]  # the log as found, for a rescue


def test_an_intact_log_after_a_crash_gives_every_move_and_no_notice(tmp_path, monkeypatch, capsys):
    data = crashed_journal(tmp_path)
    code, out, err = run(["sessions"], data, monkeypatch, capsys)
    assert code == 0 and err == ""
    journal = Journal(data / "partyhost.sqlite3")
    assert len(journal.accepted_actions(journal.sessions()[0].id)) == 29


def test_an_empty_journal_is_named_and_set_aside(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "partyhost.sqlite3"
    db.write_bytes(b"")
    os.utime(db, (1, 1))  # emptied long ago, not one being made right now
    code, out, err = run(["sessions"], data, monkeypatch, capsys)
    assert code == 0 and "No saved games yet." in out
    assert f"the saved games in {db} are damaged (the file is empty: 0 bytes)" in err
    assert "is kept as partyhost.sqlite3.damaged-" in err


def test_a_rule_added_since_a_game_began_plays_as_the_game_did_then():
    """Keep Cool's clued (2026-12-05): a game saved before it existed, whose pinned
    defaults lack it, resumes with per_player, the rule its moves were accepted under;
    one begun since keeps the new default."""
    from host.engine import GameOptions
    from host.games import keep_cool
    from partyhost.saved import _pinned_rules, rule_defaults

    options = GameOptions(players=("Ana", "Ben", "Cy"), rules={"face": "red"})
    old_pins = {key: value for key, value in rule_defaults(keep_cool.GAME).items() if key != "clued"}
    resumed, notes = _pinned_rules(keep_cool.GAME, options, old_pins)
    assert resumed.rules == {"face": "red", "clued": "per_player"}
    assert notes == ["the default rules changed since this game began (clued); it goes on with the ones it began with"]
    assert _pinned_rules(keep_cool.GAME, options, rule_defaults(keep_cool.GAME)) == (options, [])
    given = GameOptions(players=("Ana", "Ben", "Cy"), rules={"clued": "per_card"})
    assert _pinned_rules(keep_cool.GAME, given, old_pins) == (given, [])
