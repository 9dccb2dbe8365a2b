"""Typed input of any length and content, fed to real sessions of every game and mode.

Lines are drawn from a seeded generator: game words (so games move on), unicode,
control characters and escape sequences, 100,000-character lines, runs of thousands
of digits, 1e309, nan, bytes that are not UTF-8. Each game configuration (game x mode
x deal) gets a real Session with the real matcher, reading the lines through the
real typed ears (partyhost/textio.py) and answering through the typed mouth; no
TTS, no audio. A game that ends or is quit starts again with the next lines.

Used by tests/test_fuzz_input.py and by the probe in docs/robustness.md.
"""

from __future__ import annotations

import io
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from host.contract import Ending
from host.decks import load_game_decks
from host.engine import GameOptions, RuleError
from host.eventlog import EventLog
from host.games import dealing, game_ids, get_game
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session
from partyhost.textio import TextEars, TextMouth
from voice.understanding.grammar import GRAMMAR_DIR
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding

NAMES = ("Ana", "Ben", "Cy", "Dee")
HUGE = [
    "1e309",
    "-1e309",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "+50",
    "\u221220",
    "1,000,000,000",
    "0x1F",
    "007",
    "9" * 4301,
    "1" * 3000,
    "12" * 2500 + "th",
    "1" + "0" * 5000,
    "-" + "9" * 5000,
    "10^309",
    "\u0661\u0662\u0663",
    "\uff11\uff12",
    "\u00bd",
    "2\u00b2",
    "\u2460",
    "\u0967\u0966\u0966",
]


def game_words() -> list[str]:
    """Words of the shipped grammars, for lines a game may understand."""
    text = " ".join(p.read_text(encoding="utf-8") for p in sorted(GRAMMAR_DIR.glob("*.yaml")))
    return sorted(set(re.findall(r"[a-z][a-z']+", text.lower())))


def fuzz_lines(seed: int, count: int) -> list[str]:
    """`count` lines, the same for the same seed."""
    rng = random.Random(seed)
    words = game_words() + [str(n) for n in range(0, 121)]
    lines = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.45:
            line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 5)))
        elif kind < 0.55:
            line = rng.choice(
                [
                    "yes",
                    "no",
                    "score",
                    "undo",
                    "repeat",
                    "help",
                    "pause",
                    "resume",
                    "quit",
                    "...",
                    "",
                    "   ",
                    "whose turn",
                    "rules",
                    "slower",
                    "louder",
                ]
            )
        elif kind < 0.65:
            line = rng.choice(HUGE)
        elif kind < 0.75:  # any code point but surrogates, often control characters
            line = "".join(
                chr(
                    rng.choice(
                        [rng.randint(0, 0x1F), 0x7F, 0x1B, rng.randint(0x80, 0xD7FF), rng.randint(0xE000, 0x10FFFF)]
                    )
                )
                for _ in range(rng.randint(1, 60))
            )
        elif kind < 0.80:
            line = "\x1b[" + rng.choice(["A", "B", "C", "D", "2J", "6n", "?1049h"]) + rng.choice(words)
        elif kind < 0.85:  # bytes that are not UTF-8, as a terminal may send them
            line = bytes(rng.randint(0x80, 0xFF) for _ in range(rng.randint(1, 20))).decode("utf-8", "replace")
        elif kind < 0.97:
            line = (rng.choice(words) + " ") * rng.randint(20, 400)
        elif kind < 0.998:
            line = rng.choice(HUGE) + " " + rng.choice(words) + " " + rng.choice(HUGE)
        else:
            line = rng.choice(["a", "9", "\u00e9", "ace of spades "]) * 100_000
        lines.append(line.replace("\n", " ").replace("\r", " "))
    return lines


@dataclass
class Config:
    game: str
    mode: str
    deal: str
    players: tuple[str, ...]


def configurations() -> list[Config]:
    """Every game x mode x deal, with a player count the rules accept."""
    configs = []
    for game_id in game_ids():
        game = get_game(game_id)
        decks = load_game_decks(game.deck, question_games=dealing("questions"))
        for mode in game.modes:
            for deal in game.deals:
                for n in (3, 2, 1, 4):
                    try:
                        game.setup(GameOptions(players=NAMES[:n], mode=mode, deal=deal, seed=1), decks)
                    except RuleError:
                        continue
                    configs.append(Config(game_id, mode, deal, NAMES[:n]))
                    break
    return configs


@dataclass
class FuzzResult:
    lines: int = 0
    games: int = 0
    failures: list[str] = field(default_factory=list)
    """One per exception that escaped a session: what it was and the line that caused it."""
    slowest_s: float = 0.0


class TimedEars(TextEars):
    """The typed ears, timing each reply's handling (from one line read, understanding
    it included, to the next)."""

    def __init__(self, stream, out, result: FuzzResult, matcher: Matcher):
        super().__init__(stream, out)
        self.understand = TextUnderstanding(matcher)
        self.result, self.last, self.line = result, None, ""

    def _read(self, prompt, line):
        self.last = time.monotonic()  # read: its handling starts with understanding it
        return super()._read(prompt, line)

    def hear(self, prompt):
        now = time.monotonic()
        if self.last is not None:
            self.result.slowest_s = max(self.result.slowest_s, now - self.last)
        self.last = None
        heard = super().hear(prompt)
        if self.last is None:
            self.last = time.monotonic()
        if heard is not None:
            self.result.lines += 1
            self.line = heard.text
        return heard


def run_fuzz(seed: int, count: int, folder: Path) -> FuzzResult:
    """Feed `count` seeded lines, shared round-robin among every configuration."""
    configs = configurations()
    lines = fuzz_lines(seed, count)
    result = FuzzResult()
    matcher = Matcher()
    journal = Journal(folder / "fuzz.sqlite3")
    for i, config in enumerate(configs):
        mine = lines[i :: len(configs)]
        stream = io.StringIO("".join(line + "\n" for line in mine))
        ears = TimedEars(stream, io.StringIO(), result, matcher)
        while stream.tell() < len(stream.getvalue()):
            outcome = _one_game(config, journal, ears, folder, result)
            if outcome is Ending.EOF:
                break
    journal.close()
    return result


def _one_game(config: Config, journal: Journal, ears: TimedEars, folder: Path, result: FuzzResult) -> Ending:
    game = get_game(config.game)
    options = GameOptions(players=config.players, mode=config.mode, deal=config.deal, seed=result.games)
    decks = load_game_decks(game.deck, question_games=dealing("questions"))
    session_id = journal.create(game.id, {"options": {}})
    log = EventLog(folder / "events" / f"{session_id}.jsonl", time.monotonic)
    session = Session(
        game,
        options,
        decks,
        journal,
        SessionInfo(session_id, "fuzz"),
        log,
        ears,
        TextMouth(io.StringIO()),
        time.monotonic,
    )
    result.games += 1
    try:
        session.start()
        return session.run()
    except Exception as error:  # what the fuzz is looking for: anything that escapes
        result.failures.append(
            f"{config.game}/{config.mode}/{config.deal}: {type(error).__name__}: "
            f"{str(error)[:200]} (after the line {ears.line[:80]!r})"
        )
        return "error"
    finally:
        log.close()
