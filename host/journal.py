"""The session journal: every accepted action, in SQLite, before it is spoken.

A game's state is never stored: it is rebuilt by replaying the journal from the
game's setup, which is deterministic given the seed. So the journal only has to
be durable, and SQLite in WAL mode with synchronous=FULL survives a kill -9 or a
power cut with every committed row intact.
"""
from __future__ import annotations

import json
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,            -- JSON: options, deck files, events path
    status TEXT NOT NULL,           -- playing | over
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,             -- action | undo
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
"""


@dataclass(frozen=True)
class SessionRecord:
    id: str
    game: str
    setup: dict[str, Any]
    status: str
    created: float
    updated: float
    actions: int


class Journal:
    """One SQLite database holding every session of this machine."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create(self, game: str, setup: dict[str, Any]) -> str:
        session_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        now = time.time()
        self.db.execute("INSERT INTO sessions VALUES (?, ?, ?, 'playing', ?, ?)",
                        (session_id, game, json.dumps(setup), now, now))
        return session_id

    def update_setup(self, session_id: str, setup: dict[str, Any]) -> None:
        self.db.execute("UPDATE sessions SET setup = ? WHERE id = ?", (json.dumps(setup), session_id))

    def append(self, session_id: str, kind: str, action: dict[str, Any] | None, t: float) -> None:
        """Commit one record; returns only once it is on disk."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            (seq,) = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE session_id = ?",
                                     (session_id,)).fetchone()
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                            (session_id, seq, kind, json.dumps(action) if action else None, t))
            self.db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (time.time(), session_id))

    def set_status(self, session_id: str, status: str) -> None:
        self.db.execute("UPDATE sessions SET status = ?, updated = ? WHERE id = ?",
                        (status, time.time(), session_id))

    def accepted_actions(self, session_id: str) -> list[dict[str, Any]]:
        """The actions in force: journal order, each undo removing the latest one."""
        actions: list[dict[str, Any]] = []
        for kind, action in self.db.execute(
                "SELECT kind, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)):
            if kind == "undo":
                if actions:
                    actions.pop()
            else:
                actions.append(json.loads(action))
        return actions

    def last_time(self, session_id: str) -> float:
        (t,) = self.db.execute("SELECT COALESCE(MAX(t), 0) FROM actions WHERE session_id = ?",
                               (session_id,)).fetchone()
        return float(t)

    def get(self, session_id: str) -> SessionRecord | None:
        rows = self._records("WHERE s.id = ?", (session_id,))
        return rows[0] if rows else None

    def sessions(self) -> list[SessionRecord]:
        return self._records("", ())

    def latest_unfinished(self) -> SessionRecord | None:
        rows = self._records("WHERE s.status = 'playing'", ())
        return rows[0] if rows else None

    def _records(self, where: str, params: tuple) -> list[SessionRecord]:
        query = ("SELECT s.id, s.game, s.setup, s.status, s.created, s.updated, "
                 "(SELECT COUNT(*) FROM actions a WHERE a.session_id = s.id AND a.kind = 'action') "
                 f"FROM sessions s {where} ORDER BY s.updated DESC")
        return [SessionRecord(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6])
                for r in self.db.execute(query, params)]

    def delete(self, session_id: str) -> None:
        """Forget a session entirely (one that could not start)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for table in ("actions", "seat_tokens", "join_codes"):
                self.db.execute(f"DELETE FROM {table} WHERE session_id = ?", (session_id,))
            self.db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    # ---- phone seats: kept so that after a restart every phone's link still works

    def seat_tokens(self, session_id: str) -> tuple[str | None, dict[str, tuple[str, bool]]]:
        """The session's join code and {player: (token, claimed)}; (None, {}) when none."""
        row = self.db.execute("SELECT code FROM join_codes WHERE session_id = ?", (session_id,)).fetchone()
        seats = {player: (token, bool(claimed)) for player, token, claimed in self.db.execute(
            "SELECT player, token, claimed FROM seat_tokens WHERE session_id = ?", (session_id,))}
        return (row[0] if row else None), seats

    def save_seat_tokens(self, session_id: str, code: str, tokens: dict[str, str]) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO join_codes VALUES (?, ?)", (session_id, code))
            self.db.executemany("INSERT OR IGNORE INTO seat_tokens VALUES (?, ?, ?, 0)",
                                [(session_id, p, t) for p, t in tokens.items()])

    def claim_seat(self, session_id: str, player: str) -> None:
        self.db.execute("UPDATE seat_tokens SET claimed = 1 WHERE session_id = ? AND player = ?",
                        (session_id, player))

    def drop_seat_tokens(self, session_id: str) -> None:
        """The game is over (or gone): its phone links die with it."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM seat_tokens WHERE session_id = ?", (session_id,))
            self.db.execute("DELETE FROM join_codes WHERE session_id = ?", (session_id,))

    def used_questions(self, group: str) -> frozenset[str]:
        rows = self.db.execute("SELECT question_id FROM used_questions WHERE grp = ?", (group,))
        return frozenset(r[0] for r in rows)

    def mark_questions_used(self, group: str, ids: list[str]) -> None:
        with self.db:
            self.db.executemany("INSERT OR IGNORE INTO used_questions VALUES (?, ?)",
                                [(group, i) for i in ids])
