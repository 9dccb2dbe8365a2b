"""A prompt's grammar is a pure function of its context.

The accuracy benchmark knows a recorded utterance only by its prompt name and the
manifest's `context`, yet must build exactly the grammar a live game builds. So
every prompt of every scripted game (the same scripts, seeds and decks as
tests/test_play_*.py) must get back its live slot lists from
`host.games.grammar_slots(name, context)` after the context has been through JSON,
as a JSONL manifest stores it. The intents.md context examples must give slots
that let the matcher understand the examples' sentences.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from host.decks import load_decks
from host.engine import GameOptions, Heard, Prompt
from host.eventlog import EventLog
from host.games import get_game, grammar_slots
from host.journal import Journal
from host.session import Session, SessionInfo
from voice.matcher import Matcher

# The deck writers of the play tests, so these games deal the very same cards.
from test_play_keep_cool import write_word_deck
from test_play_zero_to_100 import write_deck as write_zero_to_100_deck

SCRIPTS = Path(__file__).resolve().parent / "scripts"
SILENCE = "..."


@dataclass(frozen=True)
class Case:
    """One script of tests/test_play_*.py and the options it is played with there."""

    script: str
    game: str
    players: tuple[str, ...]
    seed: int
    mode: str = ""
    deal: str = ""
    rules: dict[str, Any] = field(default_factory=dict)
    teams: tuple[tuple[str, ...], ...] = ()


CASES = [
    Case("keep-it-100-basic.txt", "keep-it-100", ("Ana", "Ben", "Cy"), 7, "basic",
         rules={"hand_size": 2}),
    Case("keep-it-100-over100.txt", "keep-it-100", ("Ana", "Ben"), 3, "over100",
         rules={"hand_size": 3}),
    Case("keep-it-100-challenge.txt", "keep-it-100", ("Ana", "Ben"), 5, "challenge"),
    Case("zero-to-100-basic.txt", "zero-to-100", ("Ana", "Ben", "Cy", "Dan", "Eve"), 7,
         "basic", "host", {"hand_size": 3}),
    Case("zero-to-100-basic.txt", "zero-to-100", ("Ana", "Ben", "Cy", "Dan", "Eve"), 7,
         "basic", rules={"hand_size": 3}, teams=(("Ana", "Dan"), ("Ben", "Eve"), ("Cy",))),
    Case("keep-cool-basic-host.txt", "keep-cool", ("Ana", "Ben", "Cy"), 7, "basic", "host"),
    Case("keep-cool-too-cool-host.txt", "keep-cool", ("Ana", "Ben", "Cy"), 7, "too-cool", "host"),
    Case("keep-cool-basic-table.txt", "keep-cool", ("Ana", "Ben", "Cy"), 7, "basic", "table"),
    Case("keep-cool-too-cool-table.txt", "keep-cool", ("Ana", "Ben", "Cy", "Dee"), 7,
         "too-cool", "table"),
    Case("one-percent-basic-host.txt", "one-percent", ("Ana", "Ben", "Cy"), 26, deal="host"),
    Case("one-percent-basic-table.txt", "one-percent", ("Ana", "Ben", "Cy", "Dee"), 187,
         deal="table", rules={"dice": "table"}),
    Case("centurion-pvp-host.txt", "centurion", ("Ana", "Ben"), 7, "pvp", "host",
         {"jokers": 2, "joker_at_multiple": True}),
    Case("centurion-pvp-table.txt", "centurion", ("Ana", "Ben"), 7, "pvp", "table",
         {"target": 15}),
    Case("centurion-vs-host.txt", "centurion", ("Ana",), 2, "vs-host", "host",
         {"highest_first": True, "pool": 21}),
]


class ScriptEars:
    """Typed lines as replies (like the text CLI), remembering every prompt asked."""

    def __init__(self, lines: list[str]):
        self.lines = list(lines)
        self.prompts: list[Prompt] = []

    def hear(self, prompt: Prompt) -> Heard | None:
        self.prompts.append(prompt)
        if not self.lines:
            return None
        line = self.lines.pop(0)
        if line == SILENCE:
            return Heard(timed_out=True) if prompt.timeout else Heard(text="")
        return Heard(text=line)


class QuietMouth:
    def say(self, text: str) -> None: ...
    def sound(self, name: str) -> None: ...
    def private(self, player: str, text: str) -> None: ...

    def adjust(self, change: str) -> str:
        return change


def decks_for(case: Case, folder: Path):
    """The decks the play test gives this game (the CLI's defaults otherwise)."""
    if case.game == "keep-it-100":
        return load_decks([SCRIPTS.parent / "data" / "questions-starter.csv"], [])
    if case.game == "zero-to-100":
        return load_decks([write_zero_to_100_deck(folder / "deck.csv")], [])
    if case.game == "keep-cool":
        write_word_deck(folder / "words.csv")
        return load_decks([], [folder / "words.csv"])
    return load_decks([], [])


def play(case: Case, folder: Path) -> tuple[str, ScriptEars]:
    """Play a script through a Session; how it ended and the ears that heard it."""
    game = get_game(case.game)
    options = GameOptions(players=case.players, teams=case.teams,
                          mode=case.mode or game.MODES[0], deal=case.deal or game.DEALS[0],
                          seed=case.seed, rules=dict(case.rules))
    lines = [line.strip() for line in (SCRIPTS / case.script).read_text(encoding="utf-8")
             .splitlines() if line.strip()]
    ears = ScriptEars(lines)
    journal = Journal(folder / "db.sqlite3")
    session_id = journal.create(game.ID, {"options": {}})
    matcher = Matcher()
    log = EventLog(folder / "events.jsonl", lambda: 0.0)
    session = Session(game, options, decks_for(case, folder), journal,
                      SessionInfo(session_id, "group"), log, ears, QuietMouth(),
                      lambda p, text: matcher.match(p.name, text, p.slots), clock=lambda: 0.0)
    session.start()
    outcome = session.run()
    session.log.close()
    journal.close()
    return outcome, ears


def as_lists(value: Any) -> Any:
    """Tuples as lists, all the way down, so (text, value) pairs compare to [text, value]."""
    if isinstance(value, (list, tuple)):
        return [as_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: as_lists(item) for key, item in value.items()}
    return value


@pytest.mark.parametrize("case", CASES, ids=[f"{c.script}-{c.deal or 'default'}-{len(c.teams)}"
                                             for c in CASES])
def test_every_scripted_prompt_gets_its_slots_back_from_its_context(case, tmp_path):
    outcome, ears = play(case, tmp_path)
    assert outcome == "over" and not ears.lines     # the script played out as in its play test
    game_prompts = [p for p in ears.prompts if p.name.startswith(case.game + "/")]
    assert game_prompts
    for prompt in ears.prompts:
        stored = json.loads(json.dumps(prompt.context))   # what a JSONL manifest gives back
        assert as_lists(grammar_slots(prompt.name, stored)) == as_lists(prompt.slots), prompt.name


def test_every_game_prompt_with_live_lists_was_covered(tmp_path):
    """The scripts reach every prompt that has live lists, so the test above checks them all."""
    seen = set()
    for number, case in enumerate(CASES):
        folder = tmp_path / str(number)
        _, ears = play(case, folder)
        seen |= {p.name for p in ears.prompts if p.slots}
    assert {"keep-it-100/choose_card", "keep-it-100/place", "keep-it-100/bet",
            "zero-to-100/choose_card", "zero-to-100/discard", "keep-cool/word",
            "one-percent/reward"} <= seen


# ---- the manifest-style examples of intents.md -----------------------------

MATCHER = Matcher()


def understood(prompt: str, context: dict[str, Any], heard: str) -> dict[str, Any] | None:
    """What the matcher makes of `heard` with the grammar built from `context` alone."""
    slots = grammar_slots(prompt, json.loads(json.dumps(context)))
    return MATCHER.match(prompt, heard, slots).intent


def test_place_between_two_numbers_of_the_lines():
    context = {"lines": [[12, 42, 60], [5, 80]]}
    assert [value for _, value in grammar_slots("keep-it-100/place", context)["table_number"]] \
        == [5, 12, 42, 60, 80]
    intent = understood("keep-it-100/place", context, "between 42 and 60")
    assert intent is not None
    assert {k: intent[k] for k in ("intent", "after", "before")} == \
        {"intent": "place", "after": 42, "before": 60}
    assert intent.get("line") in (None, 1)
    above = understood("keep-it-100/place", context, "above 80 on line two")
    assert above is not None and (above["after"], above["line"]) == (80, 2)


def test_bet_up_to_the_players_points():
    intent = understood("keep-it-100/bet", {"max": 120}, "bet thirty")
    assert intent == {"intent": "bet", "amount": 30}
    assert ("all in", 120) in grammar_slots("keep-it-100/bet", {"max": 120})["bet_all"]


def test_choose_a_question_card_by_a_word_from_it():
    context = {"hand": ["How many people out of 100 have eaten pizza for breakfast?",
                        "How many people out of 100 can swim?"]}
    assert understood("keep-it-100/choose_card", context, "the pizza one") == \
        {"intent": "choose_card", "card": 1}
    assert understood("keep-it-100/choose_card", context, "the second one") == \
        {"intent": "choose_card", "card": 2}


def test_zero_to_100_choose_a_card_with_powers():
    context = {"hand": ["How many keys does a standard piano have?",
                        "How many minutes does a large pizza take to bake?"],
               "powers": ["50", "20", "spot_on"]}
    intent = understood("zero-to-100/choose_card", context, "the piano one with spot on")
    assert intent is not None
    assert (intent["intent"], intent["card"], intent["powers"]) == ("choose_card", 1, ["spot_on"])
    intent = understood("zero-to-100/choose_card", context, "card two")
    assert intent is not None and (intent["card"], intent.get("powers", [])) == (2, [])


def test_one_percent_bid_over_the_last_one():
    context = {"last": {"count": 11, "family": "star"}}
    assert grammar_slots("one-percent/bid", context) == {}
    assert understood("one-percent/bid", context, "twelve clovers") == \
        {"intent": "bid", "count": 12, "family": "clover"}
    assert understood("one-percent/bid", context, "that's false") == {"intent": "challenge"}


def test_one_percent_reward_steals_from_an_opponent():
    context = {"revealed": [6, "steal", 3], "opponents": ["Ana", "Ben"]}
    assert grammar_slots("one-percent/reward", context) == {"player": [("Ana", "Ana"), ("Ben", "Ben")]}
    intent = understood("one-percent/reward", context, "steal from Ben")
    assert intent is not None and intent.get("from") == "Ben"


def test_keep_cool_word_in_play_and_a_clue():
    context = {"words": ["piano", "river"]}
    assert understood("keep-cool/word", context, "piano") == {"intent": "word", "word": "piano"}
    clue = understood("keep-cool/word", context, "banana")
    assert clue is not None and clue["intent"] == "word" and clue["word"] is None


def test_centurion_play_card_needs_no_live_lists():
    context = {"count": 37}
    assert grammar_slots("centurion/play_card", context) == {}
    assert understood("centurion/play_card", context, "queen of hearts") == \
        {"intent": "play_card", "rank": 12, "suit": "hearts"}


def test_common_prompts_have_no_lists_but_the_roster():
    assert grammar_slots("common/yes_no", {}) == {}
    context = {"roster": ["Ana", "Ben"]}
    assert understood("common/name", context, "it's Ben") == {"intent": "name", "name": "Ben"}


def test_unknown_game_is_refused():
    with pytest.raises(KeyError):
        grammar_slots("snap/play", {})
