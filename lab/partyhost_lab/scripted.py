"""Typed whole-game scripts played in-process, with every exchange remembered.

lab/scripted_games/cases.yaml lists each script and its game options. Playing one here
gives the prompts asked, the line answered to each and what the host made of it:
`partyhost bench table` plays each case live and holds the live game to the typed
one; the grammar tests check the prompts, and scripts/make_fixtures.py speaks the
lines to build the recorded-audio fixtures with their expected intents. The scripts
are the lab's own (lab/scripted_games), read by the tests through this module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from host.common_commands import COMMON_INTENTS
from host.contract import Ending, Intent, Likeness, Outcome, Prompt, Understood
from host.decks import Decks, load_game_decks
from host.engine import GameOptions
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.play import SessionInfo
from partyhost.config import Settings
from partyhost.sitting import Sitting, build_session
from partyhost.voiceio import GameIO
from partyhost_lab.places import SCRIPTED_GAMES
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding

CASES_FILE = SCRIPTED_GAMES / "cases.yaml"


class QuietMouth:
    """host.announcer.Mouth that says nothing: a game played for its event log."""

    def say(self, text: str) -> None: ...
    def sound(self, name: str) -> None: ...
    def private(self, player: str, text: str) -> None: ...

    def adjust(self, change: str) -> str:
        return change


SILENCE = "..."


@dataclass(frozen=True)
class ScriptCase:
    """One script and the options it is played with."""

    script: str
    game: str
    players: tuple[str, ...]
    seed: int
    mode: str = ""
    deal: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    teams: tuple[tuple[str, ...], ...] = ()
    questions: str | None = None
    words: str | None = None
    winners: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        return CASES_FILE.parent / self.script

    def lines(self) -> list[str]:
        return [line.strip() for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def options(self) -> GameOptions:
        game = get_game(self.game)
        return GameOptions(
            players=self.players,
            teams=self.teams,
            mode=self.mode or game.modes[0],
            deal=self.deal or game.deals[0],
            seed=self.seed,
            rules=dict(self.rules),
        )

    def decks(self) -> Decks:
        given = [SCRIPTED_GAMES / path for path in (self.questions, self.words) if path]
        return load_game_decks(get_game(self.game).deck, given, question_games=dealing("questions"))

    def cli_arguments(self) -> list[str]:
        """`partyhost play` arguments that play this case (stdin: the script)."""
        args = ["play", self.game, "--players", ",".join(self.players), "--seed", str(self.seed)]
        args += ["--mode", self.mode] if self.mode else []
        args += ["--deal", self.deal] if self.deal else []
        args += ["--teams", ";".join(",".join(team) for team in self.teams)] if self.teams else []
        for key, value in self.rules.items():
            args += [
                "--rules",
                f"{key}={yaml.safe_dump(value, default_flow_style=True).strip().removesuffix('...').strip()}",
            ]
        args += ["--deck", str(SCRIPTED_GAMES / self.questions)] if self.questions else []
        args += ["--word-deck", str(SCRIPTED_GAMES / self.words)] if self.words else []
        return args


def load_cases(path: Path = CASES_FILE) -> list[ScriptCase]:
    cases = []
    for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
        entry["players"] = tuple(entry["players"])
        entry["teams"] = tuple(tuple(team) for team in entry.get("teams", ()))
        entry["winners"] = tuple(entry.get("winners", ()))
        cases.append(ScriptCase(**entry))
    return cases


@dataclass(frozen=True)
class Exchange:
    """One prompt, the line said to it, and the intent it produced (None if refused)."""

    prompt: Prompt
    line: str
    intent: Intent | None
    state: Any = None
    """The game's state the line was said in (a player judges a reading by what it would do there)."""


@dataclass
class Transcript:
    outcome: Ending
    exchanges: list[Exchange]
    unused_lines: list[str]
    events: Path


class _ScriptEars:
    """Scripted lines, understood as typed replies are (the text understanding)."""

    def __init__(self, lines: list[str], matcher: Matcher):
        self.lines, self.understand = list(lines), TextUnderstanding(matcher)
        self.exchanges: list[Exchange] = []
        self.state_now: Callable[[], Any] = lambda: None

    def hear(self, prompt: Prompt) -> Understood | None:
        if not self.lines:
            return None
        line, state = self.lines.pop(0), self.state_now()
        if line == SILENCE:
            self.exchanges.append(Exchange(prompt, line, {"intent": "timeout"} if prompt.timeout else None, state))
            return Understood(Outcome.TIMED_OUT) if prompt.timeout else self.understand(prompt, "")
        heard = self.understand(prompt, line)
        self.exchanges.append(Exchange(prompt, line, heard.intent, state))
        return heard

    def reread(self, prompt: Prompt, text: str) -> Understood:
        return self.understand(prompt, text)

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        """Typed lines are not misheard."""
        return None


def outcomes(events: list[dict]) -> list[dict]:
    """What a game did, from its event log: every score, reveal and the end (not how
    each move was worded), so a spoken game compares with its typed one. What stands, as
    the journal keeps it: a move undone takes its record with it, and a move corrected
    ("no, I said lower") has the corrected move's record instead of the misheard one's."""
    moves: list[tuple[dict, list[dict]]] = [({}, [])]  # each move and its record; first, the deal's
    for event in events:
        if event["type"] == "intent" and event["intent"].get("intent") not in COMMON_INTENTS:
            moves.append((event["intent"], []))
        elif event["type"] in ("undo", "correction"):
            was = event["action"] if event["type"] == "undo" else event["was"]
            found = next((n for n in range(len(moves) - 1, 0, -1) if _same(moves[n][0], was)), None)
            if found is not None:
                del moves[found]
            if event["type"] == "correction":
                moves.append((event["action"], []))
        elif event["type"] in ("score", "reveal", "game_over"):
            moves[-1][1].append({k: v for k, v in event.items() if k not in ("seq", "t")})
    return [record for _, kept in moves for record in kept]


def _same(intent: dict, action: dict) -> bool:
    """The same move, whoever the log names as its player."""
    return {k: v for k, v in intent.items() if k != "player"} == {k: v for k, v in action.items() if k != "player"}


def play_script(case: ScriptCase, folder: Path) -> Transcript:
    """Play a case through the real Session and matcher, with nothing printed."""
    game = get_game(case.game)
    matcher = Matcher()
    ears = _ScriptEars(case.lines(), matcher)
    folder.mkdir(parents=True, exist_ok=True)
    journal = Journal(folder / "db.sqlite3")
    session_id = journal.create(game.id, {"options": {}})
    log = EventLog(folder / "events.jsonl", lambda: 0.0)
    io = GameIO(ears, QuietMouth(), clock=lambda: 0.0)
    info = SessionInfo(session_id, "group")
    session = build_session(Sitting(game, case.options(), case.decks(), journal, info, Settings(), io, log.path), log)
    ears.state_now = lambda: session.state
    session.start()
    outcome = session.run()
    log.close()
    journal.close()
    return Transcript(outcome, ears.exchanges, ears.lines, folder / "events.jsonl")
