"""The session journal: every accepted action, in SQLite, before it is spoken.

A game's state is never stored: it is rebuilt by replaying the journal from the
game's setup, which is deterministic given the seed. So the journal only has to
be durable, and SQLite in WAL mode with synchronous=FULL survives a kill -9 or a
power cut with every committed row intact.

A journal can still be damaged (a disk error, a truncated copy, a hand edit). Two
levels are told apart. A database SQLite cannot read, one that lost a table it
needs, or an empty (0-byte) file, is moved aside under a dated name and a new one is
started: `notice` says so, and the old file is kept for whoever wants to rescue it. A
damaged row (bad JSON, a setup that is not a setup) spoils only its own session: that
session is reported unresumable with the reason, and every other one still works.

Rows committed since the last checkpoint live only in the write-ahead log (-wal). A
log deleted or damaged after a crash would lose them without a word from SQLite,
which simply reads what is left; so the log is checked against the shared-memory
index (-shm) the crashed process left, before SQLite rebuilds it (wal_check.py).

Locks: SQLite's locks are POSIX locks, which belong to the process and the file, not
to a descriptor: closing *any* descriptor of the database drops every lock the
process holds on it, and another process closing its connection then takes the
database for unused and deletes the -wal this one still writes to (committed rows
lost: issue 29). So this module never opens the database file itself; SQLite alone
does, and the -shm and -wal are read only before this process has a connection.

A write that the disk refuses (full, an I/O error, read-only, locked by another
program) raises JournalUnwritable, one line that says why: nothing is accepted
that is not on disk.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.contract import JsonObject
from host.errors import PartyhostError

from . import wal_check
from .files import DECK_BYTES, check_regular, read_bytes

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,            -- JSON: options, deck files, events path
    status TEXT NOT NULL,           -- playing | quit | over (UNFINISHED: the first two)
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,             -- action | undo | redraw | correction
    action TEXT,                    -- JSON intent with "player"
    t REAL NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS seat_tokens (   -- phone pages: one secret per seat, while the game lasts
    session_id TEXT NOT NULL REFERENCES sessions(id),
    player TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed INTEGER NOT NULL DEFAULT 0,     -- 1 once a phone has joined as this seat
    PRIMARY KEY (session_id, player)
);
CREATE TABLE IF NOT EXISTS join_codes (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id),
    code TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS used_questions (
    grp TEXT NOT NULL,
    question_id TEXT NOT NULL,
    PRIMARY KEY (grp, question_id)
);
CREATE TABLE IF NOT EXISTS inputs (        -- what a game was dealt from, as it was when it began
    session_id TEXT NOT NULL REFERENCES sessions(id),
    name TEXT NOT NULL,                     -- the file's path when the game began
    sha256 TEXT NOT NULL REFERENCES input_copies(sha256),
    PRIMARY KEY (session_id, name)
);
CREATE TABLE IF NOT EXISTS input_copies (  -- each file's content once, however many games use it
    sha256 TEXT PRIMARY KEY,
    content BLOB NOT NULL
);
"""
UNFINISHED = ("playing", "quit")
"""The statuses of a game that can be resumed: being played (or stopped by the end of the
input, a crash, a service stopping), or quit by its players, who chose to stop; `partyhost
serve` resumes only the first kind by itself (partyhost/games_folder.py)."""
SCHEMA_TABLES = frozenset(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA))
REQUIRED_TABLES = ("sessions", "actions")
"""Without these a journal is not one; the others are added when missing (older journals)."""
ACTION_KINDS = ("action", "undo", "redraw", "correction")
"""A redraw is a move no game sees (host.engine.REDRAW): kept apart so it is not counted as
one. A correction is the last move as the player said it, where the host misheard it
(host/corrections.py): it takes that move's place."""
EMPTY_GRACE_S = 10.0
"""An empty database file younger than this may be one another process is creating right
now (SQLite writes its first page at once); an older one is an emptied journal."""


class JournalDamaged(Exception):
    """The database as a whole cannot be used."""


class SessionDamaged(Exception):
    """One session's rows cannot be read; the message says which and why."""


class JournalUnwritable(PartyhostError):
    """The disk refused a write (full, an I/O error, read-only, locked): nothing was saved."""

    def __init__(self, path: Path, error: sqlite3.Error):
        self.reason = _unwritable_reason(error)
        super().__init__(f"cannot save the game in {path}: {self.reason}")
        self.told = False
        """Set once the players have heard `spoken`."""

    @property
    def short(self) -> str:
        """The reason without SQLite's own words, to be spoken."""
        return self.reason.split(" (")[0]

    @property
    def spoken(self) -> str:
        return f"I cannot save the game: {self.short}. So I stop here; every move before this one is saved."


@dataclass(frozen=True)
class SessionRecord:
    id: str
    game: str
    setup: JsonObject
    status: str
    created: float
    updated: float
    actions: int
    problem: str | None = None
    """Why the session cannot be resumed, when its own rows say so already."""


class Journal:
    """One SQLite database holding every session of this machine."""

    def __init__(self, path: Path):
        self.path = path
        self.notice: str | None = None
        """Set when a damaged database was moved aside: what to tell the user."""
        self.kept: Path | None = None
        try:
            self.db, wal_loss = _open(path)
        except sqlite3.OperationalError:
            raise  # locked, busy, unreadable: not damage, never a reason to move it
        except (sqlite3.DatabaseError, UnicodeDecodeError, JournalDamaged) as error:
            self.kept = _move_aside(path)
            self.notice = (
                f"the saved games in {path} are damaged ({_reason(error)}); the file is kept "
                f"as {self.kept.name} and a new one is started"
            )
            self.db, wal_loss = _open(path)
        if wal_loss is not None:
            self.notice = self._wal_loss_notice(wal_loss)

    @classmethod
    def read_only(cls, path: Path) -> Journal:
        """The journal on a medium nothing may write to (a read-only mount), read as it is.

        SQLite's "immutable" mode takes no locks and makes no -shm, which is right only where
        no process can change the file; rows still only in a -wal left there are not seen."""
        journal = cls.__new__(cls)
        journal.path, journal.notice, journal.kept = path, None, None
        journal.db = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None)
        journal.db.text_factory = _text
        return journal

    def _wal_loss_notice(self, loss: wal_check.Loss) -> str:
        latest = next((r.id for r in self.sessions() if r.status in UNFINISHED), None)
        return (
            f"the saved games in {self.path} lost their latest changes: {loss.describe()}"
            + (f"; game {latest} (the latest) may be missing its last moves" if latest else "")
            + (f"; the log as it was is kept as {loss.kept.name} for a rescue" if loss.kept else "")
        )

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _saving(self) -> Iterator[None]:
        """A write: a refusal by the disk becomes JournalUnwritable, saying why in words."""
        try:
            yield
        except sqlite3.OperationalError as error:
            raise JournalUnwritable(self.path, error) from error

    def create(self, game: str, setup: JsonObject) -> str:
        session_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        now = time.time()
        with self._saving():
            self.db.execute(
                "INSERT INTO sessions VALUES (?, ?, ?, 'playing', ?, ?)",
                (session_id, game, json.dumps(setup), now, now),
            )
        return session_id

    def update_setup(self, session_id: str, setup: JsonObject) -> None:
        with self._saving():
            self.db.execute("UPDATE sessions SET setup = ? WHERE id = ?", (json.dumps(setup), session_id))

    def append(self, session_id: str, kind: str, action: Mapping[str, Any] | None, t: float) -> int:
        """Commit one record; returns its position (seq) only once it is on disk."""
        with self._saving(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            (seq,) = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE session_id = ?", (session_id,)
            ).fetchone()
            self.db.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                (session_id, seq, kind, json.dumps(action) if action else None, t),
            )
            self.db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (time.time(), session_id))
        return int(seq)

    def set_result(self, session_id: str, scores: Mapping[str, int]) -> None:
        """A finished game's final scores, kept in its setup ("result"): the same table's
        next game of the day may depend on them (Keep It 100's first Slider)."""
        record = self.get(session_id)
        if record is not None:
            self.update_setup(session_id, {**record.setup, "result": {"scores": dict(scores)}})

    def last_scores(self, game: str, group: str, since: float) -> dict[str, int] | None:
        """The final scores of the group's latest finished `game` updated at `since` or
        later (None: no such game)."""
        for record in self._records("WHERE s.game = ? AND s.status = 'over' AND s.updated >= ?", (game, since)):
            result = record.setup.get("result")
            scores = result.get("scores") if isinstance(result, dict) else None
            if record.setup.get("group") == group and isinstance(scores, dict):
                return {str(k): int(v) for k, v in scores.items() if isinstance(v, int)}
        return None

    def set_status(self, session_id: str, status: str) -> None:
        with self._saving():
            self.db.execute(
                "UPDATE sessions SET status = ?, updated = ? WHERE id = ?", (status, time.time(), session_id)
            )

    def accepted_actions(self, session_id: str) -> list[JsonObject]:
        """The actions in force: journal order, each undo removing the latest one (a
        redraw counts as one: host.engine.apply_move replays it), each correction taking
        the place of the latest move a player made (the redraws after it stay)."""
        actions: list[JsonObject] = []
        kinds: list[str] = []
        for seq, kind, action in self.db.execute(
            "SELECT seq, kind, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        ):
            if kind == "undo":
                if actions:
                    actions.pop()
                    kinds.pop()
            elif kind in ("action", "redraw"):
                actions.append(_action(session_id, seq, action))
                kinds.append(kind)
            elif kind == "correction":
                if "action" not in kinds:
                    raise SessionDamaged(f"game {session_id}: record {seq} corrects a move never made")
                actions[len(kinds) - 1 - kinds[::-1].index("action")] = _action(session_id, seq, action)
            else:
                raise SessionDamaged(f"game {session_id}: record {seq} is of unknown kind {kind!r}")
        return actions

    def last_time(self, session_id: str) -> float:
        (t,) = self.db.execute("SELECT COALESCE(MAX(t), 0) FROM actions WHERE session_id = ?", (session_id,)).fetchone()
        return float(t)

    def get(self, session_id: str) -> SessionRecord | None:
        rows = self._records("WHERE s.id = ?", (session_id,))
        return rows[0] if rows else None

    def sessions(self) -> list[SessionRecord]:
        return self._records("", ())

    def _records(self, where: str, params: tuple) -> list[SessionRecord]:
        query = (
            "SELECT s.id, s.game, s.setup, s.status, s.created, s.updated, "
            "(SELECT COUNT(*) FROM actions a WHERE a.session_id = s.id AND a.kind = 'action') "
            f"FROM sessions s {where} ORDER BY s.updated DESC"
        )
        return [_record(r) for r in self.db.execute(query, params)]

    def delete(self, session_id: str) -> None:
        """Forget a session entirely (one that could not start)."""
        with self._saving(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for table in ("actions", "seat_tokens", "join_codes", "inputs"):
                self.db.execute(f"DELETE FROM {table} WHERE session_id = ?", (session_id,))
            self.db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            self.db.execute("DELETE FROM input_copies WHERE sha256 NOT IN (SELECT sha256 FROM inputs)")

    # ---- what each game was dealt from

    def pin_inputs(self, session_id: str, files: list[Path]) -> None:
        """Keep a copy of each file the game deals from, so a later edit cannot change it."""
        contents = [(path, read_bytes(path, "deck file", DECK_BYTES)) for path in files]
        with self._saving(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for path, content in contents:
                digest = hashlib.sha256(content).hexdigest()
                self.db.execute("INSERT OR IGNORE INTO input_copies VALUES (?, ?)", (digest, content))
                self.db.execute("INSERT OR REPLACE INTO inputs VALUES (?, ?, ?)", (session_id, str(path), digest))

    def pinned_inputs(self, session_id: str) -> dict[str, tuple[str, bytes]]:
        """{path as it was: (sha256, content)} of the files pinned when the game began."""
        pinned = {}
        for name, digest, content in self.db.execute(
            "SELECT i.name, i.sha256, c.content FROM inputs i LEFT JOIN input_copies c ON c.sha256 = i.sha256 "
            "WHERE i.session_id = ?",
            (session_id,),
        ):
            content = bytes(content) if isinstance(content, (bytes, memoryview)) else b""
            if hashlib.sha256(content).hexdigest() != digest:
                raise SessionDamaged(f"game {session_id}: the saved copy of {name} is damaged")
            pinned[name] = (digest, content)
        return pinned

    # ---- phone seats: kept so that after a restart every phone's link still works

    def seat_tokens(self, session_id: str) -> tuple[str | None, dict[str, tuple[str, bool]]]:
        """The session's join code and {player: (token, claimed)}; (None, {}) when none."""
        row = self.db.execute("SELECT code FROM join_codes WHERE session_id = ?", (session_id,)).fetchone()
        seats = {
            player: (token, bool(claimed))
            for player, token, claimed in self.db.execute(
                "SELECT player, token, claimed FROM seat_tokens WHERE session_id = ?", (session_id,)
            )
        }
        return (row[0] if row else None), seats

    def save_seat_tokens(self, session_id: str, code: str, tokens: dict[str, str]) -> None:
        with self._saving(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO join_codes VALUES (?, ?)", (session_id, code))
            self.db.executemany(
                "INSERT OR IGNORE INTO seat_tokens VALUES (?, ?, ?, 0)", [(session_id, p, t) for p, t in tokens.items()]
            )

    def claim_seat(self, session_id: str, player: str) -> None:
        with self._saving():
            self.db.execute(
                "UPDATE seat_tokens SET claimed = 1 WHERE session_id = ? AND player = ?", (session_id, player)
            )

    def drop_seat_tokens(self, session_id: str) -> None:
        """The game is over (or gone): its phone links die with it."""
        with self._saving(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM seat_tokens WHERE session_id = ?", (session_id,))
            self.db.execute("DELETE FROM join_codes WHERE session_id = ?", (session_id,))

    def used_questions(self, group: str) -> frozenset[str]:
        rows = self.db.execute("SELECT question_id FROM used_questions WHERE grp = ?", (group,))
        return frozenset(r[0] for r in rows)

    def mark_questions_used(self, group: str, ids: list[str]) -> None:
        with self._saving(), self.db:
            self.db.executemany("INSERT OR IGNORE INTO used_questions VALUES (?, ?)", [(group, i) for i in ids])


# ---- opening, and telling damage apart -------------------------------------------


def _open(path: Path) -> tuple[sqlite3.Connection, wal_check.Loss | None]:
    """A checked connection (readable pages, the tables a journal needs; owner-only file), and
    the rows the write-ahead log lost, when this process is the first to open it since a crash."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if check_regular(path, "saved games file", may_be_missing=True):
        info = path.stat()
        if info.st_size == 0 and time.time() - info.st_mtime > EMPTY_GRACE_S:
            raise JournalDamaged("the file is empty: 0 bytes")
    with wal_check.opening(path) as first:
        pending = wal_check.before_open(path) if first else None
    # SQLite alone opens the database (never os.open/close here: module docstring)
    db = sqlite3.connect(path, isolation_level=None)
    db.text_factory = _text  # a flipped byte in a row spoils that row, not every query
    try:
        _owner_only(path)  # seat tokens live here: 600, and SQLite gives its -wal and -shm the same
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        loss = None
        if pending is not None:  # before anything is written here (wal_check.after_open says why)
            index, loss = pending
            loss = loss or wal_check.after_open(db, path, index)
        (verdict,) = db.execute("PRAGMA quick_check(1)").fetchone()
        if verdict != "ok":
            raise JournalDamaged(verdict)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [t for t in REQUIRED_TABLES if t not in tables]
        if tables and missing:
            raise JournalDamaged(f"its {' and '.join(missing)} table{'s are' if len(missing) > 1 else ' is'} missing")
        if SCHEMA_TABLES - tables:  # only then: a full disk may still be read
            db.executescript(SCHEMA)
    except BaseException:
        db.close()
        raise
    for suffix in ("-wal", "-shm"):
        _owner_only(Path(f"{path}{suffix}"))
    return db, loss


def _owner_only(path: Path) -> None:
    """Mode 600, by name (never through a descriptor of the database: module docstring)."""
    try:
        if path.stat().st_mode & 0o777 != 0o600:
            path.chmod(0o600)
    except FileNotFoundError:
        pass


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__


UNWRITABLE = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "the file is read-only",
    "SQLITE_BUSY": "another program keeps it locked",
    "SQLITE_LOCKED": "another program keeps it locked",
    "SQLITE_IOERR": "the disk reported an error",
    "SQLITE_CANTOPEN": "the file cannot be opened",
}
"""SQLite's refusals of a write, by primary result code, in a player's words."""


def _unwritable_reason(error: sqlite3.Error) -> str:
    name = getattr(error, "sqlite_errorname", "")  # Python 3.11+; the message before that
    primary = next((code for code in UNWRITABLE if name == code or name.startswith(code + "_")), None)
    if primary is None and "disk is full" in str(error):
        primary = "SQLITE_FULL"
    if primary is None:
        return _reason(error)
    return UNWRITABLE[primary] + ("" if primary == "SQLITE_FULL" else f" ({error})")


def _move_aside(path: Path) -> Path:
    """Rename the database (and its WAL and shared-memory files) to a dated name; return it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in ("-wal", "-shm", ""):
        side = Path(f"{path}{suffix}")
        if side.exists():
            side.rename(Path(f"{kept}{suffix}"))
    return kept


def _record(row: tuple) -> SessionRecord:
    """A session row; a damaged one becomes a record with its problem named."""
    session_id, game, setup_text, status, created, updated, actions = row
    problem = None
    try:
        setup = json.loads(setup_text)
        if not isinstance(setup, dict):
            raise ValueError("not a JSON object")
    except (TypeError, ValueError, RecursionError) as error:
        setup, problem = {}, f"its setup is not readable ({_reason(error)})"
    if problem is None and status not in (*UNFINISHED, "over"):
        problem = f"its status {status!r} is unknown"
    return SessionRecord(
        str(session_id), str(game), setup, str(status), _number(created), _number(updated), int(actions), problem
    )


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _action(session_id: str, seq: int, text: str | None) -> JsonObject:
    try:
        action = json.loads(text) if text is not None else None
    except (TypeError, ValueError, RecursionError) as error:
        raise SessionDamaged(f"game {session_id}: move {seq} is not readable ({_reason(error)})") from None
    if not isinstance(action, dict) or not isinstance(action.get("intent"), str):
        raise SessionDamaged(f"game {session_id}: move {seq} is not a move")
    return action
