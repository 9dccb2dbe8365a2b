"""A sixth game is its module, its grammar and its deck entry: nothing else is edited.

The project is copied into a temporary folder, a toy game (Closest Guess: one
question, everyone guesses, the nearest wins) is added there as two new files, and
the copy lists it, explains it, checks its deck and plays it from typed lines.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from source_copy import FILES, PARTYHOST

pytestmark = pytest.mark.slow  # a copy of the project and four runs of the command line

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("partyhost", "host", "voice", "grammars", "decks", "models")

TOY_MODULE = '''"""Closest Guess: one question; each player names a number; the nearest answer wins."""
from __future__ import annotations

from dataclasses import dataclass, field

from host.decks import QUESTIONS_FILE, DeckEntry, Question
from host.contract import Prompt
from host.rules import merge_rules
from host.engine import Game, GameOptions, RuleError, evolve, game_over, new_rng, say

ID = "closest-guess"
TITLE = "Closest Guess"
ORDER = 6
DECK = DeckEntry("questions", QUESTIONS_FILE, min_cards=1)
MODES = ("basic",)
DEALS = ("host",)
MIN_PLAYERS = 1
MAX_PLAYERS = 6
RULE_DEFAULTS: dict = {}
RULES_SUMMARY = "One question is read out. Each of you names a number; the nearest answer wins."


@dataclass
class State:
    players: tuple[str, ...]
    question: Question
    guesses: dict[str, int] = field(default_factory=dict)


def setup(options: GameOptions, decks):
    merge_rules(TITLE, RULE_DEFAULTS, options.rules)
    questions = decks.questions_for(ID)
    if not questions:
        raise RuleError("Closest Guess needs a question deck that names it.")
    question = new_rng(options.seed).choice(questions)
    return State(options.players, question), [say(question.text)]


def prompt(state: State):
    waiting = [p for p in state.players if p not in state.guesses]
    if not waiting or len(state.guesses) == len(state.players):
        return None
    return Prompt(name=f"{ID}/guess", player=waiting[0], text=f"{waiting[0]}, your guess?")


def apply(state: State, action):
    if action["intent"] != "guess":
        raise RuleError("Say a number.")
    s = evolve(state)
    s.guesses[action["player"]] = int(action["value"])
    events = [say(f"{action['player']} says {action['value']}.")]
    if len(s.guesses) == len(s.players):
        best = min(abs(g - s.question.answer) for g in s.guesses.values())
        winners = [p for p in s.players if abs(s.guesses[p] - s.question.answer) == best]
        events += [{"type": "reveal", "card": s.question.text, "value": s.question.answer},
                   game_over({p: int(p in winners) for p in s.players}, winners)]
    return s, events


def scores(state: State) -> str:
    return f"{len(state.guesses)} of {len(state.players)} have guessed."


def grammar_slots(prompt: str, context: dict) -> dict:
    return {}


GAME = Game(
    id=ID,
    title=TITLE,
    modes=MODES,
    deals=DEALS,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rule_defaults=RULE_DEFAULTS,
    rules_summary=RULES_SUMMARY,
    setup=setup,
    prompt=prompt,
    apply=apply,
    scores=scores,
    grammar_slots=grammar_slots,
    order=ORDER,
    deck=DECK,
)
'''

TOY_GRAMMAR = """language: en
prompts:
  closest-guess/guess: [guess]
intents:
  guess:
    data:
      - sentences: ["{number:value}", "(i guess|my guess is) {number:value}"]
lists:
  number:
    range: {from: 0, to: 100}
"""

TOY_DECK = """id,text,answer,year,source,category,games
toy-cats,"Out of 100 homes, about how many keep a cat?",26,2026,"A toy source",animals,closest-guess
"""


def digests(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for package in PACKAGES
        for p in sorted((root / package).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_a_sixth_game_needs_only_its_module_grammar_and_deck_entry(tmp_path):
    copy = tmp_path / "project"
    for package in PACKAGES:
        shutil.copytree(
            REPO / package, copy / package, ignore=shutil.ignore_patterns("__pycache__", "*.onnx", "vosk-model*")
        )
    for name in FILES:
        shutil.copy2(REPO / name, copy / name)
    before = digests(copy)
    (copy / "host" / "games" / "closest_guess.py").write_text(TOY_MODULE, encoding="utf-8")
    (copy / "grammars" / "closest-guess.yaml").write_text(TOY_GRAMMAR, encoding="utf-8")
    deck = tmp_path / "toy.csv"
    deck.write_text(TOY_DECK, encoding="utf-8")
    after = digests(copy)
    assert set(after) - set(before) == {"host/games/closest_guess.py", "grammars/closest-guess.yaml"}
    assert {k: after[k] for k in before} == before  # nothing else was edited

    env = {
        **os.environ,
        "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
        "PARTYHOST_CONFIG": os.devnull,
        "PYTHONPATH": str(copy),
    }

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run(
            [*PARTYHOST, *args], cwd=copy, env=env, input=stdin, capture_output=True, text=True, timeout=120
        )

    listed = run("play", "--help")
    assert "closest-guess" in listed.stdout and "centurion" in listed.stdout
    rules = run("rules", "closest-guess")
    assert rules.returncode == 0 and "nearest answer wins" in rules.stdout
    checked = run("decks", "stats", "--questions", str(deck))
    assert checked.returncode == 0 and "for closest-guess: 1" in checked.stdout, checked.stdout

    events = tmp_path / "events.jsonl"
    game = run(
        "play",
        "closest-guess",
        "--players",
        "Ana,Ben",
        "--seed",
        "1",
        "--input",
        "text",
        "--output",
        "text",
        "--deck",
        str(deck),
        "--events",
        str(events),
        stdin="thirty\nmy guess is 70\n",
    )
    assert game.returncode == 0, game.stderr
    logged = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert [e["intent"] for e in logged if e["type"] == "intent"] == [
        {"intent": "guess", "value": 30},
        {"intent": "guess", "value": 70},
    ]
    assert logged[-1] == {**logged[-1], "type": "game_over", "winners": ["Ana"]}
