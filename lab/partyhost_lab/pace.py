"""`partyhost bench pace`: how long the host talks, game by game, at the rulebooks' sizes.

Every game and mode is played whole at the player counts and hand sizes its rulebook
sets up (TABLES), by a table of players who answer each prompt at once with a move
the rules allow, chosen at random from the prompt's own list of moves (Prompt.narrow;
at Keep Cool's timed turns, a clue now and then instead), through the real session
with typed replies. Its event log is cut at each prompt: what the host says from the
end of one reply up to and including the next question is the wait before that
player may answer. The first figure is what the host says before the first prompt
(its question not included; that question opens the first turn); the cuts after it
are the turns. Cuts that answer a request (score, repeat, rules, "read my cards" ...)
or a refused reply are counted apart: the players asked for them. So are the words the
rulebook has a player read aloud (a `say` event marked `read_out`, such as a team's
question at Zero to 100's reveal): at a table without the host they take that time too,
so the targets are for the host's own words.

Seconds of speech come from the text at the voice's measured speaking rate (the
host's own estimate, partyhost/speech_time.py: SYLLABLES_PER_SECOND and PAUSE_SECONDS,
measured with `--piper`), or, with `--piper`, from Piper itself, every distinct line
synthesised once.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.common_commands import COMMON_INTENTS
from host.contract import Ending, Likeness, Prompt, Source, Understood
from host.decks import load_game_decks
from host.engine import GameOptions
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.play import SessionInfo
from partyhost.bench.manifest import percentile
from partyhost.config import Settings
from partyhost.sitting import Sitting, build_session
from partyhost.speech_time import PAUSE_SECONDS, SYLLABLES_PER_SECOND, estimated_seconds
from partyhost.voiceio import GameIO
from partyhost_lab.scripted import QuietMouth
from voice.understanding.understand import decided

TARGET_FIRST_S, TARGET_TURN_S = 15.0, 8.0
"""Host speech before the first prompt, and per turn on average (issue 33)."""
SEEDS = (1, 2, 3)
MAX_MOVES = 400
"""A game still going after this many moves is cut there (1% can run long at random)."""
CLUE_SHARE = 0.7
"""At a prompt where any speech is a move (a Keep Cool turn), how often the table gives
a clue rather than one of the words in play."""

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


@dataclass(frozen=True)
class Table:
    """One game as its rulebook sets it up: how many play, in which mode and deal."""

    game: str
    mode: str
    players: int
    deal: str = "host"
    rules: dict[str, Any] = field(default_factory=dict)
    rulebook: bool = True
    """False: a way to play the rulebook does not have (one person against the host),
    measured but not held to the targets."""

    @property
    def name(self) -> str:
        return f"{self.game} {self.mode} {self.players}p"


TABLES = (
    # Keep It 100: 3 to 8 compete, dealt 6 cards at 3, 5 at 4, 4 at 5 (the rulebook's table);
    # the Challenge is for any group, one 14-card deck.
    *(Table("keep-it-100", mode, players) for mode in ("basic", "over100") for players in (3, 4, 5)),
    Table("keep-it-100", "challenge", 2),
    # Zero to 100: 3 teams (of two here), 6 questions and 3 power cards each.
    Table("zero-to-100", "basic", 6),
    # Keep Cool: 3 to 8 players, 4 cards each.
    *(Table("keep-cool", mode, players) for mode in ("basic", "too-cool") for players in (3, 5)),
    # 1%: 3 bid cards each; 4 players.
    Table("one-percent", "basic", 4),
    # Count to 100: two players, seven cards each, to 21 points. Against the host, one
    # person's wait between cards holds the host's own card too.
    Table("centurion", "pvp", 2),
    Table("centurion", "vs-host", 1, rulebook=False),
)


@dataclass
class CaseSpeech:
    """One game's host speech: before the first prompt, per turn, on request."""

    name: str
    game: str
    mode: str
    first: float = 0.0
    turns: list[float] = field(default_factory=list)
    requested: list[float] = field(default_factory=list)
    read_out: float = 0.0  # seconds of what the rulebook has players read aloud, in all
    finished: bool = True
    rulebook: bool = True


def piper_seconds() -> Callable[[str], float]:
    """Seconds of speech measured by synthesising each distinct text once with Piper."""
    from voice.speaking.tts import PiperTTS

    tts = PiperTTS(noise_scale=0.0)
    known: dict[str, float] = {}

    def seconds(text: str) -> float:
        if text not in known:
            known[text] = sum(len(piece) for piece in tts.synthesize(text)) / tts.sample_rate
        return known[text]

    return seconds


class TableEars:
    """host.awaiting.Ears for a table that answers every prompt at once with a move the
    rules allow (decided and typed, as a phone's button is: nothing to recognise)."""

    def __init__(self, seed: int, max_moves: int = MAX_MOVES):
        self.rng = random.Random(seed)
        self.left = max_moves

    def hear(self, prompt: Prompt) -> Understood | None:
        if self.left <= 0:
            return None
        self.left -= 1
        moves = prompt.narrow.moves() if prompt.narrow is not None else []
        if prompt.unclear is not None and (not moves or self.rng.random() < CLUE_SHARE):
            return decided(prompt.unclear, Source.TYPED, "clue")
        if not moves:
            raise ValueError(f"{prompt.name} offers no moves (Prompt.narrow) to play it with")
        return decided(self.rng.choice(moves), Source.TYPED, "move")

    def reread(self, prompt: Prompt, text: str) -> Understood:
        raise NotImplementedError("the table chooses moves; it never misses, so nothing is read again")

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        """The table chooses moves: nothing is misheard."""
        return None


def play_table(table: Table, seed: int, folder: Path) -> tuple[Ending, list[dict]]:
    """Play one game at `table` with the random table of players; its outcome and event log."""
    game = get_game(table.game)
    options = GameOptions(
        players=NAMES[: table.players], mode=table.mode, deal=table.deal, seed=seed, rules=dict(table.rules)
    )
    folder.mkdir(parents=True, exist_ok=True)
    journal = Journal(folder / "db.sqlite3")
    session_id = journal.create(game.id, {"options": {}})
    log = EventLog(folder / "events.jsonl", lambda: 0.0)
    io = GameIO(TableEars(seed), QuietMouth(), clock=lambda: 0.0)
    info = SessionInfo(session_id, f"pace-{seed}")
    decks = load_game_decks(game.deck, [], question_games=dealing("questions"))
    session = build_session(Sitting(game, options, decks, journal, info, Settings(), io, log.path), log)
    session.start()
    outcome = session.run()
    log.close()
    journal.close()
    return outcome, [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]


def case_speech(name: str, game_id: str, mode: str, events: list[dict], seconds: Callable[[str], float]) -> CaseSpeech:
    """Cut one game's event log at its prompts and add up the speech of each cut."""
    info = set(get_game(game_id).info_intents) | COMMON_INTENTS
    result = CaseSpeech(name, game_id, mode)
    spoken, requested, prompts = 0.0, False, 0
    after_prompt = False
    for event in events:
        kind = event["type"]
        if kind == "prompt":
            after_prompt = True
            continue
        if kind == "say" and event.get("read_out"):
            result.read_out += seconds(event["text"])
            continue
        if kind == "say":
            if after_prompt and prompts == 0:  # before the first prompt: not its question
                _close(result, prompts, spoken, requested)
                prompts, spoken, requested = 1, 0.0, False
            spoken += seconds(event["text"])
            if after_prompt:  # the question itself closes the cut
                _close(result, prompts, spoken, requested)
                prompts, spoken, requested = prompts + 1, 0.0, False
            after_prompt = False
            continue
        if kind in ("heard", "intent", "rejected") and after_prompt:
            _close(result, prompts, spoken, requested)  # a prompt without words (a cue)
            prompts, spoken, requested = prompts + 1, 0.0, False
        if kind == "intent" and event["intent"].get("intent") in info or kind == "rejected":
            requested = True
        if kind != "sound":
            after_prompt = False
    if spoken:
        _close(result, prompts, spoken, requested)
    return result


def _close(result: CaseSpeech, index: int, spoken: float, requested: bool) -> None:
    if index == 0:
        result.first = spoken
    elif requested:
        result.requested.append(spoken)
    else:
        result.turns.append(spoken)


def measure(
    use_piper: bool = False, tables: tuple[Table, ...] = TABLES, seeds: tuple[int, ...] = SEEDS
) -> list[CaseSpeech]:
    """Play every table with every seed and measure its host speech."""
    seconds = piper_seconds() if use_piper else estimated_seconds
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for number, table in enumerate(tables):
            for seed in seeds:
                outcome, events = play_table(table, seed, Path(folder) / f"{number}-{seed}")
                speech = case_speech(table.name, table.game, table.mode, events, seconds)
                speech.finished, speech.rulebook = outcome is Ending.OVER, table.rulebook
                results.append(speech)
    return results


def summary(results: list[CaseSpeech]) -> list[dict]:
    """One row per game and mode (its tables and seeds pooled)."""
    rows: dict[tuple[str, str], dict] = {}
    for result in results:
        row = rows.setdefault(
            (result.game, result.mode),
            {
                "game": result.game,
                "mode": result.mode,
                "first": [],
                "turns": [],
                "requested": [],
                "read_out": 0.0,
                "finished": 0,
                "rulebook": result.rulebook,
            },
        )
        row["first"].append(result.first)
        row["turns"] += result.turns
        row["requested"] += result.requested
        row["read_out"] += result.read_out
        row["finished"] += result.finished
    return [
        {
            "game": row["game"],
            "mode": row["mode"],
            "rulebook": row["rulebook"],
            "games": len(row["first"]),
            "finished": row["finished"],
            "first_s": max(row["first"]),
            "turn_mean_s": statistics.fmean(row["turns"]) if row["turns"] else 0.0,
            "turn_p95_s": percentile(row["turns"], 95),
            "turns": len(row["turns"]),
            "requested_mean_s": statistics.fmean(row["requested"]) if row["requested"] else 0.0,
            "requested": len(row["requested"]),
            "read_out_per_turn_s": row["read_out"] / len(row["turns"]) if row["turns"] else 0.0,
        }
        for row in rows.values()
    ]


def meets_targets(row: dict) -> bool:
    return row["first_s"] <= TARGET_FIRST_S and row["turn_mean_s"] <= TARGET_TURN_S


def _verdict(row: dict) -> str:
    if not row["rulebook"]:
        return "(not a rulebook game)"
    return "met" if meets_targets(row) else "NOT met"


def command(use_piper: bool = False, json_path: Path | None = None) -> int:
    rows = summary(measure(use_piper))
    how = (
        "synthesised with Piper"
        if use_piper
        else (f"estimated at {SYLLABLES_PER_SECOND} syllables a second, {PAUSE_SECONDS} s a pause")
    )
    print(
        f"Seconds of host speech at the rulebooks' sizes, {how}; "
        f"targets: first <= {TARGET_FIRST_S:g} s, turn mean <= {TARGET_TURN_S:g} s."
    )
    print(
        f"{'game':<13}{'mode':<11}{'games':>6}{'first':>7}{'turn mean':>11}{'p95':>7}{'turns':>7}"
        f"{'asked for':>11}{'read out':>10}  target"
    )
    for row in rows:
        print(
            f"{row['game']:<13}{row['mode']:<11}{row['finished']:>3}/{row['games']:<2}{row['first_s']:>7.1f}"
            f"{row['turn_mean_s']:>11.1f}{row['turn_p95_s']:>7.1f}{row['turns']:>7}"
            f"{row['requested_mean_s']:>8.1f} x{row['requested']}{row['read_out_per_turn_s']:>10.1f}  {_verdict(row)}"
        )
    if json_path:
        json_path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0
